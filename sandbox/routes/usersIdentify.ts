import { badRequest } from '../badRequest';
import type { RouteDeclaration } from '../core/route';
import { chooseByPrioritization } from '../identity/emailPrioritization';
import { identifyProfile } from '../identity/identifyProfile';
import { readIdentifyRequest } from '../identity/readIdentifyRequest';

/**
 * POST /users/identify: alias-only and email-only profiles become (or merge into) identified ones,
 * in request order, aliases first.
 */
export const usersIdentify: RouteDeclaration = {
	method: 'POST',
	path: '/users/identify',
	auth: 'rest',
	permission: 'users.identify',
	rateLimitGroup: 'users.identify',
	handle({ body, state, now }) {
		const request = readIdentifyRequest(body);
		if (!request.ok) return badRequest(request.error);
		const { aliases, emails, mergeBehavior } = request.value;

		// `aliases_processed` counts the identifications applied. One that cannot apply is not an error
		// of the request (the spec shows no per-object errors here), so it is simply not counted: an
		// alias no profile has, an alias on a profile that is already identified, an email whose
		// prioritization picks no single unidentified profile.
		let processed = 0;
		for (const { alias, externalId } of aliases) {
			const anonymous = state.profiles.byAlias(alias);
			if (!anonymous || anonymous.external_id !== undefined) continue;
			if (identifyProfile(state, { anonymous, externalId, mergeBehavior, carryEmail: false }, now)) processed++;
		}
		for (const { email, externalId, prioritization } of emails) {
			const anonymous = chooseByPrioritization(state.profiles.allWithEmail(email), prioritization);
			if (!anonymous || anonymous.external_id !== undefined) continue;
			if (identifyProfile(state, { anonymous, externalId, mergeBehavior, carryEmail: true }, now)) processed++;
		}
		return { status: 201, body: { aliases_processed: processed, message: 'success' } };
	},
};
