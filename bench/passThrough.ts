import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

export const PASS_THROUGH_TYPE = 'benchPassThrough';

/**
 * Hands its input items on untouched: what n8n's process needs to take in and hold the items,
 * sending nothing. Our node's peak RSS against this one's is the memory of the work itself.
 */
export const passThrough: INodeType = {
	description: {
		displayName: 'Pass Through',
		name: PASS_THROUGH_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Benchmark memory baseline',
		defaults: { name: 'Pass Through' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	},
};
