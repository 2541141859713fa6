import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

/**
 * Stand-ins for the three n8n-nodes-base nodes our example workflows start with, so the
 * examples also run in-process, where n8n-nodes-base is not installed. They do only what the
 * examples use; the end-to-end suite runs the same examples with the real nodes in n8n.
 */

// n8n keeps only the parameters a description declares, so each stand-in declares what it reads.
const description = (name: string, displayName: string, properties: INodeProperties[]): INodeType['description'] => ({
	displayName,
	name,
	group: ['transform'],
	version: [1, 3.4],
	description: `Stand-in for n8n's ${displayName}`,
	defaults: { name: displayName },
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	properties: [
		...properties,
		{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
	],
});

/** Edit Fields (Set) in "JSON" mode: each item becomes the JSON object of `jsonOutput`. */
const set: INodeType = {
	description: description('set', 'Edit Fields (Set)', [
		{
			displayName: 'Mode',
			name: 'mode',
			type: 'options',
			options: [
				{ name: 'Manual', value: 'manual' },
				{ name: 'JSON', value: 'raw' },
			],
			default: 'manual',
		},
		{ displayName: 'JSON', name: 'jsonOutput', type: 'json', default: '{}' },
	]),
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_, item) => {
				if (this.getNodeParameter('mode', item, 'manual') !== 'raw') {
					throw new NodeOperationError(this.getNode(), 'The stand-in supports only the "JSON" mode', {
						itemIndex: item,
					});
				}
				const value = this.getNodeParameter('jsonOutput', item) as unknown;
				const json = (typeof value === 'string' ? JSON.parse(value) : value) as IDataObject;
				return { json, pairedItem: { item } };
			}),
		];
	},
};

/** Split Out: one item per element of the field's array. */
const splitOut: INodeType = {
	description: description('splitOut', 'Split Out', [
		{ displayName: 'Field To Split Out', name: 'fieldToSplitOut', type: 'string', default: '' },
	]),
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().flatMap((input, item) => {
				const field = this.getNodeParameter('fieldToSplitOut', item) as string;
				const values = input.json[field];
				const elements = Array.isArray(values) ? values : [values];
				return elements.map((element) => ({
					json:
						element !== null && typeof element === 'object' && !Array.isArray(element)
							? (element as IDataObject)
							: { [field]: element },
					pairedItem: { item },
				}));
			}),
		];
	},
};

export const BASE_NODE_STAND_INS: Record<string, INodeType> = {
	'n8n-nodes-base.set': set,
	'n8n-nodes-base.splitOut': splitOut,
};
