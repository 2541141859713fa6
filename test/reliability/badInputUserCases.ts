/** Bad-input cases of the User node: the /users/track operations, identify, rename and export. */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { USER_NODE } from '../support/nodeTypes';
import type { Mutation, ValidItem } from './badInputBatch';
import { batchOf, duplicating, removing, setting } from './badInputBatch';
import type { BadInputCase } from './badInputRun';
import { bodyArrayLength } from './badInputRun';
import {
	blank,
	dollarKey,
	dottedKey,
	invalidDate,
	longerThan,
	nested,
	notText,
	unicodeText,
	withLoneSurrogate,
} from './badValues';

const MAX_ITEMS = 120;
const TIME = '2026-11-01T12:00:00Z';
const track = { identifyBy: 'external_id', externalId: '={{ $json.userId }}' };
/** External IDs are built from the index: generated text could hit the platform's blocked placeholders ("null", "test"). */
const userIdOf = (index: number, text: string) => `${text}-${index % 40}`;
const userText = fc.oneof(fc.constant('crm'), unicodeText);

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
function badProperties(field: string): Array<fc.Arbitrary<Mutation>> {
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
		setting('properties', 'datetime inside an array', field, fc.constant({ dates: [TIME] })),
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
const placeholderId = fc.constantFrom(
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

const badUser: Array<fc.Arbitrary<Mutation>> = [
	removing('userId', 'missing identifier', 'External ID'),
	setting('userId', 'blank identifier', 'External ID', blank),
	setting('userId', 'identifier not text', 'External ID', notText),
	setting('userId', 'placeholder external ID', 'External ID', placeholderId),
];

const validEvent: fc.Arbitrary<ValidItem> = fc
	.record({
		user: userText,
		event: fc.oneof(fc.constantFrom('order_placed', 'form submitted'), unicodeText),
		properties: validProperties,
	})
	.map(({ user, event, properties }) => (index) => ({ userId: userIdOf(index, user), event, time: TIME, properties }));

const trackEvent: BadInputCase = {
	name: 'User: Track Event',
	nodeType: USER_NODE,
	parameters: {
		operation: 'trackEvent',
		...track,
		eventName: '={{ $json.event }}',
		time: '={{ $json.time }}',
		propertiesInput: 'json',
		propertiesJson: '={{ $json.properties }}',
	},
	seed: {},
	items: batchOf(
		validEvent,
		[
			...badUser,
			setting('event', 'blank event name', 'Event Name', blank),
			setting('event', 'event name not text', 'Event Name', notText),
			// The spec gives event names no limit; the node holds them to the 255 of property names.
			setting('event', 'event name over 255 characters', 'Event Name', longerThan(255), 'either'),
			setting('time', 'invalid date', 'Time', invalidDate),
			// Version 2: an empty Time is the time the workflow runs, as {{ $now }} was 1.0's default.
			setting('time', 'missing date', 'Time', blank, 'accepted'),
			setting(
				'time',
				'other datetime format',
				'Time',
				fc.constantFrom('2026-11-01T12:00:00:000+0100', '2026-11-01T12:00:00.123456+01:00', '2026-11-01T12:00'),
				'accepted',
			),
			...badProperties('Event Properties'),
		],
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'events'),
};

const validPurchase: fc.Arbitrary<ValidItem> = fc
	.record({
		user: userText,
		sku: fc.oneof(fc.constantFrom('sku-1', 'gift card'), unicodeText),
		currency: fc.constantFrom('EUR', 'USD', 'jpy'),
		price: fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 0, max: 10_000, noNaN: true })),
		quantity: fc.integer({ min: 1, max: 100 }),
		properties: validProperties,
	})
	.map(({ user, ...purchase }) => (index) => ({ userId: userIdOf(index, user), time: TIME, ...purchase }));

const trackPurchase: BadInputCase = {
	name: 'User: Track Purchase',
	nodeType: USER_NODE,
	parameters: {
		operation: 'trackPurchase',
		...track,
		productId: '={{ $json.sku }}',
		currency: '={{ $json.currency }}',
		price: '={{ $json.price }}',
		quantity: '={{ $json.quantity }}',
		time: '={{ $json.time }}',
		propertiesInput: 'json',
		propertiesJson: '={{ $json.properties }}',
	},
	seed: {},
	items: batchOf(
		validPurchase,
		[
			...badUser,
			setting('sku', 'blank product ID', 'Product ID', blank),
			setting('sku', 'product ID over 255 characters', 'Product ID', longerThan(255), 'either'),
			setting('currency', 'not a currency code', 'Currency', fc.constantFrom('EURO', 'E1R', '€', 'US')),
			setting('currency', 'currency not text', 'Currency', notText),
			setting(
				'price',
				'price not a number',
				'Price',
				fc.constantFrom<unknown>('ten', '', null, true, [1], { amount: 1 }),
			),
			// Version 2 reads a text that is exactly a number ('3') as that number: not bad input.
			setting(
				'quantity',
				'quantity out of range',
				'Quantity',
				fc.constantFrom<unknown>(0, -1, 101, 1.5, 'three', '3.5'),
			),
			setting('time', 'invalid date', 'Time', invalidDate),
			...badProperties('Purchase Properties'),
		],
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'purchases'),
};

/** Custom attribute names; prefixed so none is one of the platform's standard attributes (email, country, ...). */
const attributeName = fc.oneof(
	fc.stringMatching(/^c_[a-z_]{1,10}$/),
	unicodeText.map((text) => `c_${text}`),
);
/** Standard attributes with values the platform takes, and with values it refuses. */
const validStandardAttributes = fc.record(
	{
		country: fc.constantFrom('DE', 'us', 'Jp'),
		language: fc.constantFrom('de', 'EN'),
		gender: fc.constantFrom('M', 'f', 'O', 'N', 'P', 'U'),
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
	{ country: 'Germany' },
	{ language: 'deu' },
	{ gender: 'X' },
	{ dob: '1990-02-30' },
	{ dob: '21.04.1990' },
	{ email: 'not-an-email' },
	{ time_zone: 'Mars/Olympus_Mons' },
	{ current_location: { latitude: '52.5', longitude: 13.4 } },
	{ push_subscribe: 'yes' },
	{ email_open_tracking_disabled: 'true' },
	{ date_of_first_session: '2026-13-01T00:00:00Z' },
);
const validAttributes = fc
	.tuple(
		fc.dictionary(
			attributeName,
			fc.oneof(fc.integer(), fc.boolean(), unicodeText, fc.array(unicodeText, { maxLength: 3 }), fc.constant(null)),
			{ minKeys: 1, maxKeys: 4 },
		),
		validStandardAttributes,
	)
	.map(([custom, standard]) => ({ ...custom, ...standard }));

const badAttributes: Array<fc.Arbitrary<Mutation>> = [
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

const updateAttributes: BadInputCase = {
	name: 'User: Update Attributes',
	nodeType: USER_NODE,
	parameters: {
		operation: 'updateAttributes',
		...track,
		attributesInput: 'json',
		attributesJson: '={{ $json.attributes }}',
	},
	seed: {},
	items: batchOf(
		fc
			.record({ user: userText, attributes: validAttributes })
			.map(({ user, attributes }) => (index) => ({ userId: userIdOf(index, user), attributes })),
		[...badUser, ...badAttributes],
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'attributes'),
};

const validOrder: fc.Arbitrary<ValidItem> = fc
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
		events: events.map((event) => ({ ...event, time: TIME })),
		purchases: purchases.map((purchase) => ({ ...purchase, time: TIME })),
	}));

const trackUserData: BadInputCase = {
	name: 'User: Track User Data',
	nodeType: USER_NODE,
	parameters: {
		operation: 'trackUserData',
		...track,
		attributesInput: 'json',
		attributesJson: '={{ $json.attributes }}',
		eventsJson: '={{ $json.events }}',
		purchasesJson: '={{ $json.purchases }}',
	},
	seed: {},
	items: batchOf(
		validOrder,
		[
			...badUser,
			setting('events', 'event without a time', 'Events[0].time', fc.constant([{ name: 'a' }])),
			setting('events', 'event with an unknown key', 'Events[0]', fc.constant([{ name: 'a', time: TIME, extra: 1 }])),
			setting('events', 'events not an array', 'Events', fc.constantFrom<unknown>({ name: 'a', time: TIME }, '[{', 7)),
			setting(
				'purchases',
				'purchase in a lowercase currency',
				'Purchases[0].currency',
				fc.constant([{ product_id: 'a', currency: 'eur', price: 1, time: TIME }]),
			),
			setting(
				'purchases',
				'purchase with an invalid date',
				'Purchases[0].time',
				invalidDate.map((time) => [{ product_id: 'a', currency: 'EUR', price: 1, time }]),
			),
			setting(
				'events',
				'more events than one request holds',
				undefined,
				fc.constant(Array.from({ length: 80 }, (_, i) => ({ name: `e${i}`, time: TIME }))),
				'accepted',
			),
			...badAttributes.slice(0, 3),
		],
		60,
	),
	received: (answered) =>
		['attributes', 'events', 'purchases'].reduce((sum, key) => sum + bodyArrayLength(answered, key), 0),
	expected: (accepted) =>
		accepted.reduce(
			(sum, json) =>
				sum + (json.attributes ? 1 : 0) + (json.events as unknown[]).length + (json.purchases as unknown[]).length,
			0,
		),
};

/** Alias-only profiles to identify, one per index, and profiles to rename and export. */
const PROFILES = 150;
const aliasProfiles = Array.from({ length: PROFILES }, (_, i) => ({
	user_aliases: [{ alias_name: `visitor-${i}`, alias_label: 'web_visitor' }],
}));
const crmProfiles = Array.from({ length: PROFILES }, (_, i) => ({
	external_id: `crm-${i}`,
	email: `crm${i}@example.com`,
}));

const identify: BadInputCase = {
	name: 'User: Identify',
	nodeType: USER_NODE,
	parameters: {
		operation: 'identify',
		externalId: '={{ $json.id }}',
		identifyBy: 'user_alias',
		aliasName: '={{ $json.visitor }}',
		aliasLabel: 'web_visitor',
		mergeBehavior: 'merge',
	},
	seed: { profiles: aliasProfiles },
	items: batchOf(
		fc
			.oneof(fc.constant('crm'), unicodeText)
			.map((text) => (index) => ({ id: `${text}-${index}`, visitor: `visitor-${index}` })),
		[
			removing('id', 'missing external ID', 'External ID'),
			setting('id', 'external ID not text', 'External ID', notText),
			setting('id', 'placeholder external ID', 'External ID', placeholderId),
			setting('visitor', 'blank alias name', 'Alias Name', blank),
			setting('visitor', 'alias name not text', 'Alias Name', notText),
		],
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'aliases_to_identify'),
};

const renameExternalIds: BadInputCase = {
	name: 'User: Rename External ID',
	nodeType: USER_NODE,
	parameters: {
		operation: 'renameExternalIds',
		currentExternalId: '={{ $json.id }}',
		newExternalId: '={{ $json.newId }}',
	},
	seed: { profiles: crmProfiles },
	items: batchOf(
		fc
			.oneof(fc.constant('renamed'), unicodeText)
			.map((text) => (index) => ({ id: `crm-${index}`, newId: `${text}-${index}` })),
		[
			removing('id', 'missing current ID', 'Current External ID'),
			setting('newId', 'blank new ID', 'New External ID', blank),
			setting('newId', 'new ID not text', 'New External ID', notText),
			setting('newId', 'placeholder new ID', 'New External ID', placeholderId),
			fc.constant<Mutation>({
				kind: 'same ID twice',
				verdict: 'refused',
				field: 'New External ID',
				apply: (json: IDataObject) => ({ ...json, newId: json.id }),
			}),
		],
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'external_id_renames'),
};

const exportProfiles: BadInputCase = {
	name: 'User: Export by External ID',
	nodeType: USER_NODE,
	parameters: { operation: 'export', identifyBy: 'external_id', externalId: '={{ $json.id }}' },
	seed: { profiles: crmProfiles },
	items: batchOf(
		fc.constantFrom('crm', 'unknown-user').map((prefix) => (index) => ({ id: `${prefix}-${index}` })),
		[
			removing('id', 'missing external ID', 'External ID'),
			setting('id', 'external ID not text', 'External ID', notText),
			setting('id', 'unicode external ID', 'External ID', unicodeText, 'accepted'),
			duplicating('id', 'External ID').map((mutation) => ({
				...mutation,
				kind: 'repeated ID',
				verdict: 'accepted' as const,
			})),
		],
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'external_ids'),
};

export const USER_CASES: BadInputCase[] = [
	trackEvent,
	trackPurchase,
	updateAttributes,
	trackUserData,
	identify,
	renameExternalIds,
	exportProfiles,
];
