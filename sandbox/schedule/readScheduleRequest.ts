import type { CanvasScheduleTime } from '../adminApiTypes';
import { unknownFieldsProblem } from '../badRequest';
import { isNonEmptyString, isPlainObject, isoDatetimeProblem } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';

export interface ScheduleTarget {
	canvasId: string;
	scheduleId: string;
}

export interface ScheduleUpdate extends ScheduleTarget {
	schedule: CanvasScheduleTime;
	triggerProperties?: Record<string, unknown>;
}

// Not shown: schedule fields other than time and in_local_time. Braze's schedule object also has
// at_optimal_time, so it is taken too; anything else is refused as a likely misspelling.
const SCHEDULE_FIELDS = ['time', 'in_local_time', 'at_optimal_time'];

/** The body of POST /canvas/trigger/schedule/delete. */
export function readScheduleDelete(body: unknown): Checked<ScheduleTarget> {
	if (!isPlainObject(body)) return refuse('Request body must be a JSON object with canvas_id and schedule_id');
	const unknown = unknownFieldsProblem(body, ['canvas_id', 'schedule_id']);
	if (unknown) return refuse(unknown);
	return readTarget(body);
}

/** The body of POST /canvas/trigger/schedule/update. The schedule read here replaces the stored one whole. */
export function readScheduleUpdate(body: unknown): Checked<ScheduleUpdate> {
	if (!isPlainObject(body))
		return refuse('Request body must be a JSON object with canvas_id, schedule_id and schedule');
	const unknown = unknownFieldsProblem(body, ['canvas_id', 'schedule_id', 'schedule', 'trigger_properties']);
	if (unknown) return refuse(unknown);
	const target = readTarget(body);
	if (!target.ok) return target;

	const { schedule, trigger_properties: triggerProperties } = body;
	if (!isPlainObject(schedule)) return refuse('schedule is required: an object {time, in_local_time?}');
	const unknownInSchedule = unknownFieldsProblem(schedule, SCHEDULE_FIELDS);
	if (unknownInSchedule) return refuse(`schedule: ${unknownInSchedule}`);
	// Spec: "ISO 8601 datetime" (yyyy-MM-dd'T'HH:mm:ss:SSSZ is for events only). Updates near or after send
	// time are best-effort on the platform; a past time is not refused here.
	const timeProblem = isoDatetimeProblem('schedule.time', schedule.time);
	if (timeProblem) return refuse(timeProblem);
	for (const flag of ['in_local_time', 'at_optimal_time']) {
		if (schedule[flag] !== undefined && typeof schedule[flag] !== 'boolean')
			return refuse(`schedule.${flag} must be a boolean`);
	}
	// Spec: the new schedule fully replaces the old one; omitting in_local_time means UTC.
	const replacement: CanvasScheduleTime = {
		time: schedule.time as string,
		in_local_time: schedule.in_local_time === true,
	};
	if (schedule.at_optimal_time !== undefined) replacement.at_optimal_time = schedule.at_optimal_time as boolean;

	if (triggerProperties !== undefined && !isPlainObject(triggerProperties))
		return refuse('trigger_properties must be an object of key-value pairs');
	return accept({ ...target.value, schedule: replacement, triggerProperties });
}

function readTarget(body: Record<string, unknown>): Checked<ScheduleTarget> {
	if (!isNonEmptyString(body.canvas_id)) return refuse('canvas_id is required: a non-empty string');
	if (!isNonEmptyString(body.schedule_id))
		return refuse('schedule_id is required: a non-empty string (from the create-schedule response)');
	return accept({ canvasId: body.canvas_id, scheduleId: body.schedule_id });
}
