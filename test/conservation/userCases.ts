/**
 * The User node's rows: the /users/track operations, identify, rename and export, and the endpoints
 * they call.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

import { SIMPLE_FIELDS } from '../../nodes/EngagementPlatform/User/operations/export';
import type { Mutation } from '../reliability/badInputBatch';
import { batchOf, duplicating, MAX_BAD_ITEMS, removing, setting } from '../reliability/badInputBatch';
import { bodyArrayLength } from '../reliability/badInputRun';
import {
	aliasProfiles,
	badAttributes,
	badProperties,
	badUser,
	byUserId,
	crmProfiles,
	placeholderId,
	VALID_TIME,
	validAttributes,
	validEvent,
	validOrder,
	validPurchase,
	userIdOf,
	userText,
} from '../reliability/badInputUserValues';
import { blank, invalidDate, longerThan, notText, unicodeText } from '../reliability/badValues';
import { FAULT_IDS, faultProfiles, inOneRequest } from '../reliability/faultCase';
import { USER_NODE } from '../support/nodeTypes';
import {
	ALIAS_LABELS,
	batch,
	compact,
	identifierOf,
	identifierParameters,
	mostly,
	profilesOf,
	timeOf,
	userOf,
	withServiceIds,
} from './batches';
import type { Endpoint } from './endpoints';
import { atMost, single } from './limitRules';
import type { OperationRow } from './operationRow';
import type { Body, WirePiece } from './pieceReading';
import { asBody, list, trackKey, userKey } from './pieceReading';

const TRACK_LIMIT = 'Limits: /users/track "per request up to 75 event, 75 attribute, 75 purchase objects"';

/** Every object of the attributes, events and purchases arrays, by the probe its item put in it. */
function trackPieces(body: Body): WirePiece[] {
	return ['attributes', 'events', 'purchases'].flatMap((slot) =>
		list(body[slot]).map((entry) => {
			const object = asBody(entry);
			const probe = slot === 'attributes' ? object.probe : asBody(object.properties).probe;
			return { key: trackKey(slot, probe), value: entry };
		}),
	);
}

const USERS_TRACK: Endpoint = {
	method: 'POST',
	path: '/users/track',
	read: trackPieces,
	limits: [
		atMost(75, ['attributes'], TRACK_LIMIT),
		atMost(75, ['events'], TRACK_LIMIT),
		atMost(75, ['purchases'], TRACK_LIMIT),
	],
};

const USERS_IDENTIFY: Endpoint = {
	method: 'POST',
	path: '/users/identify',
	read: (body) => [
		...list(body.aliases_to_identify).map((entry) => ({
			key: userKey('identify', 'user_alias', asBody(entry).user_alias),
			value: { merge_behavior: body.merge_behavior, object: entry },
		})),
		...list(body.emails_to_identify).map((entry) => ({
			key: userKey('identify', 'email', asBody(entry).email),
			value: { merge_behavior: body.merge_behavior, object: entry },
		})),
	],
	limits: [
		atMost(
			50,
			['aliases_to_identify'],
			'/users/identify aliases_to_identify "up to 50 per request"; Limits: "up to 50 aliases per request"',
		),
		// Emails are not counted separately in the spec: read as 50 identifications in all, the stricter reading.
		atMost(
			50,
			['aliases_to_identify', 'emails_to_identify'],
			'Limits: /users/identify "up to 50 aliases per request" (emails_to_identify counted with them)',
		),
	],
};

const USERS_EXTERNAL_IDS_RENAME: Endpoint = {
	method: 'POST',
	path: '/users/external_ids/rename',
	read: (body) =>
		list(body.external_id_renames).map((entry) => ({
			key: userKey('rename', 'external_id', asBody(entry).current_external_id),
			value: entry,
		})),
	limits: [
		atMost(
			50,
			['external_id_renames'],
			'/users/external_ids/rename external_id_renames "required array of up to 50 objects"; Limits: "up to 50 rename objects per request"',
		),
	],
};

const USERS_EXPORT_IDS: Endpoint = {
	method: 'POST',
	path: '/users/export/ids',
	read: (body) =>
		['external_ids', 'user_aliases', 'device_id', 'email_address', 'phone', 'service_id'].flatMap((field) =>
			list(body[field]).map((id) => ({
				key: userKey('export', field, id),
				value: { field, id, fields_to_export: body.fields_to_export },
			})),
		),
	limits: [
		// "up to 50 external_ids or user_aliases": read as both together, the stricter reading.
		atMost(
			50,
			['external_ids', 'user_aliases'],
			'Limits: /users/export/ids "up to 50 external_ids or user_aliases"; fields: external_ids "up to 50", user_aliases "up to 50"',
		),
		single(
			'device_id',
			'Limits: /users/export/ids "one each of device_id, email_address, phone"; device_id "one per request"',
		),
		single(
			'email_address',
			'Limits: /users/export/ids "one each of device_id, email_address, phone"; email_address "one per request"',
		),
		single('phone', 'Limits: /users/export/ids "one each of device_id, email_address, phone"; phone "one per request"'),
	],
};

/** The fault suite's user of an item: the profile its `id` names. */
const byExternalId = { identifyBy: 'external_id', externalId: '={{ $json.id }}' };

const MAX_ITEMS = 130;
const RUNS = 4;

const TRACK_KINDS = ['external_id', 'user_alias', 'email', 'phone', 'service_id'];
/** Attribute objects by external ID, alias, email or phone: the identifiers the spec's attribute object lists. */
const ATTRIBUTE_KINDS = ['external_id', 'user_alias', 'email', 'phone'];
/** Purchases by external ID, alias or email: the identifiers the spec's purchase object shows. */
const PURCHASE_KINDS = ['external_id', 'user_alias', 'email'];

const extraProperties = fc.record(
	{
		plan: fc.constantFrom('gold', 'free', 'trial'),
		score: fc.integer({ min: 0, max: 100 }),
		gift: fc.boolean(),
		city: fc.constantFrom('Oslo', 'Zürich', '東京'),
	},
	{ requiredKeys: [] },
);

const profilesSeed = (items: IDataObject[]) => ({
	profiles: profilesOf(items),
	subscriptionGroups: ['newsletter', 'offers'],
});

const trackEvent: OperationRow = {
	name: 'User: Track Event',
	nodeType: USER_NODE,
	operation: 'trackEvent',
	parameters: {
		...identifierParameters,
		eventName: '={{ $json.event }}',
		time: '={{ $json.time }}',
		propertiesInput: 'json',
		propertiesJson: '={{ $json.properties }}',
		additionalFields: { app_id: '={{ $json.appId }}', _update_existing_only: '={{ $json.existingOnly }}' },
	},
	items: batch(
		fc.record({
			idKind: fc.constantFrom(...TRACK_KINDS),
			aliasLabel: fc.constantFrom(...ALIAS_LABELS),
			event: fc.constantFrom('order_placed', 'form submitted', 'trial_started'),
			appId: fc.constantFrom('app-web', 'app-ios'),
			existingOnly: fc.boolean(),
			extra: extraProperties,
		}),
		({ extra, ...choice }, index) => ({
			...userOf(index, choice.aliasLabel),
			...choice,
			time: timeOf(index),
			properties: { ...extra, probe: index },
		}),
		MAX_ITEMS,
	),
	numRuns: RUNS,
	seed: profilesSeed,
	complete: withServiceIds,
	expected: (json, index) => [
		{
			key: trackKey('events', index),
			value: {
				...identifierOf(json),
				name: json.event,
				time: json.time,
				properties: json.properties,
				app_id: json.appId,
				_update_existing_only: json.existingOnly,
			},
		},
	],
	endpoints: [USERS_TRACK],
	batchLimit: 75,
	underFault: {
		...inOneRequest(USERS_TRACK),
		parameters: { ...byExternalId, eventName: 'fault_probe', time: '2026-11-01T12:00:00Z' },
		seed: {},
		resendsAfterServerError: false,
		applied: (state) => state.events.filter((event) => event.name === 'fault_probe').length,
	},
	badInput: {
		parameters: {
			...byUserId,
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
				// An empty Time is the time the workflow runs.
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
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'events'),
	},
};

const trackPurchase: OperationRow = {
	name: 'User: Track Purchase',
	nodeType: USER_NODE,
	operation: 'trackPurchase',
	parameters: {
		...identifierParameters,
		productId: '={{ $json.sku }}',
		currency: '={{ $json.currency }}',
		price: '={{ $json.price }}',
		quantity: '={{ $json.quantity }}',
		time: '={{ $json.time }}',
		propertiesInput: 'json',
		propertiesJson: '={{ $json.properties }}',
		additionalFields: { app_id: '={{ $json.appId }}', _update_existing_only: '={{ $json.existingOnly }}' },
	},
	items: batch(
		fc.record({
			idKind: fc.constantFrom(...PURCHASE_KINDS),
			aliasLabel: fc.constantFrom(...ALIAS_LABELS),
			sku: fc.constantFrom('sku-1', 'gift card', 'sku-ß'),
			currency: fc.constantFrom('USD', 'EUR', 'JPY'),
			price: fc.oneof(
				fc.integer({ min: 0, max: 5000 }),
				fc.integer({ min: 1, max: 99_999 }).map((cents) => cents / 100),
			),
			quantity: fc.integer({ min: 1, max: 100 }),
			appId: fc.constantFrom('app-web', 'app-ios'),
			existingOnly: fc.boolean(),
			extra: extraProperties,
		}),
		({ extra, ...choice }, index) => ({
			...userOf(index, choice.aliasLabel),
			...choice,
			time: timeOf(index),
			properties: { ...extra, probe: index },
		}),
		MAX_ITEMS,
	),
	numRuns: RUNS,
	seed: profilesSeed,
	expected: (json, index) => [
		{
			key: trackKey('purchases', index),
			value: {
				...identifierOf(json),
				product_id: json.sku,
				currency: json.currency,
				price: json.price,
				quantity: json.quantity,
				time: json.time,
				properties: json.properties,
				app_id: json.appId,
				_update_existing_only: json.existingOnly,
			},
		},
	],
	endpoints: [USERS_TRACK],
	batchLimit: 75,
	underFault: {
		...inOneRequest(USERS_TRACK),
		parameters: {
			...byExternalId,
			productId: 'sku-1',
			currency: 'EUR',
			price: 10,
			quantity: 1,
			time: '2026-11-01T12:00:00Z',
		},
		seed: {},
		resendsAfterServerError: false,
		applied: (state) => state.purchases.length,
	},
	badInput: {
		parameters: {
			...byUserId,
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
				// A text that is exactly a number ('3') is read as that number: not bad input.
				setting(
					'quantity',
					'quantity out of range',
					'Quantity',
					fc.constantFrom<unknown>(0, -1, 101, 1.5, 'three', '3.5'),
				),
				setting('time', 'invalid date', 'Time', invalidDate),
				...badProperties('Purchase Properties'),
			],
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'purchases'),
	},
};

const updateAttributes: OperationRow = {
	name: 'User: Update Attributes',
	nodeType: USER_NODE,
	operation: 'updateAttributes',
	parameters: {
		...identifierParameters,
		attributesInput: 'json',
		attributesJson: '={{ $json.attributes }}',
		additionalFields: {
			email_subscribe: '={{ $json.emailSubscribe }}',
			subscription_groups: {
				groups: [{ subscription_group_id: '={{ $json.group }}', subscription_state: '={{ $json.groupState }}' }],
			},
			_update_existing_only: '={{ $json.existingOnly }}',
		},
	},
	items: batch(
		fc.record({
			idKind: fc.constantFrom(...ATTRIBUTE_KINDS),
			aliasLabel: fc.constantFrom(...ALIAS_LABELS),
			plan: fc.constantFrom('gold', 'free'),
			visits: fc.integer({ min: 0, max: 1000 }),
			emailSubscribe: fc.constantFrom('opted_in', 'subscribed', 'unsubscribed'),
			group: fc.constantFrom('newsletter', 'offers'),
			groupState: fc.constantFrom('subscribed', 'unsubscribed'),
			existingOnly: fc.boolean(),
		}),
		({ plan, visits, ...choice }, index) => ({
			...userOf(index, choice.aliasLabel),
			...choice,
			attributes: { probe: index, c_plan: plan, c_visits: visits },
		}),
		MAX_ITEMS,
	),
	numRuns: RUNS,
	seed: profilesSeed,
	expected: (json, index) => [
		{
			key: trackKey('attributes', index),
			value: {
				...identifierOf(json),
				...(json.attributes as IDataObject),
				email_subscribe: json.emailSubscribe,
				subscription_groups: [{ subscription_group_id: json.group, subscription_state: json.groupState }],
				_update_existing_only: json.existingOnly,
			},
		},
	],
	endpoints: [USERS_TRACK],
	batchLimit: 75,
	underFault: {
		...inOneRequest(USERS_TRACK),
		parameters: {
			...byExternalId,
			attributesInput: 'json',
			attributesJson: '{"plan": "gold"}',
		},
		seed: { profiles: faultProfiles },
		resendsAfterServerError: true,
		applied: (state) => state.profiles.filter((profile) => profile.custom_attributes.plan === 'gold').length,
	},
	badInput: {
		parameters: {
			...byUserId,
			attributesInput: 'json',
			attributesJson: '={{ $json.attributes }}',
		},
		seed: {},
		items: batchOf(
			fc
				.record({ user: userText, attributes: validAttributes })
				.map(({ user, attributes }) => (index) => ({ userId: userIdOf(index, user), attributes })),
			[...badUser, ...badAttributes],
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'attributes'),
	},
};

/** Now and then an order of more events than one request holds, so one item's pieces travel in several requests. */
const eventCount = fc.oneof(
	{ weight: 30, arbitrary: fc.integer({ min: 0, max: 3 }) },
	{ weight: 1, arbitrary: fc.integer({ min: 76, max: 90 }) },
);

const trackUserData: OperationRow = {
	name: 'User: Track User Data',
	nodeType: USER_NODE,
	operation: 'trackUserData',
	parameters: {
		...identifierParameters,
		attributesInput: 'json',
		attributesJson: '={{ $json.attributes }}',
		eventsJson: '={{ $json.events }}',
		purchasesJson: '={{ $json.purchases }}',
	},
	items: batch(
		fc.record({
			idKind: fc.constantFrom(...TRACK_KINDS),
			aliasLabel: fc.constantFrom(...ALIAS_LABELS),
			withAttributes: fc.boolean(),
			events: eventCount,
			purchases: fc.integer({ min: 0, max: 2 }),
			name: fc.constantFrom('order_placed', 'item_viewed'),
			extra: extraProperties,
		}),
		({ withAttributes, events, purchases, name, extra, ...choice }, index) => {
			const purchaseCount = PURCHASE_KINDS.includes(choice.idKind) ? purchases : 0;
			const attributes = withAttributes && ATTRIBUTE_KINDS.includes(choice.idKind);
			const eventTotal = events === 0 && purchaseCount === 0 && !attributes ? 1 : events;
			return {
				...userOf(index, choice.aliasLabel),
				...choice,
				attributes: attributes ? { probe: `${index}:a`, c_orders: index } : {},
				events: Array.from({ length: eventTotal }, (_, k) => ({
					name,
					time: timeOf(index + k),
					properties: { ...extra, probe: `${index}:e${k}` },
				})),
				purchases: Array.from({ length: purchaseCount }, (_, k) => ({
					product_id: `sku-${k}`,
					currency: 'EUR',
					price: 10 + k,
					quantity: 1 + k,
					time: timeOf(index),
					properties: { probe: `${index}:p${k}` },
				})),
			};
		},
		MAX_ITEMS,
	),
	numRuns: RUNS,
	seed: profilesSeed,
	complete: withServiceIds,
	expected: (json) => {
		const identifier = identifierOf(json);
		const attributes = json.attributes as IDataObject;
		return [
			...(Object.keys(attributes).length > 0
				? [{ key: trackKey('attributes', attributes.probe), value: { ...identifier, ...attributes } }]
				: []),
			...(json.events as IDataObject[]).map((event) => ({
				key: trackKey('events', (event.properties as IDataObject).probe),
				value: { ...identifier, ...event },
			})),
			...(json.purchases as IDataObject[]).map((purchase) => ({
				key: trackKey('purchases', (purchase.properties as IDataObject).probe),
				value: { ...identifier, ...purchase },
			})),
		];
	},
	endpoints: [USERS_TRACK],
	batchLimit: 75,
	underFault: {
		...inOneRequest(USERS_TRACK),
		parameters: {
			...byExternalId,
			attributesInput: 'json',
			attributesJson: '{"plan": "gold"}',
			eventsJson: '[{"name": "fault_probe", "time": "2026-11-01T12:00:00Z"}]',
			purchasesJson: '[]',
		},
		seed: { profiles: faultProfiles },
		resendsAfterServerError: false,
		applied: (state) => state.events.filter((event) => event.name === 'fault_probe').length,
	},
	badInput: {
		parameters: {
			...byUserId,
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
				setting(
					'events',
					'event with an unknown key',
					'Events[0]',
					fc.constant([{ name: 'a', time: VALID_TIME, extra: 1 }]),
				),
				setting(
					'events',
					'events not an array',
					'Events',
					fc.constantFrom<unknown>({ name: 'a', time: VALID_TIME }, '[{', 7),
				),
				setting(
					'purchases',
					'purchase in a lowercase currency',
					'Purchases[0].currency',
					fc.constant([{ product_id: 'a', currency: 'eur', price: 1, time: VALID_TIME }]),
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
					fc.constant(Array.from({ length: 80 }, (_, i) => ({ name: `e${i}`, time: VALID_TIME }))),
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
	},
};

/** The spec's `prioritization` arrays, as the node's options name them. */
export const PRIORITIZATION: Record<string, string[]> = {
	identified: ['identified'],
	identifiedThenRecent: ['identified', 'most_recently_updated'],
	recent: ['most_recently_updated'],
	unidentified: ['unidentified'],
	unidentifiedThenRecent: ['unidentified', 'most_recently_updated'],
};

const identify: OperationRow = {
	name: 'User: Identify',
	nodeType: USER_NODE,
	operation: 'identify',
	parameters: {
		externalId: '={{ $json.externalId }}',
		identifyBy: '={{ $json.profileType }}',
		aliasName: '={{ $json.aliasName }}',
		aliasLabel: '={{ $json.aliasLabel }}',
		email: '={{ $json.email }}',
		prioritization: '={{ $json.prioritization }}',
		mergeBehavior: '={{ $json.merge }}',
	},
	items: batch(
		fc.record({
			profileType: mostly('user_alias', ['email'], 3),
			merge: mostly('merge', ['none'], 5),
			aliasLabel: fc.constantFrom(...ALIAS_LABELS),
			prioritization: fc.constantFrom('unidentified', 'unidentifiedThenRecent', 'recent'),
		}),
		(choice, index) => ({
			...choice,
			externalId: `known-${index}`,
			aliasName: `visitor-${index}`,
			email: `anon${index}@example.com`,
		}),
		MAX_ITEMS,
	),
	numRuns: RUNS,
	// The anonymous profiles to merge: alias-only or email-only, as each item names it.
	seed: (items) => ({
		profiles: items.map((json) =>
			json.profileType === 'email'
				? { email: json.email as string }
				: { user_aliases: [{ alias_name: json.aliasName as string, alias_label: json.aliasLabel as string }] },
		),
	}),
	expected: (json) =>
		json.profileType === 'email'
			? [
					{
						key: userKey('identify', 'email', json.email),
						value: {
							merge_behavior: json.merge,
							object: {
								external_id: json.externalId,
								email: json.email,
								prioritization: PRIORITIZATION[json.prioritization as string],
							},
						},
					},
				]
			: [
					{
						key: userKey('identify', 'user_alias', { alias_name: json.aliasName, alias_label: json.aliasLabel }),
						value: {
							merge_behavior: json.merge,
							object: {
								external_id: json.externalId,
								user_alias: { alias_name: json.aliasName, alias_label: json.aliasLabel },
							},
						},
					},
				],
	endpoints: [USERS_IDENTIFY],
	batchLimit: 50,
	underFault: {
		credential: 'api',
		parameters: {
			externalId: '={{ $json.id }}',
			identifyBy: 'user_alias',
			aliasName: '={{ $json.visitor }}',
			aliasLabel: 'web_visitor',
			mergeBehavior: 'merge',
		},
		seed: {
			profiles: FAULT_IDS.map((i) => ({ user_aliases: [{ alias_name: `visitor-${i}`, alias_label: 'web_visitor' }] })),
		},
		items: FAULT_IDS.map((i) => ({ id: `crm-${i}`, visitor: `visitor-${i}` })),
		firstRequest: { method: 'POST', path: '/users/identify' },
		requestPerItem: false,
		resendsAfterServerError: true,
		applied: (state) => state.profiles.filter((profile) => profile.external_id?.startsWith('crm-')).length,
	},
	badInput: {
		parameters: {
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
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'aliases_to_identify'),
	},
};

const renameExternalIds: OperationRow = {
	name: 'User: Rename External ID',
	nodeType: USER_NODE,
	operation: 'renameExternalIds',
	parameters: {
		currentExternalId: '={{ $json.current }}',
		newExternalId: '={{ $json.next }}',
	},
	items: batch(
		fc.constantFrom('v2', 'migrated', 'crm'),
		(suffix, index) => ({ current: `cx-${index}`, next: `cx-${index}-${suffix}` }),
		MAX_ITEMS,
	),
	numRuns: RUNS,
	seed: (items) => ({ profiles: items.map((json) => ({ external_id: json.current as string })) }),
	expected: (json) => [
		{
			key: userKey('rename', 'external_id', json.current),
			value: { current_external_id: json.current, new_external_id: json.next },
		},
	],
	endpoints: [USERS_EXTERNAL_IDS_RENAME],
	batchLimit: 50,
	underFault: {
		...inOneRequest(USERS_EXTERNAL_IDS_RENAME),
		parameters: {
			currentExternalId: '={{ $json.id }}',
			newExternalId: '={{ $json.id + "-new" }}',
		},
		seed: { profiles: faultProfiles },
		resendsAfterServerError: false,
		applied: (state) => state.profiles.filter((profile) => profile.external_id?.endsWith('-new')).length,
	},
	badInput: {
		parameters: {
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
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'external_id_renames'),
	},
};

const EXPORT_KINDS = fc.oneof(
	{ weight: 5, arbitrary: fc.constant('external_id') },
	{ weight: 5, arbitrary: fc.constant('user_alias') },
	{ weight: 1, arbitrary: fc.constantFrom('email', 'phone', 'device_id', 'service_id') },
);

const exportProfiles: OperationRow = {
	name: 'User: Export by Identifier',
	nodeType: USER_NODE,
	operation: 'export',
	// Simplify per item: n8n shows Fields to Export while Simplify holds an expression, and the node reads both per item.
	parameters: {
		...identifierParameters,
		simplify: '={{ $json.simplify }}',
		fieldsToExport: '={{ $json.fields }}',
	},
	items: batch(
		fc.record({
			idKind: EXPORT_KINDS,
			aliasLabel: fc.constantFrom(...ALIAS_LABELS),
			fields: mostly(['email', 'first_name'], [['custom_attributes', 'country']], 6),
			simplify: fc.boolean(),
		}),
		(choice, index) => ({ ...userOf(index, choice.aliasLabel), ...choice, fields: [...choice.fields] }),
		MAX_ITEMS,
	),
	numRuns: RUNS,
	seed: (items) => ({ profiles: profilesOf(items) }),
	complete: withServiceIds,
	expected: (json) => {
		const [[field, id]] = Object.entries(identifierOf(json));
		return [
			{
				key: userKey('export', field, id),
				check(wire) {
					const { id: sent, fields_to_export: fields } = wire as IDataObject;
					if (!isDeepStrictEqual(sent, id)) return `identifier ${JSON.stringify(sent)}, not ${JSON.stringify(id)}`;
					const wanted = json.simplify ? SIMPLE_FIELDS : (json.fields as string[]);
					const missing = wanted.filter((name) => !Array.isArray(fields) || !(fields as unknown[]).includes(name));
					return missing.length > 0
						? `fields_to_export ${JSON.stringify(fields)} lacks ${missing.join(', ')}`
						: undefined;
				},
			},
		];
	},
	// Each user an item outputs is one the request it was in answered: as answered, or its Simplify fields.
	answeredFrom(answers, request) {
		const users = ((request.response as IDataObject | undefined)?.users ?? []) as IDataObject[];
		const simplified = (user: IDataObject) =>
			Object.fromEntries(SIMPLE_FIELDS.map((name) => [name, user[name] ?? null]));
		const foreign = answers
			.map(({ warnings: _warnings, ...user }) => user)
			.filter(
				(answer) =>
					answer.status !== 'not_found' &&
					!users.some(
						(user) => isDeepStrictEqual(compact(user), compact(answer)) || isDeepStrictEqual(simplified(user), answer),
					),
			);
		return foreign.length > 0 ? `outputs ${foreign.length} user(s) not in the answer of its request` : undefined;
	},
	endpoints: [USERS_EXPORT_IDS],
	batchLimit: 50,
	underFault: {
		...inOneRequest(USERS_EXPORT_IDS),
		parameters: { identifyBy: 'external_id', externalId: '={{ $json.id }}' },
		seed: { profiles: faultProfiles },
		resendsAfterServerError: true,
	},
	badInput: {
		parameters: { identifyBy: 'external_id', externalId: '={{ $json.id }}' },
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
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'external_ids'),
	},
};

export const USER_CASES: OperationRow[] = [
	trackEvent,
	trackPurchase,
	updateAttributes,
	trackUserData,
	identify,
	renameExternalIds,
	exportProfiles,
];
