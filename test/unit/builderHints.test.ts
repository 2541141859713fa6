import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';

// The check n8n-core's loader runs on every node description it loads (not exported from its index).
import { validateNodeDescription } from 'n8n-core/dist/nodes-loader/validate-node-description';

import { loadPackageNodeTypes, readPackageInfo } from '../harness/package-types';

/**
 * builderHint: the metadata n8n's AI workflow builder reads. Every node says when to pick it
 * (searchHint); every entry of an Operation list says when to pick that operation (n8n's loader
 * refuses a hint on the list itself); the parameters the builder most often fills wrong are shown
 * and carry a propertyHint wherever they are declared; no hint leaks wire-format expressions or
 * connection-type names; every related node is named by a well-formed type ID.
 */

const IDENTIFIER = ['identifyBy', 'externalId', 'aliasName', 'aliasLabel', 'email'];

/** The parameters (nested ones too) that must be shown and carry a propertyHint, by node (the description's `name`). */
const KEY_PARAMETERS: Record<string, string[]> = {
	engagementPlatformUser: [
		...IDENTIFIER,
		'phone',
		'currentExternalId',
		'newExternalId',
		'time',
		'propertiesFields',
		'attributesFields',
		'standardAttributes',
		'subscription_group_id',
		'sendOnlyChanges',
	],
	engagementPlatformSubscription: ['identifyBy', 'externalId', 'email', 'phone', 'subscriptionGroupId'],
	engagementPlatformMessage: [
		'sendTo',
		...IDENTIFIER,
		'campaignId',
		'canvasId',
		'scheduleId',
		'segmentId',
		'time',
		'externalSendId',
		'sendToExistingOnly',
		'recipientPropertiesFields',
		'recipientAttributesFields',
		'triggerPropertiesFields',
	],
	engagementPlatformTrigger: ['authentication', 'statuses', 'dropDuplicates'],
	engagementPlatformCatalog: ['catalogName', 'itemId', 'fieldsFields'],
	engagementPlatformPreferenceCenter: ['preferenceCenterId'],
	engagementPlatformTranslation: ['campaignId', 'messageVariationId', 'stepId', 'localeId', 'localeName'],
	engagementPlatformDashboardUser: ['userId', 'email'],
};

/** Every node of the package with its description (each node lists one version, which it describes). */
function packageNodes(): Array<[string, INodeTypeDescription]> {
	return Object.entries(loadPackageNodeTypes())
		.filter(([type]) => type.includes('.'))
		.map(([type, nodeType]) => [type, (nodeType as INodeType).description]);
}

/**
 * Whether a property is shown, its other conditions taken as met: n8n's own rule, given the first
 * value each of its show conditions names.
 */
function shown(property: INodeProperties, description: INodeTypeDescription): boolean {
	const values: INodeParameters = {};
	for (const [name, accepted] of Object.entries(property.displayOptions?.show ?? {}))
		if (Array.isArray(accepted)) values[name] = accepted[0] as INodeParameters[string];
	const node = { typeVersion: description.version } as INode;
	return NodeHelpers.displayParameter(
		values,
		{ ...property, displayOptions: { show: property.displayOptions?.show } },
		node,
		description,
	);
}

/** Every property of a description, nested ones too, each with whether it (and all it sits in) is shown. */
function* propertiesOf(
	properties: INodeProperties[],
	description: INodeTypeDescription,
	parentShown = true,
): Generator<{ property: INodeProperties; shown: boolean }> {
	for (const property of properties) {
		const isShown = parentShown && shown(property, description);
		yield { property, shown: isShown };
		if (property.type === 'collection')
			yield* propertiesOf((property.options ?? []) as INodeProperties[], description, isShown);
		if (property.type === 'fixedCollection')
			for (const group of (property.options ?? []) as INodePropertyCollection[])
				yield* propertiesOf(group.values, description, isShown);
	}
}

/** Every builderHint text of a description: the node's, each parameter's, option's and group's. */
function hintTexts(value: unknown, found: string[] = []): string[] {
	if (Array.isArray(value)) value.forEach((entry) => hintTexts(entry, found));
	else if (value && typeof value === 'object')
		for (const [key, entry] of Object.entries(value)) {
			if (key === 'builderHint') collectStrings(entry, found);
			else hintTexts(entry, found);
		}
	return found;
}

function collectStrings(value: unknown, found: string[]): void {
	if (typeof value === 'string') found.push(value);
	else if (Array.isArray(value)) value.forEach((entry) => collectStrings(entry, found));
	else if (value && typeof value === 'object') Object.values(value).forEach((entry) => collectStrings(entry, found));
}

describe('builderHint metadata for the AI workflow builder', () => {
	test('every node has a key parameter list here, and a searchHint', () => {
		const nodes = packageNodes();
		expect(nodes.map(([type]) => type.split('.').pop()).sort()).toEqual(Object.keys(KEY_PARAMETERS).sort());
		const missing: string[] = [];
		for (const [type, description] of nodes) {
			const searchHint = description.builderHint?.searchHint;
			if (typeof searchHint !== 'string' || searchHint.trim() === '') missing.push(type);
		}

		expect(missing).toEqual([]);
	});

	test('every entry of an Operation list carries a propertyHint, the list itself none (n8n refuses to load one there)', () => {
		const problems: string[] = [];
		for (const [type, description] of packageNodes()) {
			const nodeName = type.split('.').pop()!;
			for (const property of description.properties) {
				if (!['operation', 'resource', 'mode'].includes(property.name) || property.type !== 'options') continue;
				if (property.builderHint) problems.push(`${nodeName}: the ${property.name} list has a builderHint`);
				for (const option of (property.options ?? []) as INodePropertyOptions[]) {
					if (!option.builderHint?.propertyHint?.trim())
						problems.push(`${nodeName}: ${property.name} ${String(option.value)} has no propertyHint`);
				}
			}
		}

		expect(problems).toEqual([]);
	});

	test("n8n-core's loader accepts every description with its hints", () => {
		for (const [, description] of packageNodes()) expect(() => validateNodeDescription(description)).not.toThrow();
	});

	test('each key parameter is shown and carries a propertyHint wherever it is declared', () => {
		const problems: string[] = [];
		for (const [type, description] of packageNodes()) {
			const nodeName = type.split('.').pop()!;
			const all = [...propertiesOf(description.properties, description)];
			for (const name of KEY_PARAMETERS[nodeName] ?? []) {
				const named = all.filter(({ property }) => property.name === name);
				if (!named.some(({ shown: isShown }) => isShown)) problems.push(`${nodeName}: ${name} is not shown`);
				for (const { property, shown: isShown } of named) {
					if (!isShown) continue;
					const hint = property.builderHint?.propertyHint;
					if (typeof hint !== 'string' || hint.trim() === '')
						problems.push(`${nodeName}: ${name} (${property.displayName}) has no propertyHint`);
				}
			}
		}

		expect(problems).toEqual([]);
	});

	test('no hint holds a wire-format expression or a connection-type name', () => {
		const connectionNames = Object.values(NodeConnectionTypes).filter((name) => name.startsWith('ai_'));
		const leaks: string[] = [];
		for (const [type, description] of packageNodes())
			for (const text of hintTexts(description)) {
				if (text.includes('={{')) leaks.push(`${type}: "={{" in ${text}`);
				for (const name of connectionNames)
					if (new RegExp(`\\b${name}\\b`).test(text)) leaks.push(`${type}: ${name} in ${text}`);
			}

		expect(leaks).toEqual([]);
	});

	test("every related node is named by a well-formed type ID, and this package's by one of its nodes", () => {
		const { name: packageName } = readPackageInfo();
		const ours = new Set(packageNodes().map(([type]) => type));
		// package (optionally @scope/) then "." then the node's camelCase name, as n8n-nodes-base.googleSheets
		const TYPE_ID = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*\.[a-z][A-Za-z0-9]*$/;
		const wrong: string[] = [];
		let related = 0;
		for (const [type, description] of packageNodes())
			for (const { nodeType: id, relationHint } of description.builderHint?.relatedNodes ?? []) {
				related++;
				if (!TYPE_ID.test(id)) wrong.push(`${type}: ${id} is no type ID`);
				if (id.startsWith(`${packageName}.`) && !ours.has(id)) wrong.push(`${type}: ${id} is none of ours`);
				if (id === type) wrong.push(`${type}: names itself`);
				if (!relationHint?.trim()) wrong.push(`${type}: ${id} has no relationHint`);
			}

		expect(wrong).toEqual([]);
		expect(related).toBeGreaterThan(0);
	});
});
