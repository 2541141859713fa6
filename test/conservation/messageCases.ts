/** Conservation cases of the Message node: Send Now, campaign and canvas triggers, transactional email, scheduled canvases. */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

import { MESSAGE_NODE } from '../support/nodeTypes';
import { ALIAS_LABELS, batch, compact, mostly, plain, profilesOf, timeOf, userOf } from './batches';
import type { ConservationCase } from './conservationCase';
import { PRIORITIZATION } from './userCases';
import { broadcastKey, scheduleKey, userKey } from './wirePieces';

const MAX_ITEMS = 130;
/** Operations sending one request per item. */
const MAX_OWN_REQUESTS = 30;

const MESSAGE_VARIANTS: IDataObject[] = [
	{ email: { app_id: 'app-web', subject: 'Hello', body: '<p>Hi</p>' } },
	{
		sms: { subscription_group_id: 'sms-alerts', body: 'Hi' },
		email: { app_id: 'app-web', subject: 'Hej', body: '<p>Hej</p>' },
	},
];

const alias = (json: IDataObject): IDataObject => ({ alias_name: json.aliasName, alias_label: json.aliasLabel });
const recipientProperties = fc.record(
	{ tier: fc.constantFrom('gold', 'silver'), first_order: fc.boolean() },
	{ requiredKeys: [] },
);

const sendNow: ConservationCase = {
	name: 'Message: Send Now',
	nodeType: MESSAGE_NODE,
	operation: 'sendNow',
	parameters: {
		operation: 'sendNow',
		sendTo: '={{ $json.sendTo }}',
		identifyBy: '={{ $json.identifyBy }}',
		externalId: '={{ $json.externalId }}',
		aliasName: '={{ $json.aliasName }}',
		aliasLabel: '={{ $json.aliasLabel }}',
		messages: '={{ $json.messages }}',
		segmentId: '={{ $json.segmentId }}',
		additionalFields: { recipient_subscription_state: '={{ $json.subscriptionState }}' },
	},
	items: batch(
		fc.record({
			sendTo: mostly('users', ['broadcast'], 10),
			identifyBy: fc.constantFrom('external_id', 'user_alias'),
			aliasLabel: fc.constantFrom(...ALIAS_LABELS),
			messages: mostly(0, [1], 5),
			subscriptionState: mostly('subscribed', ['all'], 6),
		}),
		({ messages, ...choice }, index) => ({
			...userOf(index, choice.aliasLabel),
			...choice,
			// A broadcast item names its own segment: its one piece of data on the wire.
			segmentId: choice.sendTo === 'broadcast' ? `seg-${index}` : '',
			messages: plain(MESSAGE_VARIANTS[messages]),
		}),
		MAX_ITEMS,
	),
	numRuns: 4,
	seed: (items) => ({
		profiles: profilesOf(items),
		segments: items
			.filter((json) => json.segmentId !== '')
			.map((json) => ({ id: json.segmentId as string, external_ids: [json.externalId as string] })),
	}),
	expected(json) {
		const request = { messages: json.messages, recipient_subscription_state: json.subscriptionState };
		if (json.sendTo === 'broadcast')
			return [
				{
					key: broadcastKey(json.segmentId),
					value: { request: { ...request, segment_id: json.segmentId, broadcast: true } },
				},
			];
		const field = json.identifyBy === 'user_alias' ? 'user_aliases' : 'external_user_ids';
		const recipient = json.identifyBy === 'user_alias' ? alias(json) : json.externalId;
		return [{ key: userKey('recipient', field, recipient), value: { request, field, recipient } }];
	},
};

/** The recipient fields the campaign and canvas triggers share, each mapped from the item. */
const recipientParameters = {
	sendTo: '={{ $json.sendTo }}',
	identifyBy: '={{ $json.identifyBy }}',
	externalId: '={{ $json.externalId }}',
	aliasName: '={{ $json.aliasName }}',
	aliasLabel: '={{ $json.aliasLabel }}',
	email: '={{ $json.email }}',
	prioritization: '={{ $json.prioritization }}',
	recipientPropertiesInput: 'json',
	recipientPropertiesJson: '={{ $json.properties }}',
	recipientAttributesInput: 'json',
	recipientAttributesJson: '={{ $json.attributes }}',
	sendToExistingOnly: '={{ $json.existingOnly }}',
};

const recipientChoice = fc.record({
	sendTo: mostly('recipients', ['broadcast'], 10),
	identifyBy: fc.constantFrom('external_id', 'user_alias', 'email'),
	aliasLabel: fc.constantFrom(...ALIAS_LABELS),
	prioritization: fc.constantFrom('identified', 'identifiedThenRecent', 'recent'),
	withAttributes: fc.boolean(),
	existingOnly: fc.boolean(),
	extra: recipientProperties,
});

type RecipientChoice = typeof recipientChoice extends fc.Arbitrary<infer C> ? C : never;

/** An item of a trigger: its user, its recipient choices, and a probe in its properties. */
function recipientItem(
	{ withAttributes, existingOnly, extra, ...choice }: RecipientChoice,
	index: number,
): IDataObject {
	return {
		...userOf(index, choice.aliasLabel),
		...choice,
		properties: { ...extra, probe: index },
		attributes: withAttributes ? { c_tier: 'gold' } : {},
		// Off only where the spec allows it: with attributes to create the user from, and not for an alias.
		existingOnly: choice.identifyBy === 'user_alias' || !withAttributes ? true : existingOnly,
	};
}

/** The spec's recipient object for an item, `propertiesKey` holding its properties. */
function recipientOf(json: IDataObject, propertiesKey: string): IDataObject {
	const identity: IDataObject =
		json.identifyBy === 'user_alias'
			? { user_alias: alias(json) }
			: json.identifyBy === 'email'
				? { email: json.email, prioritization: PRIORITIZATION[json.prioritization as string] }
				: { external_user_id: json.externalId };
	const attributes = json.attributes as IDataObject;
	return compact({
		...identity,
		[propertiesKey]: json.properties,
		attributes: Object.keys(attributes).length > 0 ? attributes : undefined,
		send_to_existing_only: json.existingOnly === false ? false : undefined,
	});
}

function recipientKey(json: IDataObject): string {
	const value =
		json.identifyBy === 'user_alias' ? alias(json) : json.identifyBy === 'email' ? json.email : json.externalId;
	return userKey(
		'recipient',
		json.identifyBy === 'external_id' ? 'external_user_id' : (json.identifyBy as string),
		value,
	);
}

const triggerCampaign: ConservationCase = {
	name: 'Message: Trigger Campaign',
	nodeType: MESSAGE_NODE,
	operation: 'triggerCampaign',
	parameters: {
		operation: 'triggerCampaign',
		campaignId: '={{ $json.campaign }}',
		...recipientParameters,
		additionalFields: { send_id: '={{ $json.sendId }}' },
	},
	items: batch(
		fc.tuple(recipientChoice, mostly('welcome', ['spring'], 6), mostly('batch-a', ['batch-b'], 6)),
		([choice, campaign, sendId], index) => ({
			...recipientItem(choice, index),
			// A broadcast item triggers its own campaign: its one piece of data on the wire.
			campaign: choice.sendTo === 'broadcast' ? `bc-${index}` : campaign,
			sendId,
		}),
		MAX_ITEMS,
	),
	numRuns: 4,
	seed: (items) => ({
		profiles: profilesOf(items),
		campaigns: [...new Set(['welcome', 'spring', ...items.map((json) => json.campaign as string)])].map((id) => ({
			id,
		})),
	}),
	expected(json) {
		const request = { campaign_id: json.campaign, send_id: json.sendId };
		if (json.sendTo === 'broadcast')
			return [{ key: broadcastKey(json.campaign), value: { request: { ...request, broadcast: true } } }];
		return [{ key: recipientKey(json), value: { request, recipient: recipientOf(json, 'trigger_properties') } }];
	},
};

const triggerCanvas: ConservationCase = {
	name: 'Message: Trigger Canvas',
	nodeType: MESSAGE_NODE,
	operation: 'triggerCanvas',
	parameters: {
		operation: 'triggerCanvas',
		canvasId: '={{ $json.canvas }}',
		...recipientParameters,
		canvasEntryProperties: '={{ $json.shared }}',
	},
	items: batch(
		fc.tuple(recipientChoice, mostly('onboarding', ['winback'], 6), mostly('none', ['winter'], 6)),
		([choice, canvas, shared], index) => ({
			...recipientItem(choice, index),
			canvas: choice.sendTo === 'broadcast' ? `bcv-${index}` : canvas,
			shared: shared === 'none' ? {} : { season: shared },
		}),
		MAX_ITEMS,
	),
	numRuns: 4,
	seed: (items) => ({
		profiles: profilesOf(items),
		canvases: [...new Set(['onboarding', 'winback', ...items.map((json) => json.canvas as string)])].map((id) => ({
			id,
		})),
	}),
	expected(json) {
		const shared = json.shared as IDataObject;
		const request = compact({
			canvas_id: json.canvas,
			canvas_entry_properties: Object.keys(shared).length > 0 ? shared : undefined,
		});
		if (json.sendTo === 'broadcast')
			return [{ key: broadcastKey(json.canvas), value: { request: { ...request, broadcast: true } } }];
		return [{ key: recipientKey(json), value: { request, recipient: recipientOf(json, 'canvas_entry_properties') } }];
	},
};

/** The spec's external_send_id: "one or more of letters, digits, hyphen, underscore, plus, slash, equals". */
const EXTERNAL_SEND_ID = /^[A-Za-z0-9_+/=-]+$/;

const sendTransactionalEmail: ConservationCase = {
	name: 'Message: Send Transactional Email',
	nodeType: MESSAGE_NODE,
	operation: 'sendTransactionalEmail',
	parameters: {
		operation: 'sendTransactionalEmail',
		campaignId: '={{ $json.campaign }}',
		identifyBy: '={{ $json.identifyBy }}',
		externalId: '={{ $json.externalId }}',
		aliasName: '={{ $json.aliasName }}',
		aliasLabel: '={{ $json.aliasLabel }}',
		externalSendId: '={{ $json.sendId }}',
		triggerPropertiesInput: 'json',
		triggerPropertiesJson: '={{ $json.properties }}',
		recipientAttributesInput: 'json',
		recipientAttributesJson: '={{ $json.attributes }}',
	},
	items: batch(
		fc.record({
			campaign: mostly('receipt', ['password-reset'], 3),
			identifyBy: fc.constantFrom('external_id', 'user_alias'),
			aliasLabel: fc.constantFrom(...ALIAS_LABELS),
			givenSendId: fc.boolean(),
			withAttributes: fc.boolean(),
			extra: recipientProperties,
		}),
		({ givenSendId, withAttributes, extra, ...choice }, index) => ({
			...userOf(index, choice.aliasLabel),
			...choice,
			// Empty: the node derives one (not knowable here, so only its format is checked).
			sendId: givenSendId ? `tx-${index}` : '',
			properties: { ...extra, probe: index },
			attributes: withAttributes ? { first_name: `Ada${index}` } : {},
		}),
		MAX_OWN_REQUESTS,
	),
	numRuns: 3,
	seed: (items) => ({
		profiles: profilesOf(items),
		campaigns: [
			{ id: 'receipt', kind: 'transactional' },
			{ id: 'password-reset', kind: 'transactional' },
		],
	}),
	expected(json) {
		const identity: IDataObject =
			json.identifyBy === 'user_alias' ? { user_alias: alias(json) } : { external_user_id: json.externalId };
		const attributes = json.attributes as IDataObject;
		const recipient = compact({ ...identity, attributes: Object.keys(attributes).length > 0 ? attributes : undefined });
		const [[field, value]] = Object.entries(identity);
		return [
			{
				key: userKey('transactional', field, value),
				check(wire) {
					const { campaign_id: campaignId, body } = wire as { campaign_id: string; body: IDataObject };
					if (campaignId !== json.campaign) return `campaign ${campaignId}, not ${String(json.campaign)}`;
					const { external_send_id: sendId, recipient: sent, trigger_properties: properties, ...rest } = body;
					if (Object.keys(rest).length > 0) return `unexpected fields ${Object.keys(rest).join(', ')}`;
					if (!isDeepStrictEqual(sent, recipient))
						return `recipient ${JSON.stringify(sent)}, not ${JSON.stringify(recipient)}`;
					if (!isDeepStrictEqual(properties, json.properties))
						return `trigger_properties ${JSON.stringify(properties)}, not ${JSON.stringify(json.properties)}`;
					if (
						json.sendId !== '' ? sendId !== json.sendId : typeof sendId !== 'string' || !EXTERNAL_SEND_ID.test(sendId)
					) {
						return `external_send_id ${JSON.stringify(sendId)}, not ${json.sendId === '' ? 'a Base64-compatible one' : String(json.sendId)}`;
					}
					return undefined;
				},
			},
		];
	},
};

const CANVASES = ['onboarding', 'winback'];
const scheduleItem = fc.record({
	canvas: mostly('onboarding', ['winback'], 3),
	local: fc.boolean(),
	withProperties: fc.boolean(),
});
const schedulesSeed = (items: IDataObject[]) => ({
	canvases: CANVASES.map((id) => ({ id })),
	canvasSchedules: items.map((json) => ({
		canvas_id: json.canvas as string,
		schedule_id: json.schedule as string,
		schedule: { time: '2026-12-01T09:00:00Z' },
	})),
});

const updateScheduledCanvas: ConservationCase = {
	name: 'Message: Update Scheduled Canvas',
	nodeType: MESSAGE_NODE,
	operation: 'updateScheduledCanvas',
	parameters: {
		operation: 'updateScheduledCanvas',
		canvasId: '={{ $json.canvas }}',
		scheduleId: '={{ $json.schedule }}',
		time: '={{ $json.time }}',
		inLocalTime: '={{ $json.local }}',
		triggerProperties: '={{ $json.properties }}',
	},
	items: batch(
		scheduleItem,
		({ withProperties, ...choice }, index) => ({
			...choice,
			schedule: `s-${index}`,
			time: timeOf(1000 + index),
			properties: withProperties ? { probe: index } : {},
		}),
		MAX_OWN_REQUESTS,
	),
	numRuns: 3,
	seed: schedulesSeed,
	expected: (json) => [
		{
			key: scheduleKey(json.canvas, json.schedule),
			value: {
				action: 'update',
				body: compact({
					canvas_id: json.canvas,
					schedule_id: json.schedule,
					schedule: json.local === true ? { time: json.time, in_local_time: true } : { time: json.time },
					trigger_properties: Object.keys(json.properties as IDataObject).length > 0 ? json.properties : undefined,
				}),
			},
		},
	],
};

const deleteScheduledCanvas: ConservationCase = {
	name: 'Message: Delete Scheduled Canvas',
	nodeType: MESSAGE_NODE,
	operation: 'deleteScheduledCanvas',
	parameters: {
		operation: 'deleteScheduledCanvas',
		canvasId: '={{ $json.canvas }}',
		scheduleId: '={{ $json.schedule }}',
	},
	items: batch(scheduleItem, ({ canvas }, index) => ({ canvas, schedule: `s-${index}` }), MAX_OWN_REQUESTS),
	numRuns: 3,
	seed: schedulesSeed,
	expected: (json) => [
		{
			key: scheduleKey(json.canvas, json.schedule),
			value: { action: 'delete', body: { canvas_id: json.canvas, schedule_id: json.schedule } },
		},
	],
};

export const MESSAGE_CASES: ConservationCase[] = [
	sendNow,
	triggerCampaign,
	triggerCanvas,
	sendTransactionalEmail,
	updateScheduledCanvas,
	deleteScheduledCanvas,
];
