import { badRequest } from '../badRequest';
import type { RouteDeclaration } from '../core/route';
import { findSchedule } from '../schedule/findSchedule';
import { readScheduleDelete } from '../schedule/readScheduleRequest';

/** POST /canvas/trigger/schedule/delete: cancels a scheduled API-triggered canvas send. */
export const canvasTriggerScheduleDelete: RouteDeclaration = {
	method: 'POST',
	path: '/canvas/trigger/schedule/delete',
	auth: 'rest',
	permission: 'canvas.trigger.schedule.delete',
	rateLimitGroup: 'canvas.trigger.schedule',
	handle({ body, state }) {
		const target = readScheduleDelete(body);
		if (!target.ok) return badRequest(target.error);
		const found = findSchedule(state, target.value);
		if ('notFound' in found) return found.notFound;
		state.canvasSchedules.delete(found.schedule.schedule_id);
		// Not shown: the response body. `message: success` with 201, as Braze answers.
		return { status: 201, body: { message: 'success' } };
	},
};
