import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';
import { matchesAudience } from './matchAudience';
import type { MessagesSendRequest, RecipientSubscriptionState } from './readMessagesSend';

/**
 * Who a /messages/send reaches: the named users (unknown external IDs and aliases are skipped and the
 * request still succeeds, as Braze does) or, for a broadcast, every profile; then only the segment's
 * members when a segment is given too (spec: users in both), those in the connected audience, and those
 * whose subscription state recipient_subscription_state lets through.
 */
export function messagesSendTargets(state: PlatformState, request: MessagesSendRequest, now: Date): Profile[] {
	let targets = request.broadcast ? [...state.profiles.all()] : namedUsers(state, request);
	if (request.segmentId !== undefined) {
		const members = segmentMembers(state, request.segmentId);
		targets = targets.filter((profile) => members.has(profile));
	}
	const { audience } = request;
	if (audience !== undefined) targets = targets.filter((profile) => matchesAudience(profile, audience, now));
	return targets.filter((profile) => letThrough(profile, request.recipientSubscriptionState));
}

function namedUsers(state: PlatformState, request: MessagesSendRequest): Profile[] {
	const found = [
		...request.externalUserIds.map((id) => state.profiles.byExternalId(id)),
		...request.userAliases.map((alias) => state.profiles.byAlias(alias)),
	];
	// A user named twice (say by external ID and by alias) receives the message once.
	return [...new Set(found.filter((profile): profile is Profile => profile !== undefined))];
}

function segmentMembers(state: PlatformState, segmentId: string): Set<Profile> {
	const ids = state.segments.get(segmentId)?.external_ids ?? [];
	return new Set(
		ids.map((id) => state.profiles.byExternalId(id)).filter((profile): profile is Profile => profile !== undefined),
	);
}

/**
 * The sandbox keeps one subscription state per user (email_subscribe), so it stands for every channel.
 * Never set counts as subscribed (Braze's default). opted_in: only opted-in users; subscribed (the
 * default): subscribed or opted in; all: everyone, unsubscribed users too.
 */
function letThrough(profile: Profile, wanted: RecipientSubscriptionState): boolean {
	const current = profile.email_subscribe ?? 'subscribed';
	if (wanted === 'all') return true;
	if (wanted === 'opted_in') return current === 'opted_in';
	return current !== 'unsubscribed';
}
