import type { INodeProperties } from 'n8n-workflow';
import { additionalFieldsCollection } from '../../shared/fields/bodyFields';

/** Fields the event and purchase operations share. */

/**
 * When the event or purchase happened. Version 1 started it at {{ $now.toISO() }}, to which a field
 * dragged in is appended; version 2 starts it empty, and empty is the time the workflow runs.
 */
export const timeField = (): { version1: INodeProperties; fromVersion2: INodeProperties } => ({
	version1: {
		displayName: 'Time',
		name: 'time',
		type: 'string',
		default: '={{ $now.toISO() }}',
		required: true,
		hint: "ISO 8601, e.g. 2026-11-22T10:15:00Z (or yyyy-MM-dd'T'HH:mm:ss:SSSZ)",
	},
	fromVersion2: {
		displayName: 'Time',
		name: 'time',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026-11-22T10:15:00Z',
		hint: "A date and time, e.g. 2026-11-22 10:15, 2026-11-22 or 2026-11-22T10:15:00Z (or yyyy-MM-dd'T'HH:mm:ss:SSSZ); without a zone, the workflow's timezone (Workflow Settings → Timezone). Empty: when the workflow runs.",
	},
});

export const updateExistingOnlyField = (description: string): INodeProperties => ({
	displayName: 'Update Existing Only',
	name: '_update_existing_only',
	type: 'boolean',
	default: true,
	description,
});

/** "Additional Fields" of an event or purchase: its app and whether it may create a profile. */
export const occurrenceAdditionalFields = (noun: string): INodeProperties =>
	additionalFieldsCollection([
		{ displayName: 'App ID', name: 'app_id', type: 'string', default: '' },
		updateExistingOnlyField(
			`Whether to record the ${noun} only for profiles that exist already. When not added, an unknown external ID gets a new profile. A user alias never gets one this way.`,
		),
	]);
