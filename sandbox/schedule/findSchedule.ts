import type { CanvasScheduleView } from '../adminApiTypes';
import type { RouteResult } from '../core/route';
import type { PlatformState } from '../state/platformState';
import type { ScheduleTarget } from './readScheduleRequest';

/**
 * The stored schedule a request names, or the 404 to answer. Not shown: the body and status for an
 * unknown canvas or schedule. 404 with `message`, as the spec's catalog and translation endpoints use
 * 404 for a named thing that is not there; a schedule of another canvas counts as unknown.
 */
export function findSchedule(
	state: PlatformState,
	target: ScheduleTarget,
): { schedule: CanvasScheduleView } | { notFound: RouteResult } {
	if (!state.canvases.has(target.canvasId)) return notFound(`Canvas '${target.canvasId}' does not exist`);
	const schedule = state.canvasSchedules.get(target.scheduleId);
	if (!schedule || schedule.canvas_id !== target.canvasId) {
		return notFound(`Schedule '${target.scheduleId}' does not exist for canvas '${target.canvasId}'`);
	}
	return { schedule };
}

function notFound(message: string): { notFound: RouteResult } {
	return { notFound: { status: 404, body: { message } } };
}
