import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeChosenOperation, operationProperties, operationSubtitle, testApiKeyCredential } from '../shared/engine';
import { withBuilderHints } from '../shared/descriptions/builderHints';
import { userOperations } from './operations';
import { getStandardAttributes } from './shared/standardAttributeFields';

/**
 * Hints for n8n's AI workflow builder on the parameters the shared builders declare (the attribute and
 * property lists, Send Only Changes), by parameter name. Fields declared in this node's own files
 * carry their hint where they are declared, each operation's entry in the Operation list too (n8n
 * refuses a hint on the list itself).
 */
const BUILDER_HINTS: Readonly<Record<string, string>> = {
	propertiesFields:
		"Event or purchase properties, one entry per property with its name, its value (usually mapped from the input item) and its type. Text written as a date (2026-03-01 or 2026-03-01 14:30) is sent as a date, one without a zone in the workflow's timezone.",
	attributesFields:
		"Attributes to set, one entry per attribute with its name, value and type, text written as a date being sent as a date in the workflow's timezone. In Update Attributes the standard attributes (first_name, email, country...) go in Standard Attributes and only custom ones here.",
	sendOnlyChanges:
		'Turn on for a recurring sync of the same users (a scheduled sheet or CRM sync): attribute values the platform already accepted from this workflow are left out, a changed contact sends only its changed values (the rest listed under unchanged), and an item with nothing new comes out with status unchanged. Events and purchases are always sent.',
};

export class EngagementPlatformUser implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform User',
		name: 'engagementPlatformUser',
		icon: {
			light: 'file:../../../icons/engagementPlatform.svg',
			dark: 'file:../../../icons/engagementPlatform.dark.svg',
		},
		group: ['output'],
		// One version, the first published (CONTRIBUTING.md, Node versions).
		version: 2,
		subtitle: operationSubtitle(userOperations),
		description: 'Track events, purchases and attributes of users, export, identify and rename them, in batches',
		defaults: { name: 'Engagement Platform User' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		builderHint: {
			searchHint:
				'Use for customer profiles: track custom events and purchases, update attributes (standard and custom, the all-email subscription, subscription groups), identify anonymous profiles, rename external IDs and export profiles, one user per input item, batched into requests by the node itself (no loop needed). To opt users in or out of one subscription group (a newsletter or SMS list) use the Engagement Platform Subscription node instead, and to send messages or trigger campaigns and canvases the Engagement Platform Message node.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-engagement-platform.engagementPlatformSubscription',
					relationHint: 'Opts users in or out of one subscription group (a newsletter, an SMS list)',
				},
				{
					nodeType: 'n8n-nodes-engagement-platform.engagementPlatformMessage',
					relationHint: 'Sends messages and triggers campaigns and canvases for the users kept here',
				},
				{
					nodeType: 'n8n-nodes-base.googleSheets',
					relationHint: 'A common source of contact rows to sync as attributes, one user per row',
				},
				{
					nodeType: 'n8n-nodes-base.scheduleTrigger',
					relationHint: 'Runs a recurring sync; with Send Only Changes only changed attribute values are sent',
				},
			],
		},
		credentials: [{ name: 'engagementPlatformApi', required: true, testedBy: 'engagementPlatformApiTest' }],
		properties: withBuilderHints(
			operationProperties(userOperations, 'trackEvent', {
				name: 'User',
				value: 'user',
				builderHint: {
					propertyHint: "Users' profiles: their events, purchases and attributes. This node's one resource.",
				},
			}),
			BUILDER_HINTS,
		),
	};

	methods = {
		resourceMapping: { getStandardAttributes },
		credentialTest: { engagementPlatformApiTest: testApiKeyCredential },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, userOperations);
	}
}
