/** Conservation cases of the User node: the /users/track operations, identify, rename and export. */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

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
import type { ConservationCase } from './conservationCase';
import { trackKey, userKey } from './wirePieces';
import { SIMPLE_FIELDS } from '../../nodes/EngagementPlatform/User/operations/export';

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

const trackEvent: ConservationCase = {
	name: 'User: Track Event',
	nodeType: USER_NODE,
	operation: 'trackEvent',
	parameters: {
		operation: 'trackEvent',
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
};

const trackPurchase: ConservationCase = {
	name: 'User: Track Purchase',
	nodeType: USER_NODE,
	operation: 'trackPurchase',
	parameters: {
		operation: 'trackPurchase',
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
};

const updateAttributes: ConservationCase = {
	name: 'User: Update Attributes',
	nodeType: USER_NODE,
	operation: 'updateAttributes',
	parameters: {
		operation: 'updateAttributes',
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
};

/** Now and then an order of more events than one request holds, so one item's pieces travel in several requests. */
const eventCount = fc.oneof(
	{ weight: 30, arbitrary: fc.integer({ min: 0, max: 3 }) },
	{ weight: 1, arbitrary: fc.integer({ min: 76, max: 90 }) },
);

const trackUserData: ConservationCase = {
	name: 'User: Track User Data',
	nodeType: USER_NODE,
	operation: 'trackUserData',
	parameters: {
		operation: 'trackUserData',
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
};

/** The spec's `prioritization` arrays, as the node's options name them. */
export const PRIORITIZATION: Record<string, string[]> = {
	identified: ['identified'],
	identifiedThenRecent: ['identified', 'most_recently_updated'],
	recent: ['most_recently_updated'],
	unidentified: ['unidentified'],
	unidentifiedThenRecent: ['unidentified', 'most_recently_updated'],
};

const identify: ConservationCase = {
	name: 'User: Identify',
	nodeType: USER_NODE,
	operation: 'identify',
	parameters: {
		operation: 'identify',
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
};

const renameExternalIds: ConservationCase = {
	name: 'User: Rename External ID',
	nodeType: USER_NODE,
	operation: 'renameExternalIds',
	parameters: {
		operation: 'renameExternalIds',
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
};

const EXPORT_KINDS = fc.oneof(
	{ weight: 5, arbitrary: fc.constant('external_id') },
	{ weight: 5, arbitrary: fc.constant('user_alias') },
	{ weight: 1, arbitrary: fc.constantFrom('email', 'phone', 'device_id', 'service_id') },
);

const exportProfiles: ConservationCase = {
	name: 'User: Export by Identifier',
	nodeType: USER_NODE,
	operation: 'export',
	// Simplify per item: n8n shows Fields to Export while Simplify holds an expression, and the node reads both per item.
	parameters: {
		operation: 'export',
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
};

export const USER_CASES: ConservationCase[] = [
	trackEvent,
	trackPurchase,
	updateAttributes,
	trackUserData,
	identify,
	renameExternalIds,
	exportProfiles,
];
