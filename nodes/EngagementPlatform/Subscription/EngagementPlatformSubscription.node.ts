import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { operationProperties, operationSubtitle } from '../shared/engine/nodeOperations';
import { executeChosenOperation } from '../shared/engine/runOperation';
import { testApiKeyCredential } from '../shared/engine/send/credentialTest';
import { subscriptionOperations } from './operations';

export class EngagementPlatformSubscription implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform Subscription',
		name: 'engagementPlatformSubscription',
		icon: {
			light: 'file:../../../icons/engagementPlatform.svg',
			dark: 'file:../../../icons/engagementPlatform.dark.svg',
		},
		group: ['output'],
		// Version 2 reads text as a marketer means it (numbers, booleans, zoneless times), starts no field
		// with a value that could become data, and keeps the input on error items. Version 1 runs as 1.0 did.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle(subscriptionOperations),
		description:
			"Subscribe and unsubscribe users from subscription groups (newsletter and SMS lists), in batches; to opt out of all email, use the User node's Email Subscription",
		defaults: { name: 'Engagement Platform Subscription' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'engagementPlatformApi', required: true, testedBy: 'engagementPlatformApiTest' }],
		properties: operationProperties(subscriptionOperations, 'setGroupState'),
	};

	methods = { credentialTest: { engagementPlatformApiTest: testApiKeyCredential } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, subscriptionOperations);
	}
}
