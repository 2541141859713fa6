import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeChosenOperation, operationProperties, operationSubtitle, testApiKeyCredential } from '../shared/engine';
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
		// One version, the first published (CONTRIBUTING.md, Node versions).
		version: 2,
		subtitle: operationSubtitle(subscriptionOperations),
		description:
			"Subscribe and unsubscribe users from subscription groups (newsletter and SMS lists), in batches; to opt out of all email, use the User node's Email Subscription",
		defaults: { name: 'Engagement Platform Subscription' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		builderHint: {
			searchHint:
				'Use to opt users in or out of one subscription group (a newsletter or SMS list) by external ID, email or phone, up to 50 users per request. For attributes, events or purchases, or to opt a user out of all email (Email Subscription), use the Engagement Platform User node; to send messages, the Engagement Platform Message node.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-engagement-platform.engagementPlatformUser',
					relationHint: "Sets profile attributes, events, purchases and the profile's all-email subscription",
				},
			],
		},
		credentials: [{ name: 'engagementPlatformApi', required: true, testedBy: 'engagementPlatformApiTest' }],
		properties: operationProperties(subscriptionOperations, 'setGroupState', {
			name: 'Subscription Group',
			value: 'subscriptionGroup',
			builderHint: {
				propertyHint: "Users' states in one subscription group (a newsletter, an SMS list): this node's one resource.",
			},
		}),
	};

	methods = { credentialTest: { engagementPlatformApiTest: testApiKeyCredential } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, subscriptionOperations);
	}
}
