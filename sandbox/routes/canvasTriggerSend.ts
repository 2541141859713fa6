import { badRequest } from '../badRequest';
import type { RouteDeclaration } from '../core/route';
import { CANVAS_DOES_NOT_EXIST, canvasNotice } from '../messaging/canvasAvailability';
import { messagingRateLimitName } from '../messaging/rateLimitGroup';
import { readTriggerSend } from '../messaging/readTriggerSend';
import { recordDispatch } from '../messaging/recordDispatch';
import { triggerTargets } from '../messaging/triggerTargets';

/**
 * POST /canvas/trigger/send: users enter an API-triggered canvas. A paused, archived or stopped canvas
 * answers 201 with a `notice` and sends nothing.
 */
export const canvasTriggerSend: RouteDeclaration = {
	method: 'POST',
	path: '/canvas/trigger/send',
	auth: 'rest',
	permission: 'canvas.trigger.send',
	rateLimitGroup: messagingRateLimitName({ users: ['recipients'], audiences: ['audience'] }),
	handle({ body, state, now }) {
		const request = readTriggerSend(body, 'canvas');
		if (!request.ok) return badRequest(request.error);
		const { targetId: canvasId, broadcast } = request.value;
		const canvas = state.canvases.get(canvasId);
		// Not shown: an unknown canvas. 400, like an unknown campaign.
		if (!canvas) return badRequest(CANVAS_DOES_NOT_EXIST);

		const notice = canvasNotice(canvas.state);
		if (notice) {
			// Nothing is sent, so nothing is processed either: recipients' attributes are not applied
			// (our reading: they are applied "before the canvas is sent", and it is not sent).
			const dispatch = recordDispatch(
				state,
				{ endpoint: '/canvas/trigger/send', canvas_id: canvasId, broadcast, notice },
				[],
				now,
			);
			return { status: 201, body: { dispatch_id: dispatch.dispatch_id, message: 'success', notice } };
		}

		const dispatch = recordDispatch(
			state,
			{ endpoint: '/canvas/trigger/send', canvas_id: canvasId, broadcast },
			triggerTargets(state, request.value, now),
			now,
		);
		return { status: 201, body: { dispatch_id: dispatch.dispatch_id, message: 'success' } };
	},
};
