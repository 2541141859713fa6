import { isPlainObject } from '../formats';
import { readAttributes, type AttributeUpdate } from '../track/attributes';
import { accept, refuse, type Checked } from '../track/checked';
import type { Identifier } from '../track/identifiers';

// The recipient object names the user; the attributes object only describes them.
const IDENTIFIER_KEYS = ['external_id', 'user_alias', 'service_id', '_update_existing_only'];
// A placeholder, never looked up: not an external_id, so applyAttributeUpdate keeps subscription changes
// on the recipient's profile; not email or phone, so those keys are read as attributes.
const RECIPIENT: Identifier = { kind: 'service_id', serviceId: 'recipient' };

/**
 * The `attributes` of a recipient (triggered and transactional sends), read with /users/track's
 * attribute rules: built-in attributes checked, anything else a custom attribute, `email_subscribe`
 * and (where allowed) `subscription_groups`. They are applied to the recipient's profile only (the
 * /users/track rule that spreads subscription changes to users sharing an email is stated for that
 * endpoint alone).
 */
export function readRecipientAttributes(
	attributes: unknown,
	path: string,
	options: { subscriptionGroups: boolean },
): Checked<AttributeUpdate> {
	if (!isPlainObject(attributes)) return refuse(`${path} must be an object of attribute names to values`);
	const identifier = IDENTIFIER_KEYS.find((key) => key in attributes);
	if (identifier !== undefined)
		return refuse(`${path}.${identifier} is not allowed: the recipient object identifies the user`);
	if (!options.subscriptionGroups && 'subscription_groups' in attributes) {
		// Spec (canvas trigger): subscription groups cannot be updated through `attributes` by default.
		// Refused rather than dropped, so the caller learns nothing would change.
		return refuse(
			`${path}.subscription_groups is not allowed: subscription groups cannot be updated through canvas recipient attributes`,
		);
	}
	const update = readAttributes(attributes, RECIPIENT, undefined);
	if (!update.ok) return refuse(`${path}: ${update.error}`);
	return accept(update.value);
}
