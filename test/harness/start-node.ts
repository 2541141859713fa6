/**
 * The workflow's start node: emits the run's items, handed over by closure (never through parameters,
 * so 100,000 items cost nothing to set up and never go through parameter or expression handling).
 */
import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

export const START_NODE_NAME = 'Start';
export const START_NODE_TYPE = 'n8n-nodes-harness.start';

export function createStartNodeType(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Start',
			name: 'start',
			group: ['trigger'],
			version: 1,
			description: 'Emits the items given to the test harness',
			defaults: { name: START_NODE_NAME },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			return [items];
		},
	};
}
