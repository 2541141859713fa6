import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';
import { applyAttributeUpdate } from '../track/attributes';
import { accept, refuse, type Checked } from '../track/checked';
import type { TransactionalRequest } from './readTransactionalRequest';

/**
 * The one user of a transactional send, attributes applied (synchronously, so first_name, last_name
 * and email are there for templating). Spec: an unknown external ID with any attributes creates that
 * profile. Not shown: an unknown user otherwise; refused with 400 (a 1:1 alert to nobody is a caller
 * mistake worth hearing about). Alias-only profiles are not created this way (the spec names external IDs).
 */
export function resolveTransactionalRecipient(
	state: PlatformState,
	recipient: TransactionalRequest['recipient'],
	now: Date,
): Checked<Profile> {
	const { identity } = recipient;
	let profile =
		identity.kind === 'external_user_id'
			? state.profiles.byExternalId(identity.externalId)
			: state.profiles.byAlias(identity.alias);
	if (!profile) {
		if (identity.kind === 'user_alias') {
			return refuse(
				`Recipient does not exist: no user has user_alias (alias_label '${identity.alias.alias_label}', alias_name '${identity.alias.alias_name}')`,
			);
		}
		if (!recipient.hasAttributes) {
			return refuse(
				`Recipient does not exist: no user has external_user_id '${identity.externalId}'; send attributes to create the user`,
			);
		}
		profile = state.profiles.create({ external_id: identity.externalId }, now);
	}
	if (recipient.attributes) applyAttributeUpdate(state, profile, recipient.attributes, now);
	return accept(profile);
}
