import type { INodeProperties } from 'n8n-workflow';

/** Fields the event and purchase operations share. */

export const timeField = (): INodeProperties => ({
	displayName: 'Time',
	name: 'time',
	type: 'string',
	default: '={{ $now.toISO() }}',
	required: true,
	hint: "ISO 8601, e.g. 2026-11-22T10:15:00Z (or yyyy-MM-dd'T'HH:mm:ss:SSSZ)",
});

export const updateExistingOnlyField = (description: string): INodeProperties => ({
	displayName: 'Update Existing Only',
	name: '_update_existing_only',
	type: 'boolean',
	default: false,
	description,
});

/** "Additional Fields" of an event or purchase: its app and whether it may create a profile. */
export const occurrenceAdditionalFields = (noun: string): INodeProperties => ({
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [
		{ displayName: 'App ID', name: 'app_id', type: 'string', default: '' },
		updateExistingOnlyField(
			`Whether to record the ${noun} only for profiles that exist already. When not added, an unknown external ID gets a new profile. A user alias never gets one this way.`,
		),
	],
});
