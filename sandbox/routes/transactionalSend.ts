import { badRequest } from '../badRequest';
import type { RouteDeclaration } from '../core/route';
import { campaignProblem } from '../messaging/campaignAvailability';
import type { TransactionalSend } from '../state/transactionalSends';
import { findDuplicate, QUEUED_MESSAGE } from '../transactional/deduplication';
import { deliverTransactional } from '../transactional/deliverTransactional';
import { deliveryOutcome } from '../transactional/deliveryOutcome';
import {
	CAMPAIGN_ID_FORMAT_MESSAGE,
	isCampaignApiId,
	readTransactionalRequest,
} from '../transactional/readTransactionalRequest';
import { resolveTransactionalRecipient } from '../transactional/resolveTransactionalRecipient';
import { recipientGroupsProblem } from '../subscription/unknownGroup';

/**
 * POST /transactional/v1/campaigns/{campaign_id}/send: one email to one user, answered `queued`; its
 * status changes then play out in the background, each POSTed to the configured postback URL.
 * Every refusal is 400 with one of the spec's messages where it has one (401 and 403 come from auth).
 * Checked in this order: campaign_id format, the campaign, the body (its subscription groups too),
 * deduplication, the recipient.
 */
export const transactionalSend: RouteDeclaration = {
	method: 'POST',
	path: '/transactional/v1/campaigns/{campaign_id}/send',
	auth: 'rest',
	permission: 'transactional.send',
	// No 429 (rateLimits.ts): the spec says this endpoint keeps accepting past its limit.
	rateLimitGroup: 'transactional',
	handle({ body, params, state, now, config, tasks, stillWorkingMs }) {
		const campaignId = params.campaign_id;
		if (!isCampaignApiId(campaignId)) return badRequest(CAMPAIGN_ID_FORMAT_MESSAGE);
		const problem = campaignProblem(state, campaignId, 'transactional');
		if (problem) return badRequest(problem);
		const request = readTransactionalRequest(body);
		if (!request.ok) return badRequest(request.error);
		const { attributes } = request.value.recipient;
		const unknownGroup = recipientGroupsProblem(state, [attributes], () => 'recipient.attributes');
		if (unknownGroup) return badRequest(unknownGroup);

		const { externalSendId } = request.value;
		const duplicate = findDuplicate(state, campaignId, externalSendId, now.getTime());
		if (duplicate?.kind === 'in-flight') return badRequest(QUEUED_MESSAGE);
		if (duplicate) return { status: 201, body: answer(duplicate.original) };

		const profile = resolveTransactionalRecipient(state, request.value.recipient, now);
		if (!profile.ok) return badRequest(profile.error);
		const send: TransactionalSend = {
			// Spec: a random unique ID of this send. The sandbox's 24-hex IDs, unique within a run.
			dispatch_id: state.ids.next(now),
			campaign_id: campaignId,
			...(externalSendId === undefined ? {} : { external_send_id: externalSendId }),
			service_id: profile.value.service_id,
			statuses: ['queued'],
			acceptedAtMs: now.getTime(),
			answeredAtMs: now.getTime() + config.latencyMs + stillWorkingMs,
		};
		state.transactionalSends.add(send);
		deliverTransactional({ state, tasks, postbacks: config.postbacks }, send, deliveryOutcome(profile.value));
		return { status: 201, body: answer(send) };
	},
};

/**
 * `status` is the send's current one: `queued` for a new send (not among the postback statuses; Braze
 * answers it), a repeat's further on. The spec calls `metadata` "extra send information" and does not
 * list it for this answer; our reading gives what the postbacks' metadata gives every send, the
 * external_send_id and campaign_api_id, and `received_at`, when the platform received the send (the
 * postbacks' first time), so that a repeat says when its email went.
 */
function answer(send: TransactionalSend): Record<string, unknown> {
	const metadata: Record<string, unknown> = {};
	if (send.external_send_id !== undefined) metadata.external_send_id = send.external_send_id;
	metadata.campaign_api_id = send.campaign_id;
	metadata.received_at = new Date(send.acceptedAtMs).toISOString();
	return { dispatch_id: send.dispatch_id, status: send.statuses[send.statuses.length - 1], metadata };
}
