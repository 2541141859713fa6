import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { operationProperties, operationSubtitle } from '../shared/engine/nodeOperations';
import { executeChosenOperation } from '../shared/engine/runOperation';
import { testApiKeyCredential } from '../shared/engine/send/credentialTest';
import { subscriptionOperations } from './operations';

/**
 * Hints for n8n's AI workflow builder on the parameters the shared builders declare (the user
 * identifier, Send Only Changes), by parameter name. Fields declared in this node's own files carry
 * their hint where they are declared, each operation's entry in the Operation list too (n8n refuses
 * a hint on the list itself).
 */
const BUILDER_HINTS: Readonly<Record<string, string>> = {
	identifyBy:
		"Pick the kind of identifier the input items carry, preferring external_id (the user's ID in your own system) where it is offered; the kinds listed are the ones this operation accepts.",
	externalId:
		"The user's ID in your own system (for example the CRM contact ID), mapped from each input item. Stand-in values such as test, null, unknown or 0 are refused as dummy users.",
	email: "The user's email address, mapped from each input item; an item whose value is not an email address fails.",
	phone:
		"The user's phone number in E.164 form, a plus sign, the country code and the number (for example +14155552671), mapped from each input item; spaces, dashes and brackets are removed before it is checked.",
	sendOnlyChanges:
		"Leave it off: the platform's answer does not prove a group state, so with it on every item is still sent.",
};

/** The properties with the hints above added; the Options collection's own options included. */
function withBuilderHints(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		const propertyHint = BUILDER_HINTS[property.name];
		const hinted = propertyHint && !property.builderHint ? { ...property, builderHint: { propertyHint } } : property;
		return property.name === 'options' && property.type === 'collection'
			? { ...hinted, options: withBuilderHints(property.options as INodeProperties[]) }
			: hinted;
	});
}

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
		properties: withBuilderHints(operationProperties(subscriptionOperations, 'setGroupState')),
	};

	methods = { credentialTest: { engagementPlatformApiTest: testApiKeyCredential } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, subscriptionOperations);
	}
}
