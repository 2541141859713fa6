import type {
	IHookFunctions,
	IWebhookFunctions,
	IWebhookResponseData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { testPostbackAuthCredential } from './shared/credentialTest';
import { triggerProperties } from './shared/description';
import { receivePostback } from './shared/receivePostback';

export class EngagementPlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform Trigger',
		name: 'engagementPlatformTrigger',
		icon: {
			light: 'file:../../../icons/engagementPlatform.svg',
			dark: 'file:../../../icons/engagementPlatform.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["statuses"].length === 5 ? "All statuses" : $parameter["statuses"].join(", ")}}',
		description: 'Starts the workflow when a transactional email is sent, processed, delivered, bounced or aborted',
		defaults: { name: 'Engagement Platform Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		builderHint: {
			searchHint:
				'Use to start a workflow when the platform posts the status of a transactional email (sent, processed, delivered, bounced, aborted), for example to handle bounces of emails sent with the Engagement Platform Message node; each postback is one item with dispatch_id, status, external_send_id, campaign_api_id, status_time and reason. The platform has no API for the URL: the user pastes the Production URL into its email settings, so the workflow needs no registration step.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-engagement-platform.engagementPlatformMessage',
					relationHint:
						'Sends the transactional emails whose statuses arrive here; match them by dispatch_id or external_send_id',
				},
			],
		},
		credentials: [
			{
				// Not "…Api": see the credential (it authenticates requests to n8n, as HttpHeaderAuth does).
				name: 'engagementPlatformPostbackAuthApi',
				required: true,
				testedBy: 'engagementPlatformPostbackAuthTest',
				displayOptions: { show: { authentication: ['headerAuth', 'basicAuth'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty on purpose: without it n8n 2.x answers an accepted postback with its default
				// "firstEntryJson" as the literal body; empty, it answers {"message":"Workflow was started"}.
				responseData: '',
				path: 'engagement-platform-postback',
			},
		],
		eventTriggerDescription: 'Waiting for a postback on the Test URL',
		activationMessage: 'Postbacks sent to the Production URL now start this workflow.',
		properties: triggerProperties,
	};

	methods = {
		credentialTest: {
			engagementPlatformPostbackAuthTest: testPostbackAuthCredential,
		},
	};

	/**
	 * The platform has no API to register, look up or remove postback URLs: the user pastes the URL
	 * into the platform's email settings (the notice in the node says so). There is nothing to check,
	 * create or delete on the platform's side, so each method is a no-op that reports success, and
	 * n8n registers the webhook path on its own side as usual.
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receivePostback(this);
	}
}
