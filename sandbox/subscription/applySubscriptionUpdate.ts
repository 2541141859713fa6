import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';
import type { SubscriptionUpdate } from './readSubscriptionGroups';

/** Sets one group's state for the users an element names; the route has checked that the group exists. */
export function applySubscriptionUpdate(state: PlatformState, update: SubscriptionUpdate, now: Date): void {
	for (const value of update.targets.values) {
		for (const profile of targetsOf(state, update.targets.kind, value, now)) {
			state.subscriptionGroups.set(update.groupId, profile.service_id, update.state);
			state.profiles.touch(profile, now);
		}
	}
}

function targetsOf(
	state: PlatformState,
	kind: SubscriptionUpdate['targets']['kind'],
	value: string,
	now: Date,
): Profile[] {
	switch (kind) {
		case 'external_ids': {
			// Not shown: an external ID nobody has is ignored (no profile is created and the request still
			// succeeds), as Braze does. A deprecated ID finds its user, as everywhere.
			const profile = state.profiles.byExternalId(value);
			return profile ? [profile] : [];
		}
		case 'emails': {
			// Spec: every user sharing the email is updated (compared case-insensitively). Not shown when
			// nobody has it: like Braze, an email-only profile is created with that state.
			const sharing = state.profiles.allWithEmail(value);
			return sharing.length > 0 ? sharing : [state.profiles.create({ email: value }, now)];
		}
		case 'phones': {
			// Likewise for phones: every profile with the number, else a new phone-only profile.
			const sharing = state.profiles.allWithPhone(value);
			return sharing.length > 0 ? sharing : [state.profiles.create({ phone: value }, now)];
		}
	}
}
