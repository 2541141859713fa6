/** Bad-input cases of the Subscription, Catalog, Preference Center, Translation and Dashboard User nodes. */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { RecordedRequest } from '../../sandbox';
import {
	CATALOG_NODE,
	DASHBOARD_USER_NODE,
	PREFERENCE_CENTER_NODE,
	SUBSCRIPTION_NODE,
	TRANSLATION_NODE,
} from '../support/nodeTypes';
import type { Mutation } from './badInputBatch';
import { batchOf, duplicating, removing, setting } from './badInputBatch';
import type { BadInputCase } from './badInputRun';
import { bodyArrayLength } from './badInputRun';
import { blank, dollarKey, dottedKey, longerThan, nested, notText, unicodeText, withLoneSurrogate } from './badValues';

const MAX_ITEMS = 120;
const answeredCount = (answered: RecordedRequest[]) => answered.length;
const profiles = Array.from({ length: 150 }, (_, i) => ({ external_id: `crm-${i}`, email: `crm${i}@example.com` }));

const setGroupState: BadInputCase = {
	name: 'Subscription: Set Group State',
	nodeType: SUBSCRIPTION_NODE,
	parameters: {
		operation: 'setGroupState',
		subscriptionGroupId: '={{ $json.group }}',
		subscriptionState: 'subscribed',
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
	},
	seed: { profiles, subscriptionGroups: ['newsletter', 'offers'] },
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
		MAX_ITEMS,
	),
	received: (answered) =>
		answered.reduce((sum, request) => {
			const elements = ((request.body as IDataObject).subscription_groups ?? []) as IDataObject[];
			return (
				sum +
				elements.reduce((count, element) => count + ((element.external_ids as unknown[] | undefined)?.length ?? 0), 0)
			);
		}, 0),
};

/** Subscribe and Unsubscribe: Set Group State with one state for every item, and no State field. */
const withFixedState = (operation: 'subscribe' | 'unsubscribe', name: string): BadInputCase => {
	const { subscriptionState: _state, ...parameters } = setGroupState.parameters;
	return { ...setGroupState, name: `Subscription: ${name}`, parameters: { ...parameters, operation } };
};

const MENU_ITEMS = 150;
const menu = (withItems: boolean) => ({
	catalogs: [
		{
			name: 'menu',
			fields: [
				{ name: 'name', type: 'string' as const },
				{ name: 'price', type: 'number' as const },
				{ name: 'tags', type: 'array' as const },
				{ name: 'details', type: 'object' as const },
			],
			items: withItems
				? Array.from({ length: MENU_ITEMS }, (_, i) => ({
						id: `dish-${i}`,
						name: 'Soup',
						price: 5,
						tags: ['hot'],
						details: {},
					}))
				: [],
		},
	],
});

const validFields = fc.record(
	{
		name: unicodeText,
		price: fc.integer({ min: 0, max: 1000 }),
		tags: fc.array(unicodeText, { maxLength: 3 }),
		details: fc.integer({ min: 1, max: 45 }).map(nested),
	},
	{ requiredKeys: [] },
);

const badItemId: Array<fc.Arbitrary<Mutation>> = [
	setting(
		'id',
		'ID with other characters',
		'Item ID',
		fc.constantFrom('dish 1', 'dish.1', 'dísh-1', 'dish/1', '😀', 'dish$1'),
	),
	setting(
		'id',
		'ID over 250 characters',
		'Item ID',
		fc.integer({ min: 251, max: 300 }).map((length) => 'd'.repeat(length)),
	),
	setting('id', 'blank ID', 'Item ID', blank),
	setting('id', 'ID not text', 'Item ID', notText),
	duplicating('id', 'Item ID'),
	setting(
		'catalog',
		'catalog name with a lone surrogate',
		'Catalog Name',
		withLoneSurrogate.map((text) => `menu${text}`),
	),
];

/** The spec's item rules; `nested(d)` puts its innermost value d + 1 levels down, at 50 the boundary. */
const badFields: Array<fc.Arbitrary<Mutation>> = [
	setting(
		'fields',
		'$-prefixed field name',
		'Fields',
		dollarKey.filter((key) => key !== '$add' && key !== '$remove').map((key) => ({ [key]: 'x' })),
	),
	setting(
		'fields',
		'dotted field name',
		'Fields',
		dottedKey.map((key) => ({ [key]: 'x' })),
	),
	setting(
		'fields',
		'$ or . in a nested key',
		'Fields.details',
		fc.oneof(dollarKey, dottedKey).map((key) => ({ details: { [key]: 1 } })),
	),
	setting(
		'fields',
		'value over 5,000 characters',
		'Fields.name',
		longerThan(5000).map((name) => ({ name })),
	),
	setting(
		'fields',
		'nesting beyond 50 levels',
		'Fields.details',
		fc.integer({ min: 51, max: 70 }).map((depth) => ({ details: nested(depth) })),
	),
	setting(
		'fields',
		'nesting at the 50-level boundary',
		undefined,
		fc.integer({ min: 47, max: 50 }).map((depth) => ({ details: nested(depth) })),
		'either',
	),
	setting('fields', 'id among the fields', 'Fields.id', fc.constant({ id: 'other' })),
	setting('fields', 'fields not an object', 'Fields', fc.constantFrom<unknown>('{name', [1], 3)),
];

const catalogParameters = {
	catalogName: '={{ $json.catalog }}',
	itemId: '={{ $json.id }}',
	fieldsInput: 'json',
	fieldsJson: '={{ $json.fields }}',
};
const catalogItem = validFields.map((fields) => (index: number): IDataObject => ({
	catalog: 'menu',
	id: `dish-${index}`,
	fields,
}));

const replaceItems: BadInputCase = {
	name: 'Catalog: Replace Items',
	nodeType: CATALOG_NODE,
	parameters: { operation: 'replaceItems', ...catalogParameters },
	seed: menu(false),
	items: batchOf(
		catalogItem,
		[
			...badItemId,
			...badFields,
			setting('fields', '$add when replacing', 'Fields.tags', fc.constant({ tags: { $add: ['vegan'] } })),
		],
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'items'),
};

const editItems: BadInputCase = {
	name: 'Catalog: Edit Items',
	nodeType: CATALOG_NODE,
	parameters: { operation: 'editItems', ...catalogParameters },
	seed: menu(true),
	items: batchOf(
		fc.oneof(
			catalogItem,
			fc.constant((index: number): IDataObject => ({
				catalog: 'menu',
				id: `dish-${index}`,
				fields: { tags: { $add: ['vegan'] } },
			})),
		),
		[...badItemId, ...badFields],
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'items'),
};

const deleteItems: BadInputCase = {
	name: 'Catalog: Delete Items',
	nodeType: CATALOG_NODE,
	parameters: { operation: 'deleteItems', catalogName: '={{ $json.catalog }}', itemId: '={{ $json.id }}' },
	seed: menu(true),
	items: batchOf(
		fc.constant((index: number): IDataObject => ({ catalog: 'menu', id: `dish-${index}` })),
		badItemId,
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'items'),
};

/** Within the spec's 10 updates a minute, so no run waits for the limit. */
const PREFERENCE_CENTERS = 8;

const updatePreferenceCenter: BadInputCase = {
	name: 'Preference Center: Update',
	nodeType: PREFERENCE_CENTER_NODE,
	parameters: {
		operation: 'update',
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
};

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const LOCALE = uuid(1);
const MESSAGES = [10, 11, 12, 13, 14].map(uuid);
const translatedMessages = MESSAGES.map((id) => ({
	message_variation_id: id,
	channel: 'email' as const,
	translations: { [LOCALE]: { subject: 'Bonjour' } },
}));
const multiLanguage = { locales: [{ id: LOCALE, name: 'fr-FR', country: 'FR', language: 'fr' }] };
/** Items asking for the same translations share one request. */
const distinctLookups = (keys: string[]) => (accepted: IDataObject[]) =>
	new Set(accepted.map((json) => JSON.stringify(keys.map((key) => json[key] ?? '')))).size;

const badUuid = (key: string, field: string): Array<fc.Arbitrary<Mutation>> => [
	setting(
		key,
		'not a UUID',
		field,
		fc.oneof(unicodeText, fc.constantFrom('1234', `${MESSAGES[0]}0`, MESSAGES[0].replace(/-/g, ''))),
	),
	setting(key, 'UUID not text', field, notText),
];

const getCampaignTranslations: BadInputCase = {
	name: 'Translation: Get Campaign Translations',
	nodeType: TRANSLATION_NODE,
	parameters: {
		operation: 'getCampaignTranslations',
		campaignId: 'welcome',
		messageVariationId: '={{ $json.message }}',
		localeName: '={{ $json.locale }}',
	},
	seed: { multiLanguage, campaigns: [{ id: 'welcome', messages: translatedMessages }] },
	items: batchOf(
		fc
			.constantFrom('', 'fr-FR')
			.map((locale) => (index: number): IDataObject => ({ message: MESSAGES[index % MESSAGES.length], locale })),
		[
			...badUuid('message', 'Message Variation ID'),
			setting('message', 'blank message', 'Message Variation ID', blank),
			// The endpoint takes no locale ID: the node keeps a locale by its name.
			setting('locale', 'a locale ID for its name', 'Locale Name', fc.constant(LOCALE)),
		],
		40,
	),
	received: answeredCount,
	// Every locale of a message is one GET.
	expected: distinctLookups(['message']),
};

const STEP = uuid(2);

const getCanvasTranslations: BadInputCase = {
	name: 'Translation: Get Canvas Translations',
	nodeType: TRANSLATION_NODE,
	parameters: {
		operation: 'getCanvasTranslations',
		stepId: '={{ $json.step }}',
		messageVariationId: '={{ $json.message }}',
		localeId: '={{ $json.locale }}',
	},
	seed: { multiLanguage, canvases: [{ id: 'onboarding', steps: [{ step_id: STEP, messages: translatedMessages }] }] },
	items: batchOf(
		fc.constant((index: number): IDataObject => ({
			step: STEP,
			message: MESSAGES[index % MESSAGES.length],
			locale: LOCALE,
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
};

const userId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const DASHBOARD_USERS = 30;
const names = {
	givenName: '={{ $json.given }}',
	familyName: '={{ $json.family }}',
	companyPermissions: 'basic_access',
};
const badNames: Array<fc.Arbitrary<Mutation>> = [
	setting('given', 'blank given name', 'Given Name', blank),
	setting('given', 'given name not text', 'Given Name', notText),
	removing('family', 'missing family name', 'Family Name'),
];
const person = fc.record({ given: unicodeText, family: fc.oneof(fc.constant('Chen'), unicodeText) });

const createDashboardUser: BadInputCase = {
	name: 'Dashboard User: Create',
	nodeType: DASHBOARD_USER_NODE,
	parameters: { operation: 'create', email: '={{ $json.email }}', ...names },
	seed: {},
	numRuns: 12,
	items: batchOf(
		person.map((who) => (index: number): IDataObject => ({ email: `new${index}@example.com`, ...who })),
		[
			setting(
				'email',
				'not an email',
				'Email',
				fc.constantFrom('ada', 'ada@', '@example.com', 'ada @example.com', 'ada@example'),
			),
			setting('email', 'blank email', 'Email', blank),
			duplicating('email', 'Email'),
			...badNames,
		],
		DASHBOARD_USERS,
	),
	received: answeredCount,
};

const updateDashboardUser: BadInputCase = {
	name: 'Dashboard User: Update',
	nodeType: DASHBOARD_USER_NODE,
	parameters: { operation: 'update', userId: '={{ $json.id }}', department: '={{ $json.department }}', ...names },
	seed: {
		dashboardUsers: Array.from({ length: DASHBOARD_USERS }, (_, i) => ({
			id: userId(i),
			userName: `u${i}@example.com`,
			department: 'sales',
		})),
	},
	numRuns: 12,
	items: batchOf(
		person.map((who) => (index: number): IDataObject => ({ id: userId(index), department: 'support', ...who })),
		[
			setting('id', 'blank user ID', 'User ID', blank),
			setting('id', 'user ID with a lone surrogate', 'User ID', withLoneSurrogate),
			duplicating('id', 'User ID'),
			setting('department', 'blank department', 'Department', blank),
			...badNames,
		],
		DASHBOARD_USERS,
	),
	received: answeredCount,
};

const seededDashboardUsers = {
	dashboardUsers: Array.from({ length: DASHBOARD_USERS }, (_, i) => ({
		id: userId(i),
		userName: `u${i}@example.com`,
		department: 'sales',
	})),
};
const badUserId: Array<fc.Arbitrary<Mutation>> = [
	setting('id', 'blank user ID', 'User ID', blank),
	setting('id', 'user ID with a lone surrogate', 'User ID', withLoneSurrogate),
];

const getDashboardUser: BadInputCase = {
	name: 'Dashboard User: Get',
	nodeType: DASHBOARD_USER_NODE,
	parameters: { operation: 'get', userId: '={{ $json.id }}' },
	seed: seededDashboardUsers,
	numRuns: 12,
	items: batchOf(
		fc.constant((index: number): IDataObject => ({ id: userId(index) })),
		badUserId,
		DASHBOARD_USERS,
	),
	received: answeredCount,
};

const findDashboardUser: BadInputCase = {
	name: 'Dashboard User: Find by Email',
	nodeType: DASHBOARD_USER_NODE,
	parameters: { operation: 'findByEmail', email: '={{ $json.email }}' },
	seed: seededDashboardUsers,
	numRuns: 12,
	items: batchOf(
		fc.constant((index: number): IDataObject => ({ email: `u${index}@example.com` })),
		[
			setting(
				'email',
				'not an email',
				'Email',
				fc.constantFrom('ada', 'ada@', '@example.com', 'ada @example.com', 'ada@example'),
			),
			setting('email', 'blank email', 'Email', blank),
		],
		DASHBOARD_USERS,
	),
	received: answeredCount,
};

const deleteDashboardUser: BadInputCase = {
	name: 'Dashboard User: Delete',
	nodeType: DASHBOARD_USER_NODE,
	parameters: { operation: 'delete', userId: '={{ $json.id }}' },
	seed: seededDashboardUsers,
	numRuns: 12,
	items: batchOf(
		fc.constant((index: number): IDataObject => ({ id: userId(index) })),
		[...badUserId, duplicating('id', 'User ID')],
		DASHBOARD_USERS,
	),
	received: answeredCount,
};

export const RESOURCE_CASES: BadInputCase[] = [
	setGroupState,
	withFixedState('subscribe', 'Subscribe'),
	withFixedState('unsubscribe', 'Unsubscribe'),
	replaceItems,
	editItems,
	deleteItems,
	updatePreferenceCenter,
	getCampaignTranslations,
	getCanvasTranslations,
	createDashboardUser,
	getDashboardUser,
	updateDashboardUser,
	findDashboardUser,
	deleteDashboardUser,
];
