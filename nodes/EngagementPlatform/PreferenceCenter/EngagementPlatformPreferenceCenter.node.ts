import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeChosenOperation, operationProperties, operationSubtitle, testApiKeyCredential } from '../shared/engine';
import { preferenceCenterOperations } from './operations';

export class EngagementPlatformPreferenceCenter implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform Preference Center',
		name: 'engagementPlatformPreferenceCenter',
		icon: {
			light: 'file:../../../icons/engagementPlatform.svg',
			dark: 'file:../../../icons/engagementPlatform.dark.svg',
		},
		group: ['output'],
		// One version, the first published (CONTRIBUTING.md, Node versions).
		version: 2,
		subtitle: operationSubtitle(preferenceCenterOperations),
		description: "Update preference centers, paced at the platform's 10 per minute",
		defaults: { name: 'Engagement Platform Preference Center' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		builderHint: {
			searchHint:
				"Use to change a preference center page itself: its name, title, page and confirmation HTML, state or icons; updates are paced at the platform's 10 per minute, so no Wait node is needed. It changes no user's subscriptions: use the Engagement Platform Subscription node for a group, or the User node for the all-email subscription.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-engagement-platform.engagementPlatformSubscription',
					relationHint: "Changes users' subscription group states, which this node does not",
				},
			],
		},
		credentials: [{ name: 'engagementPlatformApi', required: true, testedBy: 'engagementPlatformApiTest' }],
		properties: operationProperties(preferenceCenterOperations, 'update', {
			name: 'Preference Center',
			value: 'preferenceCenter',
			builderHint: { propertyHint: "A preference center's page and settings: this node's one resource." },
		}),
	};

	methods = { credentialTest: { engagementPlatformApiTest: testApiKeyCredential } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, preferenceCenterOperations);
	}
}
