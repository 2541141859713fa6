import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { parseOrThrow } from '../../shared/schemas/parse';
import { jsonObject, time, wallTime, yesNo } from '../../shared/fields/inputs';
import { isoTime } from '../../shared/schemas/time';
import { canvasScheduleOperation, scheduleIdFields } from '../shared/canvasScheduleOperation';

export const option: INodePropertyOptions = {
	name: 'Update Scheduled Canvas',
	value: 'updateScheduledCanvas',
	action: 'Update a scheduled canvas trigger',
	description: 'Replace the schedule of a scheduled API-triggered canvas',
	builderHint: {
		propertyHint:
			'Pick to move or change a scheduled API-triggered canvas; the new schedule replaces the old one whole.',
	},
};

const sendTimeField: INodeProperties = {
	displayName: 'Send Time',
	name: 'time',
	type: 'string',
	default: '',
	required: true,
};

// Dates and times as sheets write them, saying where a time without a zone is.
const sendTime: INodeProperties = {
	...sendTimeField,
	hint: "A date and time, e.g. 2026-12-01 09:00 or 2026-12-01T09:00:00Z; without a zone, the workflow's timezone (Workflow Settings → Timezone), or each user's with In Local Time. The new schedule replaces the old one whole; changes near send time are best-effort.",
	builderHint: {
		propertyHint:
			"The new send time: ISO 8601 (2026-12-01T09:00:00Z), a date and time such as 2026-12-01 09:00, or a date alone. One without a zone is read in the workflow's timezone, or as each user's local time when In Local Time is on.",
	},
};
/** The send time read in the workflow's timezone when it has no zone (In Local Time off)... */
const SEND_TIME = time(sendTime);
/** ...or as each user's own time (In Local Time on): the same field, read another way. */
const SEND_WALL_TIME = wallTime(sendTime);

const IN_LOCAL_TIME = yesNo({
	displayName: 'In Local Time',
	name: 'inLocalTime',
	type: 'boolean',
	default: false,
	description: "Whether to deliver at that time in each user's time zone; off delivers at that time in UTC",
});

const TRIGGER_PROPERTIES = jsonObject({
	displayName: 'Trigger Properties (JSON)',
	name: 'triggerProperties',
	type: 'json',
	default: '{}',
	builderHint: {
		propertyHint:
			'Trigger properties for the scheduled canvas as one JSON object, usually mapped from the input item; an empty object sends none.',
	},
});

export const description: INodeProperties[] = [
	...scheduleIdFields(),
	...SEND_TIME.properties,
	...IN_LOCAL_TIME.properties,
	...TRIGGER_PROPERTIES.properties,
];

export const operation = canvasScheduleOperation(
	'/canvas/trigger/schedule/update',
	'canvas.trigger.schedule.update',
	(item) => {
		const inLocalTime = IN_LOCAL_TIME.read(item);
		// In Local Time: a zoneless time is each user's own, so no zone is added.
		const sent = inLocalTime ? SEND_WALL_TIME.read(item) : SEND_TIME.read(item);
		// A time refused (in no form it takes) is the item's problem already, named once.
		const body: IDataObject = {
			schedule: {
				time: parseOrThrow(isoTime, sent, SEND_TIME.label, {}, item.problems),
				in_local_time: inLocalTime,
			},
		};
		const properties = TRIGGER_PROPERTIES.read(item);
		if (properties && Object.keys(properties).length > 0) body.trigger_properties = properties;
		return body;
	},
	'updated',
	// Setting the same schedule twice ends in the same place.
	true,
);
