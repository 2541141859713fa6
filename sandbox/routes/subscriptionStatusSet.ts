import { badRequest } from '../badRequest';
import type { RouteDeclaration } from '../core/route';
import { applySubscriptionUpdate } from '../subscription/applySubscriptionUpdate';
import { readSubscriptionGroups } from '../subscription/readSubscriptionGroups';
import { unknownGroupProblem } from '../subscription/unknownGroup';

/**
 * POST /v2/subscription/status/set: group states for up to 50 users per call, all elements together.
 * Every element is checked before any is applied (its group too), so a refused request changes nothing.
 */
export const subscriptionStatusSet: RouteDeclaration = {
	method: 'POST',
	path: '/v2/subscription/status/set',
	auth: 'rest',
	permission: 'subscription.status.set',
	rateLimitGroup: 'subscription.status.set',
	handle({ body, state, now }) {
		const updates = readSubscriptionGroups(body);
		if (!updates.ok) return badRequest(updates.error);
		const groupIds = updates.value.map((update) => update.groupId);
		const unknownGroup = unknownGroupProblem(state, groupIds, 'subscription_groups');
		if (unknownGroup) return badRequest(unknownGroup);
		for (const update of updates.value) applySubscriptionUpdate(state, update, now);
		// The spec does not show this response body: `message: success` with 201, as Braze answers.
		return { status: 201, body: { message: 'success' } };
	},
};

/**
 * The earlier /subscription/status/set, sharing the v2 rate limit (spec: Versioning). The spec shows
 * only v2's request; the sandbox takes the same body for both.
 */
export const subscriptionStatusSetV1: RouteDeclaration = { ...subscriptionStatusSet, path: '/subscription/status/set' };
