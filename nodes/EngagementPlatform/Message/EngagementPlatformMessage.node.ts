import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeChosenOperation, operationProperties, operationSubtitle, testApiKeyCredential } from '../shared/engine';
import { withBuilderHints } from '../shared/descriptions/builderHints';
import { messageOperations } from './operations';

/**
 * Hints for n8n's AI workflow builder on the parameters the shared builders declare (the property and
 * attribute lists), by parameter name. Fields declared in this node's own files carry their hint where
 * they are declared, each operation's entry in the Operation list too (n8n refuses a hint on the list
 * itself).
 */
const BUILDER_HINTS: Readonly<Record<string, string>> = {
	recipientPropertiesFields:
		"Per-recipient personalization (a campaign's trigger properties, a canvas's entry properties), one entry per property with its name, value (usually mapped from the input item) and type; they win over the shared ones on conflicts.",
	recipientAttributesFields:
		'Profile attributes set on the recipient with the send, one entry per attribute with its name, value and type. In Trigger Campaign and Trigger Canvas they are required, and create the user, when Send to Existing Users Only is off.',
	triggerPropertiesFields:
		'Values the transactional email personalizes with (for example order_id and total), one entry per property with its name, value (usually mapped from the input item) and type.',
};

export class EngagementPlatformMessage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform Message',
		name: 'engagementPlatformMessage',
		icon: {
			light: 'file:../../../icons/engagementPlatform.svg',
			dark: 'file:../../../icons/engagementPlatform.dark.svg',
		},
		group: ['output'],
		// One version, the first published (CONTRIBUTING.md, Node versions).
		version: 2,
		subtitle: operationSubtitle(messageOperations),
		description: 'Send messages, trigger campaigns and canvases, send transactional email, in batches',
		defaults: { name: 'Engagement Platform Message' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		builderHint: {
			searchHint:
				"Use to send: trigger an API-triggered campaign or canvas for each item's user or as a broadcast, send a message written in the node now, send a one-to-one transactional email (receipts, password resets), or update or delete a scheduled canvas. To create or update the users first use the Engagement Platform User node, and for subscription group membership the Engagement Platform Subscription node.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-engagement-platform.engagementPlatformUser',
					relationHint: "Creates and updates the recipients' profiles before a send",
				},
				{
					nodeType: 'n8n-nodes-engagement-platform.engagementPlatformTrigger',
					relationHint:
						'Starts a workflow on the delivery statuses of the transactional emails sent here, matched by dispatch_id or external_send_id',
				},
			],
		},
		credentials: [{ name: 'engagementPlatformApi', required: true, testedBy: 'engagementPlatformApiTest' }],
		properties: withBuilderHints(
			operationProperties(messageOperations, 'triggerCampaign', {
				name: 'Message',
				value: 'message',
				builderHint: { propertyHint: "Messages, campaigns and canvases sent to users: this node's one resource." },
			}),
			BUILDER_HINTS,
		),
	};

	methods = { credentialTest: { engagementPlatformApiTest: testApiKeyCredential } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, messageOperations);
	}
}
