import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { parseOrThrow } from '../../shared/schemas/parse';
import { isoTime } from '../../shared/schemas/time';
import { canvasScheduleOperation, scheduleIdFields } from '../shared/canvasScheduleOperation';

export const option: INodePropertyOptions = {
	name: 'Update Scheduled Canvas',
	value: 'updateScheduledCanvas',
	action: 'Update a scheduled canvas trigger',
	description: 'Replace the schedule of a scheduled API-triggered canvas',
};

export const description: INodeProperties[] = [
	...scheduleIdFields(),
	{
		displayName: 'Send Time',
		name: 'time',
		type: 'string',
		default: '',
		required: true,
		hint: 'ISO 8601, e.g. 2026-12-01T09:00:00Z (other datetimes are sent converted to it). The new schedule replaces the old one whole; changes near send time are best-effort.',
	},
	{
		displayName: 'In Local Time',
		name: 'inLocalTime',
		type: 'boolean',
		default: false,
		description: "Whether to deliver at that time in each user's time zone; off delivers at that time in UTC",
	},
	{
		displayName: 'Trigger Properties (JSON)',
		name: 'triggerProperties',
		type: 'json',
		default: '{}',
	},
];

export const operation = canvasScheduleOperation(
	'/canvas/trigger/schedule/update',
	'canvas.trigger.schedule.update',
	(item) => {
		const inLocalTime = item.boolean('inLocalTime');
		// In Local Time: a zoneless time is each user's own, so it is sent as written.
		const time = inLocalTime ? item.raw('time') : item.time('time');
		const body: IDataObject = {
			schedule: { time: parseOrThrow(isoTime, time, 'Send Time'), in_local_time: inLocalTime },
		};
		const properties = item.jsonObject('triggerProperties');
		if (properties && Object.keys(properties).length > 0) body.trigger_properties = properties;
		return body;
	},
	'updated',
	// Setting the same schedule twice ends in the same place.
	true,
);
