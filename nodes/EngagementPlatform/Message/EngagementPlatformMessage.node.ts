import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { NodeOperation } from '../shared/engine/nodeOperations';
import { executeChosenOperation, operationProperties } from '../shared/engine/nodeOperations';
import * as schedules from './operations/canvasSchedules';
import * as sendNow from './operations/sendNow';
import * as sendTransactionalEmail from './operations/sendTransactionalEmail';
import * as triggerCampaign from './operations/triggerCampaign';
import * as triggerCanvas from './operations/triggerCanvas';

const operations: NodeOperation[] = [
	{ option: schedules.deleteOption, description: schedules.deleteDescription, operation: schedules.deleteOperation },
	sendNow,
	sendTransactionalEmail,
	triggerCampaign,
	triggerCanvas,
	{ option: schedules.updateOption, description: schedules.updateDescription, operation: schedules.updateOperation },
];

export class EngagementPlatformMessage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform Message',
		name: 'engagementPlatformMessage',
		icon: { light: 'file:../../../icons/engagementPlatform.svg', dark: 'file:../../../icons/engagementPlatform.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Send messages, trigger campaigns and canvases, send transactional email, in batches',
		defaults: { name: 'Engagement Platform Message' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'engagementPlatformApi', required: true }],
		properties: operationProperties(operations, 'triggerCampaign'),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, operations);
	}
}
