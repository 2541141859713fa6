import { badRequest } from '../badRequest';
import type { RouteDeclaration } from '../core/route';
import { findSchedule } from '../schedule/findSchedule';
import { readScheduleUpdate } from '../schedule/readScheduleRequest';

/** POST /canvas/trigger/schedule/update: the new schedule replaces the stored one whole. */
export const canvasTriggerScheduleUpdate: RouteDeclaration = {
	method: 'POST',
	path: '/canvas/trigger/schedule/update',
	auth: 'rest',
	permission: 'canvas.trigger.schedule.update',
	rateLimitGroup: 'canvas.trigger.schedule',
	handle({ body, state }) {
		const update = readScheduleUpdate(body);
		if (!update.ok) return badRequest(update.error);
		const found = findSchedule(state, update.value);
		if ('notFound' in found) return found.notFound;
		found.schedule.schedule = update.value.schedule;
		// trigger_properties belong to the scheduled send, not to the schedule object: omitted, they are
		// kept (our reading; the spec's "fully replaces" is about the schedule).
		if (update.value.triggerProperties !== undefined)
			found.schedule.trigger_properties = update.value.triggerProperties;
		// Not shown: the response body. `message: success` with 201, as Braze answers.
		return { status: 201, body: { message: 'success' } };
	},
};
