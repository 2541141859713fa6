/**
 * The rows of the Subscription, Catalog, Preference Center and Translation nodes, and the endpoints
 * they call.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

import type { RecordedRequest, SeedCatalog, StateView } from '../../sandbox';
import { batchOf, duplicating, MAX_BAD_ITEMS, removing, setting } from '../reliability/badInputBatch';
import {
	badFields,
	badItemId,
	badUuid,
	catalogFieldsPerItem,
	distinctLookups,
	FR_LOCALE_ID,
	frenchLocale,
	menu,
	MESSAGE_IDS,
	messagesInFrench,
	STEP_ID,
	validCatalogItem,
} from '../reliability/badInputResourceValues';
import { answeredCount, bodyArrayLength } from '../reliability/badInputRun';
import { crmProfiles } from '../reliability/badInputUserValues';
import { blank, notText, unicodeText, withLoneSurrogate } from '../reliability/badValues';
import { FAULT_IDS, faultProfiles, inOneRequest } from '../reliability/faultCase';
import { CATALOG_NODE, PREFERENCE_CENTER_NODE, SUBSCRIPTION_NODE, TRANSLATION_NODE } from '../support/nodeTypes';
import { ALIAS_LABELS, batch, identifierOf, identifierParameters, mostly, plain, profilesOf, userOf } from './batches';
import type { Endpoint } from './endpoints';
import type { WireLimit } from './limitRules';
import { atMost, count, objects } from './limitRules';
import type { OperationRow } from './operationRow';
import type { Body, WirePiece } from './pieceReading';
import { asBody, catalogKey, list, preferenceCenterKey, translationKey, userKey } from './pieceReading';

/** Every ID of every element, with its element's group and state. */
function subscriptionPieces(body: Body): WirePiece[] {
	return list(body.subscription_groups).flatMap((entry) => {
		const element = asBody(entry);
		return ['external_ids', 'emails', 'phones'].flatMap((field) =>
			list(element[field]).map((id) => ({
				key: userKey('subscription', field, id),
				value: {
					subscription_group_id: element.subscription_group_id,
					subscription_state: element.subscription_state,
					field,
					id,
				},
			})),
		);
	});
}

const SUBSCRIPTION_IDS = ['external_ids', 'emails', 'phones'];
const subscriptionLimits: WireLimit[] = [
	{
		spec: '/v2/subscription/status/set element: external_ids "up to 50", emails "at least 1, up to 50", phones "at least 1, up to 50"; Limits: "up to 50 ids per field"',
		over(body) {
			const problems = objects(body.subscription_groups).flatMap((element, index) =>
				SUBSCRIPTION_IDS.filter((field) => count(element[field]) > 50).map(
					(field) => `subscription_groups[${index}].${field}: ${count(element[field])} > 50`,
				),
			);
			return problems.length > 0 ? problems.join('; ') : undefined;
		},
	},
	{
		spec: 'What the service does: "set subscription-group state for up to 50 users per call (POST /v2/subscription/status/set)"',
		over(body) {
			const users = objects(body.subscription_groups).reduce(
				(sum, element) => sum + SUBSCRIPTION_IDS.reduce((n, field) => n + count(element[field]), 0),
				0,
			);
			return users > 50 ? `users in all elements: ${users} > 50` : undefined;
		},
	},
];

const SUBSCRIPTION_STATUS_SET_V2: Endpoint = {
	method: 'POST',
	path: '/v2/subscription/status/set',
	read: subscriptionPieces,
	limits: subscriptionLimits,
};
// Versioning: the earlier path coexists with v2; the same body is read the same way.
const SUBSCRIPTION_STATUS_SET_EARLIER: Endpoint = { ...SUBSCRIPTION_STATUS_SET_V2, path: '/subscription/status/set' };

/** The items of the body, each with the method that sent it. */
function catalogItemsEndpoint(method: string): Endpoint {
	return {
		method,
		path: '/catalogs/{catalog_name}/items',
		read: (body, params) =>
			list(body.items).map((item) => ({
				key: catalogKey(params.catalog_name, asBody(item).id),
				value: { method, item },
			})),
		limits: [
			atMost(
				50,
				['items'],
				'Catalog items: "items (required array of up to 50 item objects)"; Limits: "catalog items: up to 50 items per request"',
			),
		],
	};
}
const CATALOG_ITEMS_PUT = catalogItemsEndpoint('PUT');
const CATALOG_ITEMS_PATCH = catalogItemsEndpoint('PATCH');
const CATALOG_ITEMS_DELETE = catalogItemsEndpoint('DELETE');

// The method is unresolved in the spec (PUT or POST): the body is the item's data either way. No
// per-request limit stated (rate limits only): one preference center per request, by the path.
const PREFERENCE_CENTER_PUT: Endpoint = {
	method: 'PUT',
	path: '/preference_center/v1/{preferenceCenterExternalID}',
	read: (body, params) => [{ key: preferenceCenterKey(params.preferenceCenterExternalID), value: body }],
	limits: [],
};
const PREFERENCE_CENTER_POST: Endpoint = { ...PREFERENCE_CENTER_PUT, method: 'POST' };

// No per-request limit stated (rate limits only): one lookup per request, by the query.
const translationLookup = (path: string): Endpoint => ({
	method: 'GET',
	path,
	read: (_body: Body, _params: Record<string, string>, request: RecordedRequest) => [
		{ key: translationKey(request.query.message_variation_id), value: { query: request.query } },
	],
	limits: [],
});
const CAMPAIGNS_TRANSLATIONS = translationLookup('/campaigns/translations');
const CAMPAIGN_TRANSLATIONS = translationLookup('/campaign/translations');
const CANVAS_TRANSLATIONS = translationLookup('/canvas/translations');

/** For the fault suite: how many profiles of the newsletter group are in `state`. */
const appliedState = (state: string) => (view: StateView) =>
	Object.values(view.subscriptionGroups.newsletter ?? {}).filter((s) => s === state).length;

/** For the fault suite: the items of the catalog `menu`. */
const menuItemsOf = (state: StateView) =>
	(state.catalogs as unknown as Array<{ name: string; items: IDataObject[] }>).find((c) => c.name === 'menu')?.items ??
	[];
const MENU = {
	name: 'menu',
	fields: [
		{ name: 'name', type: 'string' as const },
		{ name: 'tags', type: 'array' as const },
	],
};

const MAX_ITEMS = 130;
const RUNS = 4;

const setGroupState: OperationRow = {
	name: 'Subscription: Set Group State',
	nodeType: SUBSCRIPTION_NODE,
	operation: 'setGroupState',
	parameters: {
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
	endpoints: [SUBSCRIPTION_STATUS_SET_V2, SUBSCRIPTION_STATUS_SET_EARLIER],
	batchLimit: 50,
	underFault: {
		...inOneRequest(SUBSCRIPTION_STATUS_SET_V2),
		parameters: {
			subscriptionGroupId: 'newsletter',
			subscriptionState: 'subscribed',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		},
		seed: { profiles: faultProfiles, subscriptionGroups: ['newsletter'] },
		resendsAfterServerError: true,
		applied: appliedState('subscribed'),
	},
	badInput: {
		parameters: {
			subscriptionGroupId: '={{ $json.group }}',
			subscriptionState: 'subscribed',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		},
		seed: { profiles: crmProfiles, subscriptionGroups: ['newsletter', 'offers'] },
		items: batchOf(
			fc
				.constantFrom('newsletter', 'offers')
				.map((group) => (index: number): IDataObject => ({ group, id: `crm-${index}` })),
			[
				removing('id', 'missing identifier', 'External ID'),
				setting('id', 'identifier not text', 'External ID', notText),
				setting('group', 'blank group', 'Subscription Group ID', blank),
				setting('group', 'group not text', 'Subscription Group ID', notText),
			],
			MAX_BAD_ITEMS,
		),
		received: (answered) =>
			answered.reduce((sum, request) => {
				const elements = ((request.body as IDataObject).subscription_groups ?? []) as IDataObject[];
				return (
					sum +
					elements.reduce((count, element) => count + ((element.external_ids as unknown[] | undefined)?.length ?? 0), 0)
				);
			}, 0),
	},
};

const withoutState = ({ subscriptionState: _state, ...parameters }: INodeParameters): INodeParameters => parameters;

/** Subscribe and Unsubscribe: Set Group State with one state for every item, and no State field. */
const withFixedState = (operation: 'subscribe' | 'unsubscribe', name: string): OperationRow => {
	const state = operation === 'subscribe' ? 'subscribed' : 'unsubscribed';
	const { underFault, badInput } = setGroupState;
	return {
		...setGroupState,
		name: `Subscription: ${name}`,
		operation,
		parameters: withoutState(setGroupState.parameters),
		expected: (json, index) => setGroupState.expected({ ...json, state }, index),
		underFault: { ...underFault, parameters: withoutState(underFault.parameters), applied: appliedState(state) },
		badInput: { ...badInput, parameters: withoutState(badInput.parameters) },
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

const replaceItems: OperationRow = {
	name: 'Catalog: Replace Items',
	nodeType: CATALOG_NODE,
	operation: 'replaceItems',
	parameters: { ...catalogParameters },
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
	endpoints: [CATALOG_ITEMS_PUT],
	batchLimit: 50,
	underFault: {
		credential: 'api',
		parameters: {
			catalogName: 'menu',
			itemId: '={{ $json.id }}',
			fieldsInput: 'json',
			fieldsJson: '{"name": "Soup", "tags": ["hot"]}',
		},
		seed: { catalogs: [MENU] },
		items: FAULT_IDS.map((i) => ({ id: `dish-${i}` })),
		firstRequest: { method: 'PUT', path: '/catalogs/menu/items' },
		requestPerItem: false,
		resendsAfterServerError: true,
		applied: (state) => menuItemsOf(state).length,
	},
	badInput: {
		parameters: { ...catalogFieldsPerItem },
		seed: menu(false),
		items: batchOf(
			validCatalogItem,
			[
				...badItemId,
				...badFields,
				setting('fields', '$add when replacing', 'Fields.tags', fc.constant({ tags: { $add: ['vegan'] } })),
			],
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'items'),
	},
};

const edit = fc.oneof(
	fc.integer({ min: 1, max: 90 }).map((price) => ({ price })),
	fc.constantFrom('Soup', 'Salad').map((name) => ({ name })),
	fc.constantFrom('spicy', 'local').map((tag) => ({ tags: { $add: [tag] } })),
	fc.constant({ tags: { $remove: ['hot'] } }),
);

const editItems: OperationRow = {
	name: 'Catalog: Edit Items',
	nodeType: CATALOG_NODE,
	operation: 'editItems',
	parameters: { ...catalogParameters },
	items: batch(
		fc.record({ catalog: catalogChoice, fields: edit }),
		({ catalog, fields }, index) => ({ catalog, id: `dish-${index}`, fields: plain(fields) }),
		MAX_ITEMS,
	),
	numRuns: RUNS,
	seed: (items) => catalogsSeed(items, true),
	expected: catalogExpected('PATCH'),
	endpoints: [CATALOG_ITEMS_PATCH],
	batchLimit: 50,
	underFault: {
		credential: 'api',
		parameters: {
			catalogName: 'menu',
			itemId: '={{ $json.id }}',
			fieldsInput: 'json',
			fieldsJson: '{"tags": {"$add": ["vegan"]}}',
		},
		seed: { catalogs: [{ ...MENU, items: FAULT_IDS.map((i) => ({ id: `dish-${i}`, name: 'Soup', tags: ['hot'] })) }] },
		items: FAULT_IDS.map((i) => ({ id: `dish-${i}` })),
		firstRequest: { method: 'PATCH', path: '/catalogs/menu/items' },
		requestPerItem: false,
		resendsAfterServerError: false,
		applied: (state) =>
			menuItemsOf(state).reduce(
				(sum, item) => sum + (item.tags as string[]).filter((tag) => tag === 'vegan').length,
				0,
			),
	},
	badInput: {
		parameters: { ...catalogFieldsPerItem },
		seed: menu(true),
		items: batchOf(
			fc.oneof(
				validCatalogItem,
				fc.constant((index: number): IDataObject => ({
					catalog: 'menu',
					id: `dish-${index}`,
					fields: { tags: { $add: ['vegan'] } },
				})),
			),
			[...badItemId, ...badFields],
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'items'),
	},
};

const deleteItems: OperationRow = {
	name: 'Catalog: Delete Items',
	nodeType: CATALOG_NODE,
	operation: 'deleteItems',
	parameters: { catalogName: '={{ $json.catalog }}', itemId: '={{ $json.id }}' },
	items: batch(catalogChoice, (catalog, index) => ({ catalog, id: `dish-${index}` }), MAX_ITEMS),
	numRuns: RUNS,
	seed: (items) => catalogsSeed(items, true),
	expected: catalogExpected('DELETE'),
	endpoints: [CATALOG_ITEMS_DELETE],
	batchLimit: 50,
	underFault: {
		credential: 'api',
		parameters: { catalogName: 'menu', itemId: '={{ $json.id }}' },
		seed: { catalogs: [{ ...MENU, items: FAULT_IDS.map((i) => ({ id: `dish-${i}`, name: 'Soup', tags: [] })) }] },
		items: FAULT_IDS.map((i) => ({ id: `dish-${i}` })),
		firstRequest: { method: 'DELETE', path: '/catalogs/menu/items' },
		requestPerItem: false,
		resendsAfterServerError: true,
		applied: (state) => 3 - menuItemsOf(state).length,
	},
	badInput: {
		parameters: { catalogName: '={{ $json.catalog }}', itemId: '={{ $json.id }}' },
		seed: menu(true),
		items: batchOf(
			fc.constant((index: number): IDataObject => ({ catalog: 'menu', id: `dish-${index}` })),
			badItemId,
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'items'),
	},
};

/** The node paces this endpoint at the spec's 10 updates a minute: a run stays within one minute's. */
const PREFERENCE_CENTERS = 8;

const updatePreferenceCenter: OperationRow = {
	name: 'Preference Center: Update',
	nodeType: PREFERENCE_CENTER_NODE,
	operation: 'update',
	parameters: {
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
	endpoints: [PREFERENCE_CENTER_PUT, PREFERENCE_CENTER_POST],
	batchLimit: null,
	underFault: {
		credential: 'api',
		parameters: {
			preferenceCenterId: '={{ $json.id }}',
			updateFields: { preference_center_title: 'Your choices' },
		},
		seed: { preferenceCenters: FAULT_IDS.map((i) => ({ external_id: `pc-${i}`, name: `pc-${i}` })) },
		items: FAULT_IDS.map((i) => ({ id: `pc-${i}` })),
		firstRequest: { method: 'PUT', path: '/preference_center/v1/pc-0' },
		requestPerItem: true,
		resendsAfterServerError: true,
		applied: (state) =>
			(state.preferenceCenters as unknown as IDataObject[]).filter(
				(center) => center.preference_center_title === 'Your choices',
			).length,
	},
	badInput: {
		parameters: {
			preferenceCenterId: '={{ $json.id }}',
			updateFields: { preference_center_title: '={{ $json.title }}' },
		},
		seed: {
			preferenceCenters: Array.from({ length: PREFERENCE_CENTERS }, (_, i) => ({
				external_id: `pc-${i}`,
				name: `pc-${i}`,
			})),
		},
		numRuns: 8,
		items: batchOf(
			unicodeText.map((title) => (index: number): IDataObject => ({ id: `pc-${index}`, title })),
			[
				setting('id', 'blank ID', 'Preference Center ID', blank),
				setting('id', 'ID with a lone surrogate', 'Preference Center ID', withLoneSurrogate),
				duplicating('id', 'Preference Center ID'),
				setting(
					'title',
					'title not text',
					'Update Fields.Title',
					fc.constantFrom<unknown>(null, 42, ['a'], { a: 1 }).filter((value) => typeof value !== 'number'),
				),
				setting('title', 'nothing to update', 'Update Fields', fc.constantFrom<unknown>(undefined, '')),
			],
			PREFERENCE_CENTERS,
		),
		received: answeredCount,
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

const getCampaignTranslations: OperationRow = {
	name: 'Translation: Get Campaign Translations',
	nodeType: TRANSLATION_NODE,
	operation: 'getCampaignTranslations',
	// The spec's parameters of this endpoint are campaign_id and message_variation_id: a locale the item
	// asks for (by name) is chosen among the answer's translations, not sent.
	parameters: {
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
	endpoints: [CAMPAIGNS_TRANSLATIONS, CAMPAIGN_TRANSLATIONS],
	batchLimit: null,
	underFault: {
		credential: 'api',
		parameters: {
			campaignId: 'welcome',
			messageVariationId: '={{ $json.message }}',
			localeName: '',
		},
		seed: {
			multiLanguage: { locales: [{ id: uuid(1), name: 'fr-FR', country: 'FR', language: 'fr' }] },
			campaigns: [
				{
					id: 'welcome',
					messages: FAULT_IDS.map((i) => ({
						message_variation_id: uuid(10 + i),
						channel: 'email',
						translations: { [uuid(1)]: { subject: 'Bonjour' } },
					})),
				},
			],
		},
		items: FAULT_IDS.map((i) => ({ message: uuid(10 + i) })),
		firstRequest: { method: 'GET', path: '/campaigns/translations' },
		requestPerItem: true,
		resendsAfterServerError: true,
	},
	badInput: {
		parameters: {
			campaignId: 'welcome',
			messageVariationId: '={{ $json.message }}',
			localeName: '={{ $json.locale }}',
		},
		seed: { multiLanguage: frenchLocale, campaigns: [{ id: 'welcome', messages: messagesInFrench }] },
		items: batchOf(
			fc.constantFrom('', 'fr-FR').map((locale) => (index: number): IDataObject => ({
				message: MESSAGE_IDS[index % MESSAGE_IDS.length],
				locale,
			})),
			[
				...badUuid('message', 'Message Variation ID'),
				setting('message', 'blank message', 'Message Variation ID', blank),
				// The endpoint takes no locale ID: the node keeps a locale by its name.
				setting('locale', 'a locale ID for its name', 'Locale Name', fc.constant(FR_LOCALE_ID)),
			],
			40,
		),
		received: answeredCount,
		// Every locale of a message is one GET.
		expected: distinctLookups(['message']),
	},
};

const STEPS = [uuid(20), uuid(21)];

const getCanvasTranslations: OperationRow = {
	name: 'Translation: Get Canvas Translations',
	nodeType: TRANSLATION_NODE,
	operation: 'getCanvasTranslations',
	parameters: {
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
	endpoints: [CANVAS_TRANSLATIONS],
	batchLimit: null,
	underFault: {
		credential: 'api',
		parameters: {
			stepId: uuid(20),
			messageVariationId: '={{ $json.message }}',
			localeId: uuid(1),
		},
		seed: {
			multiLanguage: { locales: [{ id: uuid(1), name: 'fr-FR', country: 'FR', language: 'fr' }] },
			canvases: [
				{
					id: 'onboarding',
					steps: [
						{
							step_id: uuid(20),
							messages: FAULT_IDS.map((i) => ({
								message_variation_id: uuid(30 + i),
								channel: 'email',
								translations: { [uuid(1)]: { subject: 'Bonjour' } },
							})),
						},
					],
				},
			],
		},
		items: FAULT_IDS.map((i) => ({ message: uuid(30 + i) })),
		firstRequest: { method: 'GET', path: '/canvas/translations' },
		requestPerItem: true,
		resendsAfterServerError: true,
	},
	badInput: {
		parameters: {
			stepId: '={{ $json.step }}',
			messageVariationId: '={{ $json.message }}',
			localeId: '={{ $json.locale }}',
		},
		seed: {
			multiLanguage: frenchLocale,
			canvases: [{ id: 'onboarding', steps: [{ step_id: STEP_ID, messages: messagesInFrench }] }],
		},
		items: batchOf(
			fc.constant((index: number): IDataObject => ({
				step: STEP_ID,
				message: MESSAGE_IDS[index % MESSAGE_IDS.length],
				locale: FR_LOCALE_ID,
			})),
			[
				...badUuid('step', 'Step ID'),
				...badUuid('message', 'Message Variation ID'),
				setting('locale', 'blank locale', 'Locale ID', blank),
			],
			40,
		),
		received: answeredCount,
		expected: distinctLookups(['step', 'message', 'locale']),
	},
};

export const RESOURCE_CASES: OperationRow[] = [
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
