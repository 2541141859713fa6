import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemInputError, OperationSpec, Piece } from '../../shared/engine';
import { answerRemaining, declareOperation, refuseRepeatedKeys } from '../../shared/engine';
import { requiredText } from '../../shared/fields/inputs';
import { canvasIdInput } from './canvasIdField';

/** What update and delete of a scheduled API-triggered canvas share: the schedule's IDs, one request per item. */

const CANVAS = canvasIdInput(
	'The API identifier of the canvas whose schedule this is. Never invent one: if the user has not given it, use a placeholder for them to fill in.',
);

const SCHEDULE = requiredText({
	displayName: 'Schedule ID',
	name: 'scheduleId',
	type: 'string',
	default: '',
	required: true,
	description: 'From the response that created the schedule',
	builderHint: {
		propertyHint:
			'The schedule_id the platform answered when the schedule was created (this node does not create schedules), mapped from where it was kept. Never invent one: if the user has not given it, use a placeholder for them to fill in.',
	},
});

export const scheduleIdFields = (): INodeProperties[] => [...CANVAS.properties, ...SCHEDULE.properties];

export function canvasScheduleOperation(
	path: string,
	permission: string,
	readBody: (item: Parameters<OperationSpec['readItem']>[0]) => IDataObject,
	status: string,
	safeToResend: boolean,
): OperationSpec {
	return declareOperation<undefined, IDataObject>({
		endpoint: {
			method: 'POST',
			path,
			rateLimit: 'canvas.schedule',
			permission,
			credentialType: 'engagementPlatformApi',
		},
		// The body is one item's: one schedule per request.
		shape: { slots: { schedule: { form: 'fields', max: 1 } } },
		readItem(item) {
			const body = {
				canvas_id: CANVAS.read(item),
				schedule_id: SCHEDULE.read(item),
				...readBody(item),
			};
			const subject = { canvas_id: body.canvas_id, schedule_id: body.schedule_id };
			return [{ itemIndex: item.itemIndex, slot: 'schedule', group: undefined, payload: body, subject }];
		},
		checkAcrossItems: oneItemPerSchedule,
		isSafeToResend: () => safeToResend,
		readResponse: (_, request) => answerRemaining(request, { ok: true }),
		successStatus: { word: status },
		itemResult: (_, [{ piece }]) => [{ status, ...piece.subject }],
	});
}

/**
 * One schedule changed by two items of a run: two deletes meet 404 for the second, two updates
 * race and the later item could lose (each replaces the schedule whole).
 */
function oneItemPerSchedule(pieces: Array<Piece<undefined>>): Map<number, ItemInputError> {
	return refuseRepeatedKeys(
		pieces,
		(piece) => JSON.stringify([piece.payload.canvas_id, piece.payload.schedule_id]),
		(piece, first) =>
			SCHEDULE.problem(
				`"${String(piece.payload.schedule_id)}" of this canvas is also given by row ${first + 1} (item ${first})`,
				'Merge the two items into one, or remove one.',
			),
	);
}
