/** Bad-input cases of the Message node: triggers, Send Now, transactional email, scheduled canvases. */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { RecordedRequest } from '../../sandbox';
import { MESSAGE_NODE } from '../support/nodeTypes';
import type { Mutation } from './badInputBatch';
import { batchOf, duplicating, removing, setting } from './badInputBatch';
import type { BadInputCase } from './badInputRun';
import { bodyArrayLength } from './badInputRun';
import { blank, dollarKey, invalidDate, notText, unicodeText, withLoneSurrogate } from './badValues';

const MAX_ITEMS = 120;
const ONE_REQUEST_PER_ITEM = 30;
const PROFILES = 150;
const profiles = Array.from({ length: PROFILES }, (_, i) => ({
	external_id: `crm-${i}`,
	email: `crm${i}@example.com`,
}));
const answeredCount = (answered: RecordedRequest[]) => answered.length;

const properties = fc.dictionary(
	fc.stringMatching(/^[a-z][a-z_]{0,9}$/),
	fc.oneof(fc.integer(), fc.boolean(), unicodeText),
	{ maxKeys: 3 },
);
const recipientItem = properties.map((props) => (index: number): IDataObject => ({
	id: `crm-${index}`,
	properties: props,
}));

const badRecipient: Array<fc.Arbitrary<Mutation>> = [
	removing('id', 'missing recipient', 'External ID'),
	setting('id', 'blank recipient', 'External ID', blank),
	setting('id', 'recipient not text', 'External ID', notText),
	setting('properties', 'properties not an object', 'Trigger Properties', fc.constantFrom<unknown>('{a:', [1, 2], 3)),
];

const recipients = {
	sendTo: 'recipients',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	recipientPropertiesInput: 'json',
	recipientPropertiesJson: '={{ $json.properties }}',
};

const triggerCampaign: BadInputCase = {
	name: 'Message: Trigger Campaign',
	nodeType: MESSAGE_NODE,
	parameters: { operation: 'triggerCampaign', campaignId: 'welcome', ...recipients },
	seed: { profiles, campaigns: [{ id: 'welcome' }] },
	items: batchOf(
		recipientItem,
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
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'recipients'),
};

const triggerCanvas: BadInputCase = {
	name: 'Message: Trigger Canvas',
	nodeType: MESSAGE_NODE,
	parameters: { operation: 'triggerCanvas', canvasId: 'onboarding', ...recipients },
	seed: { profiles, canvases: [{ id: 'onboarding' }] },
	items: batchOf(
		recipientItem,
		[
			...badRecipient.map((mutation) =>
				mutation.map((m) => ({ ...m, field: m.field === 'Trigger Properties' ? 'Canvas Entry Properties' : m.field })),
			),
			setting(
				'properties',
				'entry properties over 50 KB',
				'Canvas Entry Properties',
				fc.integer({ min: 51_000, max: 60_000 }).map((size) => ({ blob: 'x'.repeat(size) })),
			),
		],
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'recipients'),
};

const EMAIL_MESSAGE = { email: { app_id: 'app', subject: 'Hello', body: '<p>Hi</p>' } };

const sendNow: BadInputCase = {
	name: 'Message: Send Now',
	nodeType: MESSAGE_NODE,
	parameters: {
		operation: 'sendNow',
		sendTo: 'users',
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
		messages: '={{ $json.messages }}',
	},
	seed: { profiles },
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
		MAX_ITEMS,
	),
	received: (answered) => bodyArrayLength(answered, 'external_user_ids'),
};

const sendTransactionalEmail: BadInputCase = {
	name: 'Message: Send Transactional Email',
	nodeType: MESSAGE_NODE,
	parameters: {
		operation: 'sendTransactionalEmail',
		campaignId: '={{ $json.campaign }}',
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
		externalSendId: '={{ $json.sendId }}',
		triggerPropertiesInput: 'json',
		triggerPropertiesJson: '={{ $json.properties }}',
	},
	seed: { profiles, campaigns: [{ id: 'receipt', kind: 'transactional' }] },
	numRuns: 12,
	items: batchOf(
		properties.map((props) => (index: number): IDataObject => ({
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
};

const SCHEDULES = 40;
const schedules = Array.from({ length: SCHEDULES }, (_, i) => ({
	canvas_id: 'onboarding',
	schedule_id: `s-${i}`,
	schedule: { time: '2026-12-01T09:00:00Z' },
}));
const scheduleItem = fc.constant((index: number): IDataObject => ({ id: `s-${index}`, time: '2026-12-02T10:00:00Z' }));
const badScheduleId = [
	setting('id', 'blank schedule ID', 'Schedule ID', blank),
	setting('id', 'schedule ID not text', 'Schedule ID', notText),
	duplicating('id', 'Schedule ID'),
];

const updateScheduledCanvas: BadInputCase = {
	name: 'Message: Update Scheduled Canvas',
	nodeType: MESSAGE_NODE,
	parameters: {
		operation: 'updateScheduledCanvas',
		canvasId: 'onboarding',
		scheduleId: '={{ $json.id }}',
		time: '={{ $json.time }}',
		triggerProperties: '={{ $json.properties }}',
	},
	seed: { canvases: [{ id: 'onboarding' }], canvasSchedules: schedules },
	numRuns: 12,
	items: batchOf(
		scheduleItem,
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
};

const deleteScheduledCanvas: BadInputCase = {
	name: 'Message: Delete Scheduled Canvas',
	nodeType: MESSAGE_NODE,
	parameters: { operation: 'deleteScheduledCanvas', canvasId: 'onboarding', scheduleId: '={{ $json.id }}' },
	seed: { canvases: [{ id: 'onboarding' }], canvasSchedules: schedules },
	numRuns: 12,
	items: batchOf(scheduleItem, badScheduleId, ONE_REQUEST_PER_ITEM),
	received: answeredCount,
};

export const MESSAGE_CASES: BadInputCase[] = [
	triggerCampaign,
	triggerCanvas,
	sendNow,
	sendTransactionalEmail,
	updateScheduledCanvas,
	deleteScheduledCanvas,
];
