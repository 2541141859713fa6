import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeChosenOperation, operationProperties, operationSubtitle } from '../shared/engine/nodeOperations';
import { userOperations } from './operations';

export class EngagementPlatformUser implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform User',
		name: 'engagementPlatformUser',
		icon: {
			light: 'file:../../../icons/engagementPlatform.svg',
			dark: 'file:../../../icons/engagementPlatform.dark.svg',
		},
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(userOperations),
		description: 'Track events, purchases and attributes of users, export, identify and rename them, in batches',
		defaults: { name: 'Engagement Platform User' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'engagementPlatformApi', required: true }],
		properties: operationProperties(userOperations, 'trackEvent'),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, userOperations);
	}
}
