/** What the Message node's rows (test/conservation/messageCases.ts) build their bad input from: valid items and the ways to break them. */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { Mutation } from './badInputBatch';
import { duplicating, removing, setting } from './badInputBatch';
import { blank, notText, unicodeText } from './badValues';

/** Items per batch of an operation sending one request per item. */
export const ONE_REQUEST_PER_ITEM = 30;

export const triggerProperties = fc.dictionary(
	fc.stringMatching(/^[a-z][a-z_]{0,9}$/),
	fc.oneof(fc.integer(), fc.boolean(), unicodeText),
	{ maxKeys: 3 },
);
/** A recipient known by external ID, with trigger properties. */
export const validRecipient = triggerProperties.map((props) => (index: number): IDataObject => ({
	id: `crm-${index}`,
	properties: props,
}));

export const badRecipient: Array<fc.Arbitrary<Mutation>> = [
	removing('id', 'missing recipient', 'External ID'),
	setting('id', 'blank recipient', 'External ID', blank),
	setting('id', 'recipient not text', 'External ID', notText),
	setting('properties', 'properties not an object', 'Trigger Properties', fc.constantFrom<unknown>('{a:', [1, 2], 3)),
];

/** A recipient per item, by its `id`, with its `properties`. */
export const recipientPerItem = {
	sendTo: 'recipients',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	recipientPropertiesInput: 'json',
	recipientPropertiesJson: '={{ $json.properties }}',
};

export const EMAIL_MESSAGE = { email: { app_id: 'app', subject: 'Hello', body: '<p>Hi</p>' } };

const SCHEDULES = 40;
export const schedules = Array.from({ length: SCHEDULES }, (_, i) => ({
	canvas_id: 'onboarding',
	schedule_id: `s-${i}`,
	schedule: { time: '2026-12-01T09:00:00Z' },
}));
export const validSchedule = fc.constant((index: number): IDataObject => ({
	id: `s-${index}`,
	time: '2026-12-02T10:00:00Z',
}));
export const badScheduleId = [
	setting('id', 'blank schedule ID', 'Schedule ID', blank),
	setting('id', 'schedule ID not text', 'Schedule ID', notText),
	duplicating('id', 'Schedule ID'),
];
