import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { canvasScheduleOperation, scheduleIdFields } from '../shared/canvasScheduleOperation';

export const option: INodePropertyOptions = {
	name: 'Delete Scheduled Canvas',
	value: 'deleteScheduledCanvas',
	action: 'Delete a scheduled canvas trigger',
	description: 'Cancel a scheduled API-triggered canvas before it is sent',
	builderHint: {
		propertyHint:
			'Pick to cancel a scheduled API-triggered canvas before it is sent; it needs the canvas ID and the schedule ID.',
	},
};

export const description: INodeProperties[] = [...scheduleIdFields()];

export const operation = canvasScheduleOperation(
	'/canvas/trigger/schedule/delete',
	'canvas.trigger.schedule.delete',
	() => ({}),
	'deleted',
	// A resend after a lost answer would meet 404 for a schedule it did delete: reported as "may have been applied" instead.
	false,
);
