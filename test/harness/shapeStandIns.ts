import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * Stand-ins for the n8n-nodes-base nodes that shape how our nodes run in one execution (several times,
 * or on a branch), doing what n8n's own do to the shape of the run (n8n-nodes-base is not installed in-process; the
 * end-to-end suite has the real ones):
 * - Switch: the items in `branches` runs of consecutive items, one per output (up to five), every output
 *   wired to the same node, as both branches of an IF wired into one node: that node runs once per
 *   output. n8n (execution order v1) runs it for the last output first, so the first items go on the
 *   last output: the node's runs meet the items in their order.
 * - IF: one column's true or false (below).
 * - Loop Over Items (Split in Batches v3): `batchSize` items per pass on its "loop" output, everything
 *   back on "done" once the items are spent; the node in the loop runs once per pass.
 */
const MAX_BRANCHES = 5;

const switchStandIn: INodeType = {
	description: {
		displayName: 'Switch',
		name: 'switch',
		group: ['transform'],
		version: 3,
		description: "Stand-in for n8n's Switch",
		defaults: { name: 'Switch' },
		inputs: [NodeConnectionTypes.Main],
		outputs: Array.from({ length: MAX_BRANCHES }, () => NodeConnectionTypes.Main),
		properties: [{ displayName: 'Branches', name: 'branches', type: 'number', default: 2 }],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const branches = this.getNodeParameter('branches', 0) as number;
		const outputs: INodeExecutionData[][] = Array.from({ length: MAX_BRANCHES }, () => []);
		const input = this.getInputData();
		const perBranch = Math.ceil(input.length / branches);
		input.forEach((item, index) =>
			outputs[branches - 1 - Math.floor(index / perBranch)].push({ json: item.json, pairedItem: { item: index } }),
		);
		return outputs;
	},
};

interface LoopContext extends IDataObject {
	items?: INodeExecutionData[];
	processed?: INodeExecutionData[];
}

const loopStandIn: INodeType = {
	description: {
		displayName: 'Loop Over Items',
		name: 'splitInBatches',
		group: ['organization'],
		version: 3,
		description: "Stand-in for n8n's Loop Over Items",
		defaults: { name: 'Loop Over Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['done', 'loop'],
		properties: [{ displayName: 'Batch Size', name: 'batchSize', type: 'number', default: 1 }],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const batchSize = this.getNodeParameter('batchSize', 0) as number;
		const context = this.getContext('node') as LoopContext;
		const input = this.getInputData();
		if (context.items === undefined) {
			// The first pass: the workflow's items, each paired with its input.
			context.items = input.map((item, index) => ({ json: item.json, pairedItem: { item: index } }));
			context.processed = [];
		} else {
			context.processed = [...(context.processed ?? []), ...input.map((item) => ({ json: item.json }))];
		}
		const batch = context.items.splice(0, batchSize);
		if (batch.length === 0) {
			const done = context.processed ?? [];
			delete context.items;
			delete context.processed;
			return [done, []];
		}
		return [[], batch];
	},
};

/**
 * IF, on one column: the items whose `field` is true on the "true" output, the rest on "false", each
 * paired with its input. Which branch n8n runs first is its own affair: read it from the run.
 */
const ifStandIn: INodeType = {
	description: {
		displayName: 'If',
		name: 'if',
		group: ['transform'],
		version: 2,
		description: "Stand-in for n8n's IF",
		defaults: { name: 'If' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['true', 'false'],
		properties: [{ displayName: 'Field', name: 'field', type: 'string', default: '' }],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const field = this.getNodeParameter('field', 0) as string;
		const items = this.getInputData().map((item, index) => ({ json: item.json, pairedItem: { item: index } }));
		return [items.filter(({ json }) => json[field] === true), items.filter(({ json }) => json[field] !== true)];
	},
};

export const SHAPE_STAND_INS: Record<string, INodeType> = {
	'n8n-nodes-base.switch': switchStandIn,
	'n8n-nodes-base.splitInBatches': loopStandIn,
	'n8n-nodes-base.if': ifStandIn,
};
