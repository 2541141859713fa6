/** What the User node's rows (test/conservation/userCases.ts) build their bad input from: valid items and the ways to break them. */
import fc from 'fast-check';

import type { Mutation, ValidItem } from './badInputBatch';
import { removing, setting } from './badInputBatch';
import { blank, dollarKey, dottedKey, longerThan, nested, notText, unicodeText, withLoneSurrogate } from './badValues';

export const VALID_TIME = '2026-11-01T12:00:00Z';
/** The user of an item by its `userId`. */
export const byUserId = { identifyBy: 'external_id', externalId: '={{ $json.userId }}' };
/** External IDs are built from the index: generated text could hit the platform's blocked placeholders ("null", "test"). */
export const userIdOf = (index: number, text: string) => `${text}-${index % 40}`;
export const userText = fc.oneof(fc.constant('crm'), unicodeText);

/** Event and purchase properties the spec allows: short text in any script, numbers, booleans, arrays, objects, dotted names. */
const validProperties = fc.dictionary(
	fc.oneof(
		fc.stringMatching(/^[a-z][a-z_]{0,11}$/),
		dottedKey,
		unicodeText.filter((key) => !key.startsWith('$')),
	),
	fc.oneof(
		fc.integer(),
		fc.double({ noNaN: true, noDefaultInfinity: true }),
		fc.boolean(),
		unicodeText,
		fc.array(fc.integer(), { maxLength: 4 }),
		fc.constant(nested(3)),
	),
	{ maxKeys: 4 },
);

/** What breaks an event's or a purchase's properties, by the spec's property rules. */
export function badProperties(field: string): Array<fc.Arbitrary<Mutation>> {
	return [
		setting(
			'properties',
			'$-prefixed property name',
			field,
			dollarKey.map((key) => ({ [key]: 1 })),
		),
		setting(
			'properties',
			'text over 255 characters',
			field,
			longerThan(255).map((text) => ({ note: text })),
		),
		setting('properties', 'datetime inside an array', field, fc.constant({ dates: [VALID_TIME] })),
		setting(
			'properties',
			'properties over 100 KB',
			field,
			fc.integer({ min: 26_000, max: 40_000 }).map((count) => ({ list: Array<string>(count).fill('abcd') })),
		),
		setting(
			'properties',
			'properties not an object',
			field,
			fc.oneof(fc.constant('{plan: gold'), fc.array(fc.integer(), { minLength: 1, maxLength: 3 }), fc.integer()),
		),
		setting('properties', 'null property value', field, fc.constant({ plan: null })),
		setting('properties', 'nesting 60 levels deep', field, fc.constant({ deep: nested(60) }), 'accepted'),
		setting(
			'properties',
			'lone surrogate',
			field,
			withLoneSurrogate.map((text) => ({ note: text })),
			'either',
		),
	];
}

/** External IDs that mean "no real user", in the cases a mapping or a person writes them; the platform refuses them as dummy users. */
export const placeholderId = fc.constantFrom(
	'undefined',
	'null',
	'NULL',
	' None ',
	'n/a',
	'0',
	'-1',
	'test',
	'Anonymous',
	'unknown',
	'[object Object]',
	'nil',
);

export const badUser: Array<fc.Arbitrary<Mutation>> = [
	removing('userId', 'missing identifier', 'External ID'),
	setting('userId', 'blank identifier', 'External ID', blank),
	setting('userId', 'identifier not text', 'External ID', notText),
	setting('userId', 'placeholder external ID', 'External ID', placeholderId),
];

export const validEvent: fc.Arbitrary<ValidItem> = fc
	.record({
		user: userText,
		event: fc.oneof(fc.constantFrom('order_placed', 'form submitted'), unicodeText),
		properties: validProperties,
	})
	.map(({ user, event, properties }) => (index) => ({
		userId: userIdOf(index, user),
		event,
		time: VALID_TIME,
		properties,
	}));

export const validPurchase: fc.Arbitrary<ValidItem> = fc
	.record({
		user: userText,
		sku: fc.oneof(fc.constantFrom('sku-1', 'gift card'), unicodeText),
		currency: fc.constantFrom('EUR', 'USD', 'jpy'),
		price: fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 0, max: 10_000, noNaN: true })),
		quantity: fc.integer({ min: 1, max: 100 }),
		properties: validProperties,
	})
	.map(({ user, ...purchase }) => (index) => ({ userId: userIdOf(index, user), time: VALID_TIME, ...purchase }));

/** Custom attribute names; prefixed so none is one of the platform's standard attributes (email, country, ...). */
const attributeName = fc.oneof(
	fc.stringMatching(/^c_[a-z_]{1,10}$/),
	unicodeText.map((text) => `c_${text}`),
);
/**
 * Standard attributes with values the platform takes, as codes or as sheets write them (the node sends
 * the code), and with values it refuses.
 */
const validStandardAttributes = fc.record(
	{
		country: fc.constantFrom('DE', 'us', 'Jp', 'Germany', 'United States', 'USA', 'U.K.', 'Deutschland', 'España'),
		language: fc.constantFrom('de', 'EN', 'German', 'Deutsch', 'français'),
		gender: fc.constantFrom('M', 'f', 'O', 'N', 'P', 'U', 'female', 'Frau', 'man', 'Male'),
		phone: fc.constantFrom('+14155552671', '+49 151 2345 678', '+1 (415) 555-0100', '0049 30 1234567'),
		dob: fc.constantFrom('1990-04-21', '2000-02-29'),
		email: fc.constantFrom('ada@example.com', 'x.y+z@sub.example.org'),
		time_zone: fc.constantFrom('Europe/Berlin', 'America/New_York', 'UTC'),
		current_location: fc.record({
			latitude: fc.double({ min: -90, max: 90, noNaN: true }),
			longitude: fc.double({ min: -180, max: 180, noNaN: true }),
		}),
		first_name: fc.constant(null),
	},
	{ requiredKeys: [] },
);
const refusedStandardAttribute = fc.constantFrom<Record<string, unknown>>(
	{ country: 'Bavaria' },
	{ language: 'deu' },
	{ gender: 'Q' },
	{ phone: '0151 2345678' },
	{ phone: '+49 abc' },
	{ dob: '1990-02-30' },
	{ dob: '21.04.1990' },
	{ email: 'not-an-email' },
	{ time_zone: 'Mars/Olympus_Mons' },
	{ current_location: { latitude: '52.5', longitude: 13.4 } },
	{ push_subscribe: 'yes' },
	{ email_open_tracking_disabled: 'true' },
	{ date_of_first_session: '2026-13-01T00:00:00Z' },
);
export const validAttributes = fc
	.tuple(
		fc.dictionary(
			attributeName,
			fc.oneof(fc.integer(), fc.boolean(), unicodeText, fc.array(unicodeText, { maxLength: 3 }), fc.constant(null)),
			{ minKeys: 1, maxKeys: 4 },
		),
		validStandardAttributes,
	)
	.map(([custom, standard]) => ({ ...custom, ...standard }));

export const badAttributes: Array<fc.Arbitrary<Mutation>> = [
	setting('attributes', 'object attribute', 'Attributes', fc.constant({ c_address: { city: 'Oslo' } })),
	setting(
		'attributes',
		'$-prefixed attribute name',
		'Attributes',
		dollarKey.map((key) => ({ [key]: 'x' })),
	),
	setting(
		'attributes',
		'attribute text over 255 characters',
		'Attributes',
		longerThan(255).map((text) => ({ c_note: text })),
	),
	setting('attributes', 'array of numbers', 'Attributes', fc.constant({ c_list: [1, 2] })),
	setting('attributes', 'nothing to update', 'Attributes', fc.constant({})),
	setting(
		'attributes',
		'attributes not an object',
		'Attributes',
		fc.constantFrom<unknown>('{plan', [{ plan: 'gold' }], 42),
	),
	setting(
		'attributes',
		'dotted attribute name',
		'Attributes',
		dottedKey.map((key) => ({ [key]: 'x' })),
		'either',
	),
	setting('attributes', 'standard attribute the platform refuses', 'Attributes', refusedStandardAttribute),
];

export const validOrder: fc.Arbitrary<ValidItem> = fc
	.record({
		user: userText,
		attributes: fc.option(validAttributes, { nil: undefined }),
		events: fc.array(fc.record({ name: unicodeText, properties: validProperties }), { minLength: 1, maxLength: 3 }),
		purchases: fc.array(
			fc.record({
				product_id: fc.constant('sku-1'),
				currency: fc.constant('EUR'),
				price: fc.integer({ min: 0, max: 100 }),
			}),
			{ maxLength: 3 },
		),
	})
	.map(({ user, attributes, events, purchases }) => (index) => ({
		userId: userIdOf(index, user),
		...(attributes && { attributes }),
		events: events.map((event) => ({ ...event, time: VALID_TIME })),
		purchases: purchases.map((purchase) => ({ ...purchase, time: VALID_TIME })),
	}));

/** Alias-only profiles to identify, one per index, and profiles to rename and export. */
const PROFILES = 150;
export const aliasProfiles = Array.from({ length: PROFILES }, (_, i) => ({
	user_aliases: [{ alias_name: `visitor-${i}`, alias_label: 'web_visitor' }],
}));
/** Profiles known by external ID `crm-<i>` and email, for the items to name. */
export const crmProfiles = Array.from({ length: PROFILES }, (_, i) => ({
	external_id: `crm-${i}`,
	email: `crm${i}@example.com`,
}));
