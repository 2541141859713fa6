/** Conservation cases of the Subscription, Catalog, Preference Center and Translation nodes. */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

import type { SeedCatalog } from '../../sandbox';
import { CATALOG_NODE, PREFERENCE_CENTER_NODE, SUBSCRIPTION_NODE, TRANSLATION_NODE } from '../support/nodeTypes';
import { ALIAS_LABELS, batch, identifierOf, identifierParameters, mostly, plain, profilesOf, userOf } from './batches';
import type { ConservationCase } from './conservationCase';
import { catalogKey, preferenceCenterKey, translationKey, userKey } from './wirePieces';

const MAX_ITEMS = 130;
const RUNS = 4;

const setGroupState: ConservationCase = {
	name: 'Subscription: Set Group State',
	nodeType: SUBSCRIPTION_NODE,
	operation: 'setGroupState',
	parameters: {
		operation: 'setGroupState',
		subscriptionGroupId: '={{ $json.group }}',
		subscriptionState: '={{ $json.state }}',
		...identifierParameters,
	},
	items: batch(
		fc.record({
			group: mostly('newsletter', ['offers'], 4),
			state: mostly('subscribed', ['unsubscribed'], 3),
			idKind: fc.constantFrom('external_id', 'email', 'phone'),
			aliasLabel: fc.constantFrom(...ALIAS_LABELS),
		}),
		(choice, index) => ({ ...userOf(index, choice.aliasLabel), ...choice }),
		MAX_ITEMS,
	),
	numRuns: RUNS,
	seed: (items) => ({ profiles: profilesOf(items), subscriptionGroups: ['newsletter', 'offers'] }),
	expected(json) {
		const [[kind, id]] = Object.entries(identifierOf(json));
		const field = { external_id: 'external_ids', email: 'emails', phone: 'phones' }[kind];
		return [
			{
				key: userKey('subscription', kind, id),
				value: { subscription_group_id: json.group, subscription_state: json.state, field, id },
			},
		];
	},
};

/** Subscribe and Unsubscribe: Set Group State with one state for every item, and no State field. */
const withFixedState = (operation: 'subscribe' | 'unsubscribe', name: string): ConservationCase => {
	const state = operation === 'subscribe' ? 'subscribed' : 'unsubscribed';
	const { subscriptionState: _state, ...parameters } = setGroupState.parameters;
	return {
		...setGroupState,
		name: `Subscription: ${name}`,
		operation,
		parameters: { ...parameters, operation },
		expected: (json, index) => setGroupState.expected({ ...json, state }, index),
	};
};

const CATALOGS = ['menu', 'wines'];
const FIELDS: SeedCatalog['fields'] = [
	{ name: 'name', type: 'string' },
	{ name: 'price', type: 'number' },
	{ name: 'tags', type: 'array' },
];
const catalogsSeed = (items: IDataObject[], withItems: boolean) => ({
	catalogs: CATALOGS.map((name) => ({
		name,
		fields: FIELDS,
		items: withItems
			? items
					.filter((json) => json.catalog === name)
					.map((json) => ({ id: json.id, name: 'Soup', price: 5, tags: ['hot', 'vegan'] }))
			: [],
	})),
});
const catalogParameters = {
	catalogName: '={{ $json.catalog }}',
	itemId: '={{ $json.id }}',
	fieldsInput: 'json',
	fieldsJson: '={{ $json.fields }}',
};
const catalogChoice = mostly('menu', ['wines'], 4);
const catalogExpected = (method: string) => (json: IDataObject) => [
	{
		key: catalogKey(json.catalog as string, json.id),
		value: { method, item: { id: json.id, ...((json.fields as IDataObject | undefined) ?? {}) } },
	},
];

const replaceItems: ConservationCase = {
	name: 'Catalog: Replace Items',
	nodeType: CATALOG_NODE,
	operation: 'replaceItems',
	parameters: { operation: 'replaceItems', ...catalogParameters },
	items: batch(
		fc.record({
			catalog: catalogChoice,
			name: fc.constantFrom('Soup', 'Risotto', 'Crème brûlée'),
			price: fc.integer({ min: 1, max: 90 }),
			tags: fc.subarray(['hot', 'vegan', 'spicy']),
		}),
		({ catalog, ...fields }, index) => ({ catalog, id: `dish-${index}`, fields }),
		MAX_ITEMS,
	),
	numRuns: RUNS,
	seed: (items) => catalogsSeed(items, false),
	expected: catalogExpected('PUT'),
};

const edit = fc.oneof(
	fc.integer({ min: 1, max: 90 }).map((price) => ({ price })),
	fc.constantFrom('Soup', 'Salad').map((name) => ({ name })),
	fc.constantFrom('spicy', 'local').map((tag) => ({ tags: { $add: [tag] } })),
	fc.constant({ tags: { $remove: ['hot'] } }),
);

const editItems: ConservationCase = {
	name: 'Catalog: Edit Items',
	nodeType: CATALOG_NODE,
	operation: 'editItems',
	parameters: { operation: 'editItems', ...catalogParameters },
	items: batch(
		fc.record({ catalog: catalogChoice, fields: edit }),
		({ catalog, fields }, index) => ({ catalog, id: `dish-${index}`, fields: plain(fields) }),
		MAX_ITEMS,
	),
	numRuns: RUNS,
	seed: (items) => catalogsSeed(items, true),
	expected: catalogExpected('PATCH'),
};

const deleteItems: ConservationCase = {
	name: 'Catalog: Delete Items',
	nodeType: CATALOG_NODE,
	operation: 'deleteItems',
	parameters: { operation: 'deleteItems', catalogName: '={{ $json.catalog }}', itemId: '={{ $json.id }}' },
	items: batch(catalogChoice, (catalog, index) => ({ catalog, id: `dish-${index}` }), MAX_ITEMS),
	numRuns: RUNS,
	seed: (items) => catalogsSeed(items, true),
	expected: catalogExpected('DELETE'),
};

/** The node paces this endpoint at the spec's 10 updates a minute: a run stays within one minute's. */
const PREFERENCE_CENTERS = 8;

const updatePreferenceCenter: ConservationCase = {
	name: 'Preference Center: Update',
	nodeType: PREFERENCE_CENTER_NODE,
	operation: 'update',
	parameters: {
		operation: 'update',
		preferenceCenterId: '={{ $json.id }}',
		updateFields: {
			name: '={{ $json.name }}',
			preference_center_title: '={{ $json.title }}',
			state: '={{ $json.state }}',
			meta_viewport_content: '={{ $json.viewport }}',
			links_tags: { tag: [{ rel: '={{ $json.rel }}', href: '={{ $json.href }}' }] },
		},
	},
	items: batch(
		fc.record({
			title: fc.constantFrom('Your choices', 'Vos préférences'),
			state: fc.constantFrom('active', 'draft'),
			viewport: fc.constantFrom('width=device-width, initial-scale=1', 'width=device-width'),
			rel: fc.constantFrom('icon', 'shortcut icon', 'apple-touch-icon'),
		}),
		(choice, index) => ({
			...choice,
			id: `pc-${index}`,
			name: `Center ${index}`,
			title: `${choice.title} ${index}`,
			href: `https://example.com/icon-${index}.png`,
		}),
		PREFERENCE_CENTERS,
	),
	numRuns: 2,
	seed: (items) => ({
		preferenceCenters: items.map((json) => ({ external_id: json.id as string, name: `old-${String(json.id)}` })),
	}),
	expected: (json) => [
		{
			key: preferenceCenterKey(json.id as string),
			value: {
				name: json.name,
				preference_center_title: json.title,
				state: json.state,
				options: { 'meta-viewport-content': json.viewport, 'links-tags': [{ rel: json.rel, href: json.href }] },
			},
		},
	],
	answeredFrom(answers, request) {
		const updatedAt = (request.response as IDataObject | undefined)?.updated_at;
		return answers.every((answer) => answer.updated_at === updatedAt)
			? undefined
			: `updated_at is not its request's ${String(updatedAt)}`;
	},
};

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const LOCALES = [
	{ id: uuid(1), name: 'fr-FR', country: 'FR', language: 'fr' },
	{ id: uuid(2), name: 'de-DE', country: 'DE', language: 'de' },
];
const MAX_LOOKUPS = 30;
/** Each item's own message, translated into both locales: its lookup is unique to it. */
const translatedMessage = (json: IDataObject) => ({
	message_variation_id: json.message as string,
	channel: 'email' as const,
	translations: {
		[LOCALES[0].id]: { subject: `Bonjour ${String(json.message)}` },
		[LOCALES[1].id]: { subject: `Hallo ${String(json.message)}` },
	},
});

/** Every translation an item outputs is one its request was answered with. */
function translationsAnswered(answers: IDataObject[], request: { response?: unknown }): string | undefined {
	const translations = ((request.response as IDataObject | undefined)?.translations ?? []) as IDataObject[];
	const foreign = answers.filter(
		(answer) =>
			answer.translation_map !== undefined &&
			!translations.some((t) => isDeepStrictEqual(t.translation_map, answer.translation_map)),
	);
	return foreign.length > 0 ? `outputs ${foreign.length} translation(s) not in the answer of its request` : undefined;
}

const getCampaignTranslations: ConservationCase = {
	name: 'Translation: Get Campaign Translations',
	nodeType: TRANSLATION_NODE,
	operation: 'getCampaignTranslations',
	// The spec's parameters of this endpoint are campaign_id and message_variation_id: a locale the item
	// asks for (by name) is chosen among the answer's translations, not sent.
	parameters: {
		operation: 'getCampaignTranslations',
		campaignId: '={{ $json.campaign }}',
		messageVariationId: '={{ $json.message }}',
		localeName: '={{ $json.locale }}',
	},
	items: batch(
		fc.record({
			campaign: mostly('welcome', ['spring'], 2),
			locale: fc.constantFrom('', LOCALES[0].name, LOCALES[1].name),
		}),
		(choice, index) => ({ ...choice, message: uuid(100 + index) }),
		MAX_LOOKUPS,
	),
	numRuns: 3,
	seed: (items) => ({
		multiLanguage: { locales: LOCALES },
		campaigns: ['welcome', 'spring'].map((id) => ({
			id,
			messages: items.filter((json) => json.campaign === id).map(translatedMessage),
		})),
	}),
	expected: (json) => [
		{
			key: translationKey(json.message),
			value: { query: { campaign_id: json.campaign, message_variation_id: json.message } },
		},
	],
	answeredFrom: translationsAnswered,
};

const STEPS = [uuid(20), uuid(21)];

const getCanvasTranslations: ConservationCase = {
	name: 'Translation: Get Canvas Translations',
	nodeType: TRANSLATION_NODE,
	operation: 'getCanvasTranslations',
	parameters: {
		operation: 'getCanvasTranslations',
		stepId: '={{ $json.step }}',
		messageVariationId: '={{ $json.message }}',
		localeId: '={{ $json.locale }}',
	},
	items: batch(
		fc.record({ step: fc.constantFrom(...STEPS), locale: fc.constantFrom(LOCALES[0].id, LOCALES[1].id) }),
		(choice, index) => ({ ...choice, message: uuid(300 + index) }),
		MAX_LOOKUPS,
	),
	numRuns: 3,
	seed: (items) => ({
		multiLanguage: { locales: LOCALES },
		canvases: [
			{
				id: 'onboarding',
				steps: STEPS.map((stepId) => ({
					step_id: stepId,
					messages: items.filter((json) => json.step === stepId).map(translatedMessage),
				})),
			},
		],
	}),
	expected: (json) => [
		{
			key: translationKey(json.message),
			value: { query: { step_id: json.step, message_variation_id: json.message, locale_id: json.locale } },
		},
	],
	answeredFrom: translationsAnswered,
};

export const RESOURCE_CASES: ConservationCase[] = [
	setGroupState,
	withFixedState('subscribe', 'Subscribe'),
	withFixedState('unsubscribe', 'Unsubscribe'),
	replaceItems,
	editItems,
	deleteItems,
	updatePreferenceCenter,
	getCampaignTranslations,
	getCanvasTranslations,
];
