import { badRequest } from '../badRequest';
import type { RouteDeclaration } from '../core/route';
import { CAMPAIGN_MESSAGES } from '../messaging/campaignAvailability';
import { messagesSendTargets } from '../messaging/messagesSendTargets';
import { messagingRateLimitName } from '../messaging/rateLimitGroup';
import { readMessagesSend } from '../messaging/readMessagesSend';
import { recordDispatch } from '../messaging/recordDispatch';

// Not shown: an unknown segment_id. Refused like an unknown campaign, rather than sending to nobody.
const SEGMENT_DOES_NOT_EXIST = 'Segment does not exist';

/** POST /messages/send: a message written in the request, sent now to users, a segment or an audience. */
export const messagesSend: RouteDeclaration = {
	method: 'POST',
	path: '/messages/send',
	auth: 'rest',
	permission: 'messages.send',
	rateLimitGroup: messagingRateLimitName({
		users: ['external_user_ids', 'user_aliases'],
		audiences: ['segment_id', 'audience'],
	}),
	handle({ body, state, now }) {
		const request = readMessagesSend(body);
		if (!request.ok) return badRequest(request.error);
		const { campaignId, segmentId } = request.value;
		// campaign_id only tracks statistics here: any existing campaign will do, whatever its state
		// (not shown; Braze asks for an "API campaign", which the sandbox does not tell apart).
		if (campaignId !== undefined && !state.campaigns.has(campaignId)) return badRequest(CAMPAIGN_MESSAGES.doesNotExist);
		if (segmentId !== undefined && !state.segments.has(segmentId)) return badRequest(SEGMENT_DOES_NOT_EXIST);

		const dispatch = recordDispatch(
			state,
			{
				endpoint: '/messages/send',
				campaign_id: campaignId,
				send_id: request.value.sendId,
				broadcast: request.value.broadcast,
				messages: request.value.messages,
			},
			messagesSendTargets(state, request.value, now).map((profile) => ({ profile })),
			now,
		);
		// Spec: the response carries dispatch_id; the rest is not shown. `message: success` as Braze answers.
		return { status: 201, body: { dispatch_id: dispatch.dispatch_id, message: 'success' } };
	},
};
