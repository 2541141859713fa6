import { chooseByPrioritization } from '../identity/emailPrioritization';
import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';
import { applyAttributeUpdate } from '../track/attributes';
import type { TriggerRecipient } from './readTriggerRecipients';

export interface ResolvedRecipient {
	profile: Profile;
	/** The recipient's own trigger_properties / canvas_entry_properties. */
	properties?: Record<string, unknown>;
}

/**
 * The profiles the recipients name, with their `attributes` applied first (spec: processed before the
 * message is sent; existing values overwritten). Call only once the whole request is valid.
 * - Unknown user with send_to_existing_only true (the default), or an unknown alias: skipped, the
 *   request still succeeds (not shown; Braze sends to the users it finds and answers success).
 * - Unknown external_user_id or email with send_to_existing_only false: created with the attributes.
 * - An email whose prioritization leaves no single profile: skipped (as in /users/identify).
 * - A profile named twice receives the message once (the first recipient object's properties).
 */
export function resolveTriggerRecipients(
	state: PlatformState,
	recipients: readonly TriggerRecipient[],
	now: Date,
): ResolvedRecipient[] {
	const resolved: ResolvedRecipient[] = [];
	const seen = new Set<string>();
	for (const recipient of recipients) {
		const profile = findOrCreate(state, recipient, now);
		if (!profile) continue;
		if (recipient.attributes) applyAttributeUpdate(state, profile, recipient.attributes, now);
		if (seen.has(profile.service_id)) continue;
		seen.add(profile.service_id);
		resolved.push({ profile, properties: recipient.properties });
	}
	return resolved;
}

function findOrCreate(state: PlatformState, recipient: TriggerRecipient, now: Date): Profile | undefined {
	const { identity } = recipient;
	switch (identity.kind) {
		case 'user_alias':
			return state.profiles.byAlias(identity.alias);
		case 'external_user_id':
			return (
				state.profiles.byExternalId(identity.externalId) ??
				(recipient.sendToExistingOnly ? undefined : state.profiles.create({ external_id: identity.externalId }, now))
			);
		case 'email': {
			const sharing = state.profiles.allWithEmail(identity.email);
			if (sharing.length > 0) return chooseByPrioritization(sharing, identity.prioritization);
			return recipient.sendToExistingOnly ? undefined : state.profiles.create({ email: identity.email }, now);
		}
	}
}
