import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { defineInputs, optionalText, propertiesOf, requiredText } from '../../shared/fields/inputs';
import { translationLookupOperation } from '../shared/translationLookupOperation';

export const option: INodePropertyOptions = {
	name: 'Get Campaign Translations',
	value: 'getCampaignTranslations',
	action: 'Get translations of a campaign message',
	description: 'Read the translations of an email campaign message, one output item per locale',
	builderHint: {
		propertyHint: "Pick for an email campaign's message: every locale, or one by its name, one output item per locale.",
	},
};

const INPUT = defineInputs({
	campaignId: requiredText({
		displayName: 'Campaign ID',
		name: 'campaignId',
		type: 'string',
		default: '',
		required: true,
		description: "The campaign's API identifier",
		builderHint: {
			propertyHint:
				"The campaign's API identifier from the platform. Never invent one: if the user has not given it, use a placeholder for them to fill in.",
		},
	}),
	messageVariationId: requiredText({
		displayName: 'Message Variation ID',
		name: 'messageVariationId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 3f2c8a1e-7b4d-4e9a-9c1f-2d5e6a7b8c9d',
		description: "The email message's variation ID (a UUID), from the campaign's API identifiers",
		builderHint: {
			propertyHint:
				"The email message's variation ID, a UUID listed with the campaign's API identifiers. Never invent one: if the user has not given it, use a placeholder for them to fill in.",
		},
	}),
	localeName: optionalText({
		displayName: 'Locale Name',
		name: 'localeName',
		type: 'string',
		default: '',
		placeholder: 'e.g. de-DE',
		description:
			'Only the translation of this locale, by its name in the multi-language settings; empty gets every translation',
		builderHint: {
			propertyHint:
				'Leave empty for every translation, one output item each; set a locale name from the multi-language settings (for example de-DE) only when the user asks for one language.',
		},
	}),
});

export const description: INodeProperties[] = propertiesOf(INPUT);

// The spec's heading and permission say /campaigns/translations; a sample writes /campaign/translations.
// The heading is taken, as it matches the permission name and the canvas endpoint.
export const operation = translationLookupOperation({
	path: '/campaigns/translations',
	permission: 'campaigns.translations.get',
	rateLimit: 'translations.campaigns',
	parameters: [
		// Campaign IDs are API identifiers of the platform's own format (not necessarily UUIDs).
		{ name: 'campaign_id', input: INPUT.campaignId, uuid: false },
		{ name: 'message_variation_id', input: INPUT.messageVariationId, uuid: true },
	],
	// locale_id is not a parameter of this endpoint (the canvas endpoint's alone): every translation is
	// asked for, and the item keeps its locale's, matched by the name each translation carries.
	localeFilter: INPUT.localeName,
});
