import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { defineInputs, propertiesOf, requiredText } from '../../shared/fields/inputs';
import { translationLookupOperation } from '../shared/translationLookupOperation';

export const option: INodePropertyOptions = {
	name: 'Get Canvas Translations',
	value: 'getCanvasTranslations',
	action: 'Get a translation of a canvas message',
	description: "Read one locale's translation of a canvas step's email message",
	builderHint: {
		propertyHint: "Pick for a canvas step's email message: one locale, by its locale ID.",
	},
};

const uuidHint = 'A UUID, e.g. 3f2c8a1e-7b4d-4e9a-9c1f-2d5e6a7b8c9d';

const INPUT = defineInputs({
	stepId: requiredText({
		displayName: 'Step ID',
		name: 'stepId',
		type: 'string',
		default: '',
		required: true,
		hint: uuidHint,
		description: "The canvas step's API identifier",
		builderHint: {
			propertyHint:
				"The canvas step's API identifier, a UUID. Never invent one: if the user has not given it, use a placeholder for them to fill in.",
		},
	}),
	messageVariationId: requiredText({
		displayName: 'Message Variation ID',
		name: 'messageVariationId',
		type: 'string',
		default: '',
		required: true,
		hint: uuidHint,
		description: "The step's email message variation ID",
		builderHint: {
			propertyHint:
				"The step's email message variation ID, a UUID. Never invent one: if the user has not given it, use a placeholder for them to fill in.",
		},
	}),
	localeId: requiredText({
		displayName: 'Locale ID',
		name: 'localeId',
		type: 'string',
		default: '',
		required: true,
		hint: uuidHint,
		description: 'A locale from the multi-language settings',
		builderHint: {
			propertyHint:
				'The ID (a UUID) of a locale from the multi-language settings, not its name such as de-DE. Never invent one: if the user has not given it, use a placeholder for them to fill in.',
		},
	}),
});

export const description: INodeProperties[] = propertiesOf(INPUT);

// The spec places locale_id in the query and does not say where step_id and message_variation_id
// go: a GET has no body, so they are query parameters too.
export const operation = translationLookupOperation({
	path: '/canvas/translations',
	permission: 'canvas.translations.get',
	rateLimit: 'translations.canvas',
	parameters: [
		{ name: 'step_id', input: INPUT.stepId, uuid: true },
		{ name: 'message_variation_id', input: INPUT.messageVariationId, uuid: true },
		{ name: 'locale_id', input: INPUT.localeId, uuid: true },
	],
});
