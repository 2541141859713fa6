/**
 * What the rows of the Subscription, Catalog, Preference Center and Translation nodes
 * (test/conservation/resourceCases.ts) and of the Dashboard User node (dashboardCases.ts) build their
 * bad input from: valid items and the ways to break them.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { Mutation } from './badInputBatch';
import { duplicating, removing, setting } from './badInputBatch';
import { blank, dollarKey, dottedKey, longerThan, nested, notText, unicodeText, withLoneSurrogate } from './badValues';

const MENU_ITEMS = 150;
/** The catalog `menu`, empty or with 150 items. */
export const menu = (withItems: boolean) => ({
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

export const badItemId: Array<fc.Arbitrary<Mutation>> = [
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
export const badFields: Array<fc.Arbitrary<Mutation>> = [
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

/** Each item's catalog, item ID and fields. */
export const catalogFieldsPerItem = {
	catalogName: '={{ $json.catalog }}',
	itemId: '={{ $json.id }}',
	fieldsInput: 'json',
	fieldsJson: '={{ $json.fields }}',
};
export const validCatalogItem = validFields.map((fields) => (index: number): IDataObject => ({
	catalog: 'menu',
	id: `dish-${index}`,
	fields,
}));

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const FR_LOCALE_ID = uuid(1);
export const MESSAGE_IDS = [10, 11, 12, 13, 14].map(uuid);
/** Each of MESSAGE_IDS, translated into French. */
export const messagesInFrench = MESSAGE_IDS.map((id) => ({
	message_variation_id: id,
	channel: 'email' as const,
	translations: { [FR_LOCALE_ID]: { subject: 'Bonjour' } },
}));
export const frenchLocale = { locales: [{ id: FR_LOCALE_ID, name: 'fr-FR', country: 'FR', language: 'fr' }] };
/** Items asking for the same translations share one request. */
export const distinctLookups = (keys: string[]) => (accepted: IDataObject[]) =>
	new Set(accepted.map((json) => JSON.stringify(keys.map((key) => json[key] ?? '')))).size;

export const badUuid = (key: string, field: string): Array<fc.Arbitrary<Mutation>> => [
	setting(
		key,
		'not a UUID',
		field,
		fc.oneof(unicodeText, fc.constantFrom('1234', `${MESSAGE_IDS[0]}0`, MESSAGE_IDS[0].replace(/-/g, ''))),
	),
	setting(key, 'UUID not text', field, notText),
];

export const STEP_ID = uuid(2);

export const dashboardUserId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
export const DASHBOARD_USERS = 30;
/** Each item's given and family name. */
export const namesPerItem = {
	givenName: '={{ $json.given }}',
	familyName: '={{ $json.family }}',
	companyPermissions: 'basic_access',
};
export const badNames: Array<fc.Arbitrary<Mutation>> = [
	setting('given', 'blank given name', 'Given Name', blank),
	setting('given', 'given name not text', 'Given Name', notText),
	removing('family', 'missing family name', 'Family Name'),
];
export const person = fc.record({ given: unicodeText, family: fc.oneof(fc.constant('Chen'), unicodeText) });

export const seededDashboardUsers = {
	dashboardUsers: Array.from({ length: DASHBOARD_USERS }, (_, i) => ({
		id: dashboardUserId(i),
		userName: `u${i}@example.com`,
		department: 'sales',
	})),
};
export const badUserId: Array<fc.Arbitrary<Mutation>> = [
	setting('id', 'blank user ID', 'User ID', blank),
	setting('id', 'user ID with a lone surrogate', 'User ID', withLoneSurrogate),
];
