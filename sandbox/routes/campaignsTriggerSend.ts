import { badRequest } from '../badRequest';
import type { RouteDeclaration } from '../core/route';
import { campaignProblem } from '../messaging/campaignAvailability';
import { messagingRateLimitName } from '../messaging/rateLimitGroup';
import { readTriggerSend } from '../messaging/readTriggerSend';
import { recordDispatch } from '../messaging/recordDispatch';
import { triggerTargets } from '../messaging/triggerTargets';
import { recipientGroupsProblem } from '../subscription/unknownGroup';

/**
 * POST /campaigns/trigger/send: an API-triggered campaign to the recipients (their attributes applied
 * first), or broadcast to everyone in the audience. One dispatch for the whole batch.
 */
export const campaignsTriggerSend: RouteDeclaration = {
	method: 'POST',
	path: '/campaigns/trigger/send',
	auth: 'rest',
	permission: 'campaigns.trigger.send',
	rateLimitGroup: messagingRateLimitName({ users: ['recipients'], audiences: ['audience'] }),
	handle({ body, state, now }) {
		const request = readTriggerSend(body, 'campaign');
		if (!request.ok) return badRequest(request.error);
		const unknownGroup = recipientGroupsProblem(
			state,
			(request.value.recipients ?? []).map((recipient) => recipient.attributes),
			(index) => `recipients[${index}].attributes`,
		);
		if (unknownGroup) return badRequest(unknownGroup);
		const campaignId = request.value.targetId;
		// Not shown: statuses of the campaign refusals. 400 with the spec's transactional wording.
		const problem = campaignProblem(state, campaignId, 'api_triggered');
		if (problem) return badRequest(problem);

		const dispatch = recordDispatch(
			state,
			{
				endpoint: '/campaigns/trigger/send',
				campaign_id: campaignId,
				send_id: request.value.sendId,
				broadcast: request.value.broadcast,
				attachments: request.value.attachments,
			},
			triggerTargets(state, request.value, now),
			now,
		);
		// Spec: bodies beyond dispatch_id not shown; `message: success` as Braze answers.
		return { status: 201, body: { dispatch_id: dispatch.dispatch_id, message: 'success' } };
	},
};
