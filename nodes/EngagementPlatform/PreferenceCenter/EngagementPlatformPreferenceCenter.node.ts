import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { NodeOperation } from '../shared/engine/nodeOperations';
import { executeChosenOperation, operationProperties } from '../shared/engine/nodeOperations';
import * as update from './operations/update';

const operations: NodeOperation[] = [update];

export class EngagementPlatformPreferenceCenter implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform Preference Center',
		name: 'engagementPlatformPreferenceCenter',
		icon: { light: 'file:../../../icons/engagementPlatform.svg', dark: 'file:../../../icons/engagementPlatform.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Update preference centers, paced at the platform\'s 10 per minute',
		defaults: { name: 'Engagement Platform Preference Center' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'engagementPlatformApi', required: true }],
		properties: operationProperties(operations, 'update'),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, operations);
	}
}
