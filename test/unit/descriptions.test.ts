import type { INode, INodeParameters, INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { loadPackageNodeTypes } from '../harness/package-types';
import { OUTPUT_FIELD } from '../support/nodeWords';
import { answersWithWords } from '../support/successWords';

/** The part of a property's show rule beyond its operations: two properties differ there or are both shown. */
function otherConditions(property: INodeProperties): string {
	const { operation: _operation, ...rest } = property.displayOptions?.show ?? {};
	return JSON.stringify({ show: rest, hide: property.displayOptions?.hide ?? {} });
}

describe('node descriptions', () => {
	test('no operation shows two parameters of one name under the same conditions (the editor would show both)', () => {
		const twice: string[] = [];
		for (const [nodeName, type] of Object.entries(loadPackageNodeTypes())) {
			const seen = new Map<string, string>();
			for (const property of (type as INodeType).description.properties) {
				const operations = (property.displayOptions?.show?.operation as string[] | undefined) ?? ['(every operation)'];
				for (const operation of operations) {
					const key = `${operation} ${property.name} ${otherConditions(property)}`;
					if (seen.has(key)) twice.push(`${nodeName.split('.').pop()}: ${operation} shows "${property.name}" twice`);
					seen.set(key, property.name);
				}
			}
		}

		expect(twice).toEqual([]);
	});

	test('Send Only Changes is offered only where it can leave something out: not by Set Group State, Subscribe or Unsubscribe, whose answer proves no state', () => {
		const types = loadPackageNodeTypes();
		/** The operations whose Options show `name` in the editor (n8n's own rule). */
		const offering = (name: string, collectionValues: INodeParameters = {}) =>
			Object.entries(types)
				.filter(([type]) => type.includes('.'))
				.flatMap(([type, nodeType]) => {
					const { description } = nodeType as INodeType;
					const node = { typeVersion: description.version } as INode;
					const operations = (description.properties.find(({ name: n }) => n === 'operation')?.options ??
						[]) as INodePropertyOptions[];
					return operations
						.map(({ value }) => String(value))
						.filter((operation) =>
							description.properties.some(
								(property) =>
									property.name === 'options' &&
									NodeHelpers.displayParameter({ operation }, property, node, description) &&
									(property.options as INodeProperties[]).some(
										(option) =>
											option.name === name && NodeHelpers.displayParameter(collectionValues, option, node, description),
									),
							),
						)
						.map((operation) => `${type.split('.').pop()} / ${operation}`);
				})
				.sort();
		const attributes = ['engagementPlatformUser / trackUserData', 'engagementPlatformUser / updateAttributes'];
		const on = { sendOnlyChanges: true };

		expect(offering('sendOnlyChanges')).toEqual(attributes);
		for (const tuning of ['forgetSent', 'historySize', 'resendEveryDays']) {
			expect([tuning, offering(tuning, on)]).toEqual([tuning, attributes]);
		}
	});

	test('Send Only Changes added from Add Option arrives on, as the one option of its name (the editor gives an added option its default; n8n 1.x adds the first option of a name, shown or not)', () => {
		const { description } = loadPackageNodeTypes()['n8n-nodes-engagement-platform.engagementPlatformUser'] as INodeType;
		const node = { typeVersion: description.version } as INode;
		// The value the editor gives Send Only Changes when it is added to Update Attributes' Options.
		const options = description.properties.find(
			(property) =>
				property.name === 'options' &&
				NodeHelpers.displayParameter({ operation: 'updateAttributes' }, property, node, description),
		);
		const shown = (options?.options as INodeProperties[]).filter(
			(option) => option.name === 'sendOnlyChanges' && NodeHelpers.displayParameter({}, option, node, description),
		);

		expect(shown.map((option) => option.default)).toEqual([true]);
		// n8n 1.x's editor: the first option of the name, shown or not.
		const collections = description.properties.filter(
			(property) =>
				property.name === 'options' && property.displayOptions?.show?.operation?.includes('updateAttributes'),
		);
		for (const collection of collections) {
			const named = (collection.options as INodeProperties[]).filter((option) => option.name === 'sendOnlyChanges');
			expect(named.map((option) => option.default)).toEqual([true]);
		}
	});

	test("Output Field Name is offered by exactly the operations that answer in their words beside the row (test/support/successWords.ts), engagementPlatform by default; not by those answering with the platform's records", () => {
		const offered: string[] = [];
		const withWords: string[] = [];
		for (const [type, nodeType] of Object.entries(loadPackageNodeTypes())) {
			if (!type.includes('.')) continue; // each type is also listed by its bare name
			const { description } = nodeType as INodeType;
			const node = { typeVersion: description.version } as INode;
			const operations = (description.properties.find(({ name }) => name === 'operation')?.options ??
				[]) as INodePropertyOptions[];
			for (const operation of operations.map(({ value }) => String(value))) {
				const outputFields = description.properties
					.filter(
						(property) =>
							property.name === 'options' && NodeHelpers.displayParameter({ operation }, property, node, description),
					)
					.flatMap((property) => (property.options as INodeProperties[]).filter(({ name }) => name === 'outputField'));
				const id = `${type.split('.').pop()} / ${operation}`;
				if (outputFields.length > 0) offered.push(id);
				if (answersWithWords(type, operation)) withWords.push(id);
				for (const field of outputFields) expect([id, field.default]).toEqual([id, OUTPUT_FIELD]);
			}
		}

		expect(withWords.length).toBeGreaterThan(0);
		expect(offered.sort()).toEqual(withWords.sort());
	});
});

describe('options added from a collection', () => {
	test('a yes/no option added from Add Option or Add Field arrives on: the user who picks it means it (not added, it is off)', () => {
		const arrivingOff: string[] = [];
		const visit = (node: string, path: string, properties: INodeProperties[]) => {
			for (const property of properties) {
				if (property.type !== 'collection') continue;
				for (const option of (property.options ?? []) as INodeProperties[]) {
					if (option.type === 'boolean' && option.default !== true)
						arrivingOff.push(`${node}: ${path}${property.displayName} → ${option.displayName}`);
				}
				visit(node, `${path}${property.displayName} → `, (property.options ?? []) as INodeProperties[]);
			}
		};
		for (const [type, nodeType] of Object.entries(loadPackageNodeTypes())) {
			if (!type.includes('.')) continue;
			visit(type.split('.').pop()!, '', (nodeType as INodeType).description.properties);
		}

		expect([...new Set(arrivingOff)]).toEqual([]);
	});
});
