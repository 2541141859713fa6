import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';

// The check n8n-core's loader runs on every node description it loads (not exported from its index).
import { validateNodeDescription } from 'n8n-core/dist/nodes-loader/validate-node-description';

import { loadPackageNodeTypes, readPackageInfo } from '../harness/package-types';

/**
 * builderHint: the metadata n8n's AI workflow builder reads. Every node says when to pick it
 * (searchHint); every entry of an Operation list says when to pick that operation (n8n's loader
 * refuses a hint on the list itself); the parameters the builder most often fills wrong carry a
 * propertyHint in every version that shows them; no hint leaks wire-format expressions or
 * connection-type names; every related node is named by a well-formed type ID.
 */

type Versions = readonly number[];

/** A key parameter: its name (nested ones too) and the versions that show it, when not all of the node's. */
interface KeyParameter {
	name: string;
	versions?: Versions;
}

const V1: Versions = [1];
const V2: Versions = [2];

const IDENTIFIER = ['identifyBy', 'externalId', 'aliasName', 'aliasLabel', 'email'];

/** The parameters that must carry a propertyHint, by node (the description's `name`). */
const KEY_PARAMETERS: Record<string, Array<string | KeyParameter>> = {
	engagementPlatformUser: [
		...IDENTIFIER,
		'phone',
		'currentExternalId',
		'newExternalId',
		'time',
		{ name: 'properties', versions: V1 },
		{ name: 'propertiesFields', versions: V2 },
		{ name: 'attributes', versions: V1 },
		{ name: 'attributesFields', versions: V2 },
		{ name: 'standardAttributes', versions: V2 },
		'subscription_group_id',
		'sendOnlyChanges',
	],
	engagementPlatformSubscription: [
		'identifyBy',
		'externalId',
		'email',
		'phone',
		'subscriptionGroupId',
		{ name: 'sendOnlyChanges', versions: V1 },
	],
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
		{ name: 'recipientProperties', versions: V1 },
		{ name: 'recipientPropertiesFields', versions: V2 },
		{ name: 'recipientAttributes', versions: V1 },
		{ name: 'recipientAttributesFields', versions: V2 },
		{ name: 'triggerProperties', versions: V1 },
		{ name: 'triggerPropertiesFields', versions: V2 },
	],
	engagementPlatformTrigger: ['authentication', 'statuses', 'dropDuplicates'],
	engagementPlatformCatalog: [
		'catalogName',
		'itemId',
		{ name: 'fields', versions: V1 },
		{ name: 'fieldsFields', versions: V2 },
	],
	engagementPlatformPreferenceCenter: ['preferenceCenterId'],
	engagementPlatformTranslation: ['campaignId', 'messageVariationId', 'stepId', 'localeId', 'localeName'],
	engagementPlatformDashboardUser: ['userId', 'email'],
};

/** Each node's descriptions with the versions they serve: one per version for a versioned type. */
function descriptionsOf(
	type: INodeType | IVersionedNodeType,
): Array<{ version: number; description: INodeTypeDescription }> {
	const versioned = (type as IVersionedNodeType).nodeVersions;
	if (versioned)
		return Object.entries(versioned).map(([version, nodeType]) => ({
			version: Number(version),
			description: nodeType.description,
		}));
	const { description } = type as INodeType;
	const versions = Array.isArray(description.version) ? description.version : [description.version];
	return versions.map((version) => ({ version, description }));
}

function packageNodes(): Array<[string, INodeType | IVersionedNodeType]> {
	return Object.entries(loadPackageNodeTypes()).filter(([type]) => type.includes('.'));
}

/**
 * Whether a property is shown in this version, its other conditions taken as met: n8n's own rule,
 * given the first value each of its other show conditions names.
 */
function shownInVersion(property: INodeProperties, version: number, description: INodeTypeDescription): boolean {
	const values: INodeParameters = {};
	for (const [name, accepted] of Object.entries(property.displayOptions?.show ?? {}))
		if (name !== '@version' && Array.isArray(accepted)) values[name] = accepted[0] as INodeParameters[string];
	const node = { typeVersion: version } as INode;
	return NodeHelpers.displayParameter(
		values,
		{ ...property, displayOptions: { show: property.displayOptions?.show } },
		node,
		description,
	);
}

/** Every property of a description, nested ones too, each with whether it (and all it sits in) shows in `version`. */
function* propertiesOf(
	properties: INodeProperties[],
	version: number,
	description: INodeTypeDescription,
	parentShown = true,
): Generator<{ property: INodeProperties; shown: boolean }> {
	for (const property of properties) {
		const shown = parentShown && shownInVersion(property, version, description);
		yield { property, shown };
		if (property.type === 'collection')
			yield* propertiesOf((property.options ?? []) as INodeProperties[], version, description, shown);
		if (property.type === 'fixedCollection')
			for (const group of (property.options ?? []) as INodePropertyCollection[])
				yield* propertiesOf(group.values, version, description, shown);
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
	test('every node has a key parameter list here, and every description of every version a searchHint', () => {
		const nodes = packageNodes();
		expect(nodes.map(([type]) => type.split('.').pop()).sort()).toEqual(Object.keys(KEY_PARAMETERS).sort());
		const missing: string[] = [];
		for (const [type, nodeType] of nodes)
			for (const { version, description } of descriptionsOf(nodeType)) {
				const searchHint = description.builderHint?.searchHint;
				if (typeof searchHint !== 'string' || searchHint.trim() === '') missing.push(`${type} v${version}`);
			}

		expect(missing).toEqual([]);
	});

	test('every entry of an Operation list carries a propertyHint, the list itself none (n8n refuses to load one there)', () => {
		const problems: string[] = [];
		for (const [type, nodeType] of packageNodes()) {
			const nodeName = type.split('.').pop()!;
			for (const { version, description } of descriptionsOf(nodeType))
				for (const property of description.properties) {
					if (!['operation', 'resource', 'mode'].includes(property.name) || property.type !== 'options') continue;
					if (property.builderHint)
						problems.push(`${nodeName} v${version}: the ${property.name} list has a builderHint`);
					for (const option of (property.options ?? []) as INodePropertyOptions[]) {
						if (!option.builderHint?.propertyHint?.trim())
							problems.push(`${nodeName} v${version}: ${property.name} ${String(option.value)} has no propertyHint`);
					}
				}
		}

		expect(problems).toEqual([]);
	});

	test("n8n-core's loader accepts every description with its hints", () => {
		for (const [, nodeType] of packageNodes())
			for (const { description } of descriptionsOf(nodeType))
				expect(() => validateNodeDescription(description)).not.toThrow();
	});

	test('each key parameter is shown in the versions listed and carries a propertyHint wherever it is declared', () => {
		const problems: string[] = [];
		for (const [type, nodeType] of packageNodes()) {
			const nodeName = type.split('.').pop()!;
			for (const { version, description } of descriptionsOf(nodeType)) {
				const all = [...propertiesOf(description.properties, version, description)];
				for (const entry of KEY_PARAMETERS[nodeName] ?? []) {
					const { name, versions } = typeof entry === 'string' ? { name: entry, versions: undefined } : entry;
					const named = all.filter(({ property }) => property.name === name);
					const expected = versions === undefined || versions.includes(version);
					if (expected && !named.some(({ shown }) => shown))
						problems.push(`${nodeName} v${version}: ${name} is not shown`);
					for (const { property, shown } of named) {
						if (!shown) continue;
						const hint = property.builderHint?.propertyHint;
						if (typeof hint !== 'string' || hint.trim() === '')
							problems.push(`${nodeName} v${version}: ${name} (${property.displayName}) has no propertyHint`);
					}
				}
			}
		}

		expect(problems).toEqual([]);
	});

	test('no hint holds a wire-format expression or a connection-type name', () => {
		const connectionNames = Object.values(NodeConnectionTypes).filter((name) => name.startsWith('ai_'));
		const leaks: string[] = [];
		for (const [type, nodeType] of packageNodes())
			for (const { version, description } of descriptionsOf(nodeType))
				for (const text of hintTexts(description)) {
					if (text.includes('={{')) leaks.push(`${type} v${version}: "={{" in ${text}`);
					for (const name of connectionNames)
						if (new RegExp(`\\b${name}\\b`).test(text)) leaks.push(`${type} v${version}: ${name} in ${text}`);
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
		for (const [type, nodeType] of packageNodes())
			for (const { version, description } of descriptionsOf(nodeType))
				for (const { nodeType: id, relationHint } of description.builderHint?.relatedNodes ?? []) {
					related++;
					if (!TYPE_ID.test(id)) wrong.push(`${type} v${version}: ${id} is no type ID`);
					if (id.startsWith(`${packageName}.`) && !ours.has(id))
						wrong.push(`${type} v${version}: ${id} is none of ours`);
					if (id === type) wrong.push(`${type} v${version}: names itself`);
					if (!relationHint?.trim()) wrong.push(`${type} v${version}: ${id} has no relationHint`);
				}

		expect(wrong).toEqual([]);
		expect(related).toBeGreaterThan(0);
	});
});
