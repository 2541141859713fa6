import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { runOperation } from '../shared/engine/runOperation';
import { userOperations } from './operations';
import { trackOptions } from './usersTrack';

export class EngagementPlatformUser implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform User',
		name: 'engagementPlatformUser',
		icon: { light: 'file:../../../icons/engagementPlatform.svg', dark: 'file:../../../icons/engagementPlatform.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Track events, purchases and attributes of users, in batches',
		defaults: { name: 'Engagement Platform User' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'engagementPlatformApi', required: true }],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: userOperations.map(({ option }) => option),
				default: 'trackEvent',
			},
			...userOperations.flatMap(({ description }) => description),
			trackOptions(userOperations.map(({ option }) => String(option.value))),
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const chosen = this.getNodeParameter('operation', 0) as string;
		const declaration = userOperations.find(({ option }) => option.value === chosen);
		if (!declaration) throw new NodeOperationError(this.getNode(), `The operation "${chosen}" is not supported`);
		return await runOperation(this, declaration.operation);
	}
}
