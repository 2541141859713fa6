import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ItemInputError } from '../../shared/engine/itemInputError';
import type { OperationSpec, Piece } from '../../shared/engine/operation';
import { declareOperation } from '../../shared/engine/operation';
import { settleRemaining } from '../../shared/engine/outcomes';
import { refuseRepeatedKeys } from '../../shared/engine/repeatedKeys';
import { optionsCollection, requestOptionSettings } from '../../shared/fields/requestOptions';
import { parseOrThrow } from '../../shared/schemas/parse';
import { isoTime } from '../../shared/schemas/time';

/** Update and delete of a scheduled API-triggered canvas: one request per item. */

const updateShow = { operation: ['updateScheduledCanvas'] };
const deleteShow = { operation: ['deleteScheduledCanvas'] };
const both = { operation: ['updateScheduledCanvas', 'deleteScheduledCanvas'] };

export const updateOption: INodePropertyOptions = {
	name: 'Update Scheduled Canvas',
	value: 'updateScheduledCanvas',
	action: 'Update a scheduled canvas trigger',
	description: 'Replace the schedule of a scheduled API-triggered canvas',
};
export const deleteOption: INodePropertyOptions = {
	name: 'Delete Scheduled Canvas',
	value: 'deleteScheduledCanvas',
	action: 'Delete a scheduled canvas trigger',
	description: 'Cancel a scheduled API-triggered canvas before it is sent',
};

const idFields: INodeProperties[] = [
	{ displayName: 'Canvas ID', name: 'canvasId', type: 'string', default: '', required: true, displayOptions: { show: both } },
	{ displayName: 'Schedule ID', name: 'scheduleId', type: 'string', default: '', required: true, description: 'From the response that created the schedule', displayOptions: { show: both } },
];

export const updateDescription: INodeProperties[] = [
	...idFields,
	{
		displayName: 'Send Time',
		name: 'time',
		type: 'string',
		default: '',
		required: true,
		hint: 'ISO 8601, e.g. 2026-12-01T09:00:00Z (other datetimes are sent converted to it). The new schedule replaces the old one whole; changes near send time are best-effort.',
		displayOptions: { show: updateShow },
	},
	{
		displayName: 'In Local Time',
		name: 'inLocalTime',
		type: 'boolean',
		default: false,
		description: "Whether to deliver at that time in each user's time zone; off delivers at that time in UTC",
		displayOptions: { show: updateShow },
	},
	{ displayName: 'Trigger Properties (JSON)', name: 'triggerProperties', type: 'json', default: '{}', displayOptions: { show: updateShow } },
	optionsCollection(updateShow),
];
export const deleteDescription: INodeProperties[] = [...idFields.map((field) => ({ ...field, displayOptions: { show: deleteShow } })), optionsCollection(deleteShow)];

function scheduleOperation(
	path: string,
	permission: string,
	readBody: (item: Parameters<OperationSpec['readItem']>[0]) => IDataObject,
	status: string,
	safeToResend: boolean,
): OperationSpec {
	return declareOperation<undefined, IDataObject>({
		endpoint: { method: 'POST', path, rateLimit: 'canvas.schedule', permission, credentialType: 'engagementPlatformApi' },
		// The body is one item's: one schedule per request.
		shape: { slots: { schedule: { form: 'fields', max: 1 } } },
		settings: requestOptionSettings,
		readItem(item) {
			const body = { canvas_id: item.string('canvasId', 'Canvas ID'), schedule_id: item.string('scheduleId', 'Schedule ID'), ...readBody(item) };
			const subject = { canvas_id: body.canvas_id, schedule_id: body.schedule_id };
			return [{ itemIndex: item.itemIndex, slot: 'schedule', group: undefined, payload: body, subject }];
		},
		checkAcrossItems: oneItemPerSchedule,
		isSafeToResend: () => safeToResend,
		readResponse: (_, request) => settleRemaining(request, { ok: true }),
		itemResult: (_, [{ piece }]) => [{ status, ...piece.subject }],
	});
}

export const updateOperation = scheduleOperation(
	'/canvas/trigger/schedule/update',
	'canvas.trigger.schedule.update',
	(item) => {
		const body: IDataObject = { schedule: { time: parseOrThrow(isoTime, item.raw('time'), 'Send Time'), in_local_time: item.boolean('inLocalTime') } };
		const properties = item.jsonObject('triggerProperties', 'Trigger Properties');
		if (properties && Object.keys(properties).length > 0) body.trigger_properties = properties;
		return body;
	},
	'updated',
	// Setting the same schedule twice ends in the same place.
	true,
);
export const deleteOperation = scheduleOperation(
	'/canvas/trigger/schedule/delete',
	'canvas.trigger.schedule.delete',
	() => ({}),
	'deleted',
	// A resend after a lost answer would meet 404 for a schedule it did delete: reported as "may have been applied" instead.
	false,
);

/**
 * One schedule changed by two items of a run: two deletes meet 404 for the second, two updates
 * race and the later item could lose (each replaces the schedule whole).
 */
function oneItemPerSchedule(pieces: Array<Piece<undefined>>): Map<number, ItemInputError> {
	return refuseRepeatedKeys(
		pieces,
		(piece) => JSON.stringify([piece.payload.canvas_id, piece.payload.schedule_id]),
		(piece, first) => new ItemInputError('Schedule ID', `"${String(piece.payload.schedule_id)}" of this canvas is also given by item ${first}`, 'Merge the two items into one, or remove one.'),
	);
}
