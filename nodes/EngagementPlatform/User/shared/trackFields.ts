import type { INodeProperties } from 'n8n-workflow';
import { additionalFieldsCollection } from '../../shared/descriptions/additionalFields';

/** Fields the event and purchase operations share. */

/** When the event or purchase happened: empty is the time the workflow runs. */
export const timeField = (): INodeProperties => ({
	displayName: 'Time',
	name: 'time',
	type: 'string',
	default: '',
	placeholder: 'e.g. 2026-11-22T10:15:00Z',
	hint: "A date and time, e.g. 2026-11-22 10:15, 2026-11-22 or 2026-11-22T10:15:00Z (or yyyy-MM-dd'T'HH:mm:ss:SSSZ); without a zone, the workflow's timezone (Workflow Settings → Timezone). Empty: when the workflow runs.",
	builderHint: {
		propertyHint:
			"Leave empty for the time of the run, or map when it happened: ISO 8601 (2026-11-22T10:15:00Z), a date and time such as 2026-11-22 10:15, or a date alone; one without a zone is read in the workflow's timezone. Other forms, such as 03/05/2026, fail the item.",
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
