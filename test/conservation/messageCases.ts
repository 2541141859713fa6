/**
 * The Message node's rows: Send Now, campaign and canvas triggers, transactional email, scheduled
 * canvases, and the endpoints they call.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

import type { StateView } from '../../sandbox';
import { batchOf, MAX_BAD_ITEMS, removing, setting } from '../reliability/badInputBatch';
import {
	badRecipient,
	badScheduleId,
	EMAIL_MESSAGE,
	ONE_REQUEST_PER_ITEM,
	recipientPerItem,
	schedules,
	triggerProperties,
	validRecipient,
	validSchedule,
} from '../reliability/badInputMessageValues';
import { answeredCount, bodyArrayLength } from '../reliability/badInputRun';
import { crmProfiles } from '../reliability/badInputUserValues';
import { blank, dollarKey, invalidDate, notText, unicodeText, withLoneSurrogate } from '../reliability/badValues';
import { FAULT_IDS, faultItems, faultProfiles, inOneRequest } from '../reliability/faultCase';
import { MESSAGE_NODE } from '../support/nodeTypes';
import { ALIAS_LABELS, batch, compact, mostly, plain, profilesOf, timeOf, userOf } from './batches';
import type { Endpoint } from './endpoints';
import type { WireLimit } from './limitRules';
import { atMost, bytes, count, KB50, objects } from './limitRules';
import type { OperationRow } from './operationRow';
import type { Body, WirePiece } from './pieceReading';
import { asBody, broadcastKey, identityOf, list, scheduleKey, userKey, without } from './pieceReading';
import { PRIORITIZATION } from './userCases';

/** A send to named users: each recipient with the request's other fields; a broadcast: the whole body. */
function dispatchPieces(listFields: string[], broadcastTarget: string) {
	return (body: Body): WirePiece[] => {
		const shared = without(body, ...listFields);
		if (body.broadcast === true) return [{ key: broadcastKey(body[broadcastTarget]), value: { request: body } }];
		return listFields.flatMap((field) =>
			list(body[field]).map((recipient) => {
				if (field !== 'recipients')
					return { key: userKey('recipient', field, recipient), value: { request: shared, field, recipient } };
				// The spec's default: send_to_existing_only true, the same as absent.
				const object = asBody(recipient);
				const normal = object.send_to_existing_only === true ? without(object, 'send_to_existing_only') : object;
				const identity = identityOf(object, ['external_user_id', 'user_alias', 'email']);
				return {
					key: identity ? userKey('recipient', ...identity) : 'recipient:?',
					value: { request: shared, recipient: normal },
				};
			}),
		);
	};
}

const MESSAGING_RECIPIENTS =
	'Limits: "/canvas/trigger/send, /campaigns/trigger/send, /messages/send ... with external IDs: up to 50 external IDs per request"';

const MESSAGES_SEND: Endpoint = {
	method: 'POST',
	path: '/messages/send',
	read: dispatchPieces(['external_user_ids', 'user_aliases'], 'segment_id'),
	// external_user_ids "up to 50"; aliases address users too, so both count against the 50 per request.
	limits: [
		atMost(
			50,
			['external_user_ids', 'user_aliases'],
			`${MESSAGING_RECIPIENTS}; /messages/send external_user_ids "up to 50"`,
		),
	],
};

const CAMPAIGNS_TRIGGER_SEND: Endpoint = {
	method: 'POST',
	path: '/campaigns/trigger/send',
	read: dispatchPieces(['recipients'], 'campaign_id'),
	limits: [atMost(50, ['recipients'], `${MESSAGING_RECIPIENTS}; /campaigns/trigger/send recipients "up to 50"`)],
};

const canvasEntryProperties: WireLimit = {
	spec: 'Limits: "canvas_entry_properties: at most 50 KB"; /canvas/trigger/send canvas_entry_properties "at most 50 KB"',
	over(body) {
		const sizes = [
			body.canvas_entry_properties,
			...objects(body.recipients).map((recipient) => recipient.canvas_entry_properties),
		]
			.filter((value) => value !== undefined)
			.map(bytes);
		const largest = Math.max(0, ...sizes);
		return largest > KB50 ? `canvas_entry_properties: ${largest} bytes > 50 KB` : undefined;
	},
};

const CANVAS_TRIGGER_SEND: Endpoint = {
	method: 'POST',
	path: '/canvas/trigger/send',
	read: dispatchPieces(['recipients'], 'canvas_id'),
	limits: [
		atMost(50, ['recipients'], `${MESSAGING_RECIPIENTS}; /canvas/trigger/send recipients "up to 50"`),
		canvasEntryProperties,
	],
};

const TRANSACTIONAL_SEND: Endpoint = {
	method: 'POST',
	path: '/transactional/v1/campaigns/{campaign_id}/send',
	read(body, params) {
		const identity = identityOf(asBody(body.recipient), ['external_user_id', 'user_alias']);
		return [
			{
				key: identity ? userKey('transactional', ...identity) : 'transactional:?',
				value: { campaign_id: params.campaign_id, body },
			},
		];
	},
	limits: [
		{
			spec: 'Transactional send: "recipient (object, required): exactly one of external_user_id or user_alias"; "Exactly one user per request (1:1 alerts)"',
			over(body) {
				const recipient = body.recipient;
				if (body.recipients !== undefined) return `recipients: a list, one recipient allowed`;
				if (typeof recipient !== 'object' || recipient === null || Array.isArray(recipient))
					return `recipient: ${count(recipient)} recipients, exactly one allowed`;
				const identities = ['external_user_id', 'user_alias'].filter(
					(field) => (recipient as Body)[field] !== undefined,
				).length;
				return identities === 1 ? undefined : `recipient: ${identities} identifiers, exactly one allowed`;
			},
		},
	],
};

/** The schedule's body; the spec: in_local_time omitted means UTC, the same as false. */
function schedulePieces(action: string) {
	return (body: Body): WirePiece[] => {
		const scheduleObject = asBody(body.schedule);
		const normal =
			body.schedule === undefined
				? body
				: {
						...body,
						schedule:
							scheduleObject.in_local_time === false ? without(scheduleObject, 'in_local_time') : scheduleObject,
					};
		return [{ key: scheduleKey(body.canvas_id, body.schedule_id), value: { action, body: normal } }];
	};
}

// No per-request limit stated (rate limits only): one schedule per request by the body.
const CANVAS_SCHEDULE_UPDATE: Endpoint = {
	method: 'POST',
	path: '/canvas/trigger/schedule/update',
	read: schedulePieces('update'),
	limits: [],
};
const CANVAS_SCHEDULE_DELETE: Endpoint = {
	method: 'POST',
	path: '/canvas/trigger/schedule/delete',
	read: schedulePieces('delete'),
	limits: [],
};

/** The fault suite's three schedules of the canvas onboarding. */
const faultSchedules = {
	canvases: [{ id: 'onboarding' }],
	canvasSchedules: FAULT_IDS.map((i) => ({
		canvas_id: 'onboarding',
		schedule_id: `s-${i}`,
		schedule: { time: '2026-12-01T09:00:00Z' },
	})),
};

/** How many recipients the sandbox dispatched to, for the fault suite. */
const dispatchedRecipients = (state: StateView) =>
	(state.dispatches as unknown as Array<{ recipients?: unknown[]; external_user_ids?: unknown[] }>).reduce(
		(sum, dispatch) => sum + (dispatch.recipients?.length ?? dispatch.external_user_ids?.length ?? 0),
		0,
	);

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

const sendNow: OperationRow = {
	name: 'Message: Send Now',
	nodeType: MESSAGE_NODE,
	operation: 'sendNow',
	parameters: {
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
	endpoints: [MESSAGES_SEND],
	batchLimit: 50,
	underFault: {
		...inOneRequest(MESSAGES_SEND),
		parameters: {
			sendTo: 'users',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
			messages: '{"email": {"app_id": "app", "subject": "Hello", "body": "<p>Hi</p>"}}',
		},
		seed: { profiles: faultProfiles },
		resendsAfterServerError: false,
		applied: dispatchedRecipients,
	},
	badInput: {
		parameters: {
			sendTo: 'users',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
			messages: '={{ $json.messages }}',
		},
		seed: { profiles: crmProfiles },
		items: batchOf(
			fc.constant((index: number): IDataObject => ({ id: `crm-${index}`, messages: EMAIL_MESSAGE })),
			[
				removing('id', 'missing recipient', 'External ID'),
				setting('id', 'recipient not text', 'External ID', notText),
				setting(
					'messages',
					'unknown channel',
					'Messages',
					fc.constantFrom<unknown>({ fax: { body: 'x' } }, { $email: {} }, { 'email.body': {} }),
				),
				setting('messages', 'no message', 'Messages', fc.constantFrom<unknown>({}, '{"email": ', [EMAIL_MESSAGE])),
				setting(
					'messages',
					'channel not an object',
					'Messages',
					fc.constantFrom<unknown>({ email: 'hello' }, { email: [1] }),
				),
			],
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'external_user_ids'),
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

const triggerCampaign: OperationRow = {
	name: 'Message: Trigger Campaign',
	nodeType: MESSAGE_NODE,
	operation: 'triggerCampaign',
	parameters: {
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
	endpoints: [CAMPAIGNS_TRIGGER_SEND],
	batchLimit: 50,
	underFault: {
		...inOneRequest(CAMPAIGNS_TRIGGER_SEND),
		parameters: {
			campaignId: 'welcome',
			sendTo: 'recipients',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		},
		seed: { profiles: faultProfiles, campaigns: [{ id: 'welcome' }] },
		resendsAfterServerError: false,
		applied: dispatchedRecipients,
	},
	badInput: {
		parameters: { campaignId: 'welcome', ...recipientPerItem },
		seed: { profiles: crmProfiles, campaigns: [{ id: 'welcome' }] },
		items: batchOf(
			validRecipient,
			[
				...badRecipient,
				setting(
					'properties',
					'$-prefixed property name',
					undefined,
					dollarKey.map((key) => ({ [key]: 1 })),
					'either',
				),
			],
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'recipients'),
	},
};

const triggerCanvas: OperationRow = {
	name: 'Message: Trigger Canvas',
	nodeType: MESSAGE_NODE,
	operation: 'triggerCanvas',
	parameters: {
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
	endpoints: [CANVAS_TRIGGER_SEND],
	batchLimit: 50,
	underFault: {
		...inOneRequest(CANVAS_TRIGGER_SEND),
		parameters: {
			canvasId: 'onboarding',
			sendTo: 'recipients',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		},
		seed: { profiles: faultProfiles, canvases: [{ id: 'onboarding' }] },
		resendsAfterServerError: false,
		applied: dispatchedRecipients,
	},
	badInput: {
		parameters: { canvasId: 'onboarding', ...recipientPerItem },
		seed: { profiles: crmProfiles, canvases: [{ id: 'onboarding' }] },
		items: batchOf(
			validRecipient,
			[
				...badRecipient.map((mutation) =>
					mutation.map((m) => ({
						...m,
						field: m.field === 'Trigger Properties' ? 'Canvas Entry Properties' : m.field,
					})),
				),
				setting(
					'properties',
					'entry properties over 50 KB',
					'Canvas Entry Properties',
					fc.integer({ min: 51_000, max: 60_000 }).map((size) => ({ blob: 'x'.repeat(size) })),
				),
			],
			MAX_BAD_ITEMS,
		),
		received: (answered) => bodyArrayLength(answered, 'recipients'),
	},
};

/** The spec's external_send_id: "one or more of letters, digits, hyphen, underscore, plus, slash, equals". */
const EXTERNAL_SEND_ID = /^[A-Za-z0-9_+/=-]+$/;

const sendTransactionalEmail: OperationRow = {
	name: 'Message: Send Transactional Email',
	nodeType: MESSAGE_NODE,
	operation: 'sendTransactionalEmail',
	parameters: {
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
	endpoints: [TRANSACTIONAL_SEND],
	batchLimit: null,
	underFault: {
		credential: 'api',
		parameters: {
			campaignId: 'receipt',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		},
		seed: { profiles: faultProfiles, campaigns: [{ id: 'receipt', kind: 'transactional' }] },
		items: faultItems,
		firstRequest: { method: 'POST', path: '/transactional/v1/campaigns/receipt/send' },
		requestPerItem: true,
		// Each send carries an external_send_id, so the platform deduplicates a resend.
		resendsAfterServerError: true,
		applied: (state) => state.transactionalSends.length,
	},
	badInput: {
		parameters: {
			campaignId: '={{ $json.campaign }}',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
			externalSendId: '={{ $json.sendId }}',
			triggerPropertiesInput: 'json',
			triggerPropertiesJson: '={{ $json.properties }}',
		},
		seed: { profiles: crmProfiles, campaigns: [{ id: 'receipt', kind: 'transactional' }] },
		numRuns: 12,
		items: batchOf(
			triggerProperties.map((props) => (index: number): IDataObject => ({
				campaign: 'receipt',
				id: `crm-${index}`,
				sendId: `receipt-${index}`,
				properties: props,
			})),
			[
				removing('id', 'missing recipient', 'External ID'),
				setting('id', 'recipient not text', 'External ID', notText),
				setting('campaign', 'blank campaign', 'Campaign ID', blank),
				setting(
					'sendId',
					'send ID with spaces or dots',
					'External Send ID',
					fc.constantFrom('order 1', 'order.1', 'ordre-é', 'order#1'),
				),
				setting(
					'sendId',
					'send ID of unicode',
					'External Send ID',
					unicodeText.filter((text) => !/^[A-Za-z0-9+/=_-]+$/.test(text.trim())),
				),
				setting(
					'campaign',
					'campaign ID with a lone surrogate',
					'Campaign ID',
					withLoneSurrogate.map((text) => `receipt${text}`),
					'refused',
				),
			],
			ONE_REQUEST_PER_ITEM,
		),
		received: answeredCount,
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

const updateScheduledCanvas: OperationRow = {
	name: 'Message: Update Scheduled Canvas',
	nodeType: MESSAGE_NODE,
	operation: 'updateScheduledCanvas',
	parameters: {
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
	endpoints: [CANVAS_SCHEDULE_UPDATE],
	batchLimit: null,
	underFault: {
		credential: 'api',
		parameters: {
			canvasId: 'onboarding',
			scheduleId: '={{ $json.id }}',
			time: '2026-12-02T10:00:00Z',
		},
		seed: faultSchedules,
		items: FAULT_IDS.map((i) => ({ id: `s-${i}` })),
		firstRequest: { method: 'POST', path: '/canvas/trigger/schedule/update' },
		requestPerItem: true,
		resendsAfterServerError: true,
		applied: (state) =>
			(state.canvasSchedules as unknown as Array<{ schedule: { time: string } }>).filter(
				(s) => s.schedule.time === '2026-12-02T10:00:00Z',
			).length,
	},
	badInput: {
		parameters: {
			canvasId: 'onboarding',
			scheduleId: '={{ $json.id }}',
			time: '={{ $json.time }}',
			triggerProperties: '={{ $json.properties }}',
		},
		seed: { canvases: [{ id: 'onboarding' }], canvasSchedules: schedules },
		numRuns: 12,
		items: batchOf(
			validSchedule,
			[
				...badScheduleId,
				setting('time', 'invalid date', 'Send Time', invalidDate),
				setting('time', 'missing date', 'Send Time', blank),
				setting(
					'properties',
					'trigger properties not an object',
					'Trigger Properties',
					fc.constantFrom<unknown>('{a:', [1], 5),
				),
				setting(
					'properties',
					'unicode trigger properties',
					undefined,
					unicodeText.map((text) => ({ note: text })),
					'accepted',
				),
			],
			ONE_REQUEST_PER_ITEM,
		),
		received: answeredCount,
	},
};

const deleteScheduledCanvas: OperationRow = {
	name: 'Message: Delete Scheduled Canvas',
	nodeType: MESSAGE_NODE,
	operation: 'deleteScheduledCanvas',
	parameters: {
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
	endpoints: [CANVAS_SCHEDULE_DELETE],
	batchLimit: null,
	underFault: {
		credential: 'api',
		parameters: { canvasId: 'onboarding', scheduleId: '={{ $json.id }}' },
		seed: faultSchedules,
		items: FAULT_IDS.map((i) => ({ id: `s-${i}` })),
		firstRequest: { method: 'POST', path: '/canvas/trigger/schedule/delete' },
		requestPerItem: true,
		// A resend after a lost answer would meet 404 for a schedule it did delete.
		resendsAfterServerError: false,
		applied: (state) => 3 - state.canvasSchedules.length,
	},
	badInput: {
		parameters: { canvasId: 'onboarding', scheduleId: '={{ $json.id }}' },
		seed: { canvases: [{ id: 'onboarding' }], canvasSchedules: schedules },
		numRuns: 12,
		items: batchOf(validSchedule, badScheduleId, ONE_REQUEST_PER_ITEM),
		received: answeredCount,
	},
};

export const MESSAGE_CASES: OperationRow[] = [
	sendNow,
	triggerCampaign,
	triggerCanvas,
	sendTransactionalEmail,
	updateScheduledCanvas,
	deleteScheduledCanvas,
];
