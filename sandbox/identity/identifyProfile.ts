import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';
import { isBlockedExternalId } from '../track/blockedExternalIds';
import { mergeProfileData } from './mergeProfileData';
import type { MergeBehavior } from './readIdentifyRequest';

export interface Identification {
	/** An unidentified (alias-only or email-only) profile. */
	anonymous: Profile;
	externalId: string;
	mergeBehavior: MergeBehavior;
	/** Email identification: the email goes with the profile it names (see below). */
	carryEmail: boolean;
}

/**
 * The spec's /users/identify transition. Returns whether it was applied (counted in aliases_processed).
 * - No profile has the external ID: the anonymous profile takes it and becomes identified.
 * - One has: the anonymous profile is removed and its aliases are attached to the identified profile;
 *   with `merge` its listed data is merged, with `none` its attributes, events and purchases are
 *   orphaned (they stay in the store under the removed profile's service_id).
 */
export function identifyProfile(state: PlatformState, identification: Identification, now: Date): boolean {
	const { anonymous, externalId, mergeBehavior, carryEmail } = identification;
	// Not in the spec for identify; /users/track refuses such IDs, so identify does not apply them either.
	if (isBlockedExternalId(externalId)) return false;
	const identified = state.profiles.byExternalId(externalId);
	if (!identified) {
		state.profiles.setExternalId(anonymous, externalId);
		state.profiles.touch(anonymous, now);
		return true;
	}
	// Braze: a user has one alias per label; when the identified profile already has an alias with the
	// label of one of the anonymous profile's aliases, the profiles are not combined.
	const labels = new Set(identified.user_aliases.map((alias) => alias.alias_label));
	if (anonymous.user_aliases.some((alias) => labels.has(alias.alias_label))) return false;

	state.profiles.remove(anonymous);
	// Subscription group states are not in the spec's merge list; they go with the removed profile.
	state.subscriptionGroups.forget(anonymous.service_id);
	if (mergeBehavior === 'merge') mergeProfileData(state, anonymous, identified);
	for (const alias of anonymous.user_aliases) state.profiles.addAlias(identified, alias);
	// Our choice (not shown): an email identification says "this email is this user's", so, like the
	// alias of an alias identification, the email (and its email_subscribe) is kept on the identified
	// profile when that profile has none, whatever the merge behaviour.
	if (carryEmail && anonymous.email !== undefined && identified.email === undefined) {
		state.profiles.setEmail(identified, anonymous.email);
		if (anonymous.email_subscribe !== undefined && identified.email_subscribe === undefined) {
			identified.email_subscribe = anonymous.email_subscribe;
		}
	}
	state.profiles.touch(identified, now);
	return true;
}
