import type { UserAlias } from '../adminApiTypes';
import { isE164Phone, isEmailAddress, isNonEmptyString, isPlainObject } from '../formats';
import type { PlatformState } from '../state/platformState';
import type { NewProfile, Profile } from '../state/profileStore';
import { BLOCKED_EXTERNAL_ID_MESSAGE, isBlockedExternalId } from './blockedExternalIds';
import { accept, refuse, type Checked, type InputArray } from './checked';

export type Identifier =
	| { kind: 'external_id'; externalId: string }
	| { kind: 'user_alias'; alias: UserAlias }
	| { kind: 'service_id'; serviceId: string }
	| { kind: 'email'; email: string }
	| { kind: 'phone'; phone: string };

type IdentifierKey = Identifier['kind'];

const ALL: readonly IdentifierKey[] = ['external_id', 'user_alias', 'service_id', 'email', 'phone'];
// Spec: the identifiers each object is addressed by. Attribute objects "external_id / user_alias /
// email / phone"; event objects "one identifier of five"; purchase objects "external_id / user_alias /
// email". An identifier outside its object's list is refused, not ignored.
const ACCEPTED: Readonly<Record<InputArray, readonly IdentifierKey[]>> = {
	attributes: ['external_id', 'user_alias', 'email', 'phone'],
	events: ALL,
	purchases: ['external_id', 'user_alias', 'email'],
};
// On an attribute object these name the profile; email and phone beside one of them are attributes.
const ATTRIBUTE_PRIMARY: readonly IdentifierKey[] = ['external_id', 'user_alias'];
const OBJECT_NAMES: Readonly<Record<InputArray, string>> = {
	attributes: 'an attribute object',
	events: 'an event object',
	purchases: 'a purchase object',
};

function present(object: Record<string, unknown>, key: string): boolean {
	return object[key] !== undefined && object[key] !== null;
}

function orList(keys: readonly string[]): string {
	return `${keys.slice(0, -1).join(', ')} or ${keys[keys.length - 1]}`;
}

/**
 * The one identifier of an object. Events and purchases carry exactly one of theirs. On an attribute
 * object, `email` and `phone` next to external_id or user_alias are attributes to set, not identifiers;
 * with neither of those, email identifies the profile (and a phone beside it is set), else phone.
 */
export function readIdentifier(object: Record<string, unknown>, input: InputArray): Checked<Identifier> {
	const accepted = ACCEPTED[input];
	// Even null: on an attribute object it would otherwise read as a custom attribute to unset.
	const outside = ALL.find((key) => object[key] !== undefined && !accepted.includes(key));
	if (outside !== undefined)
		return refuse(`${outside} cannot identify the user of ${OBJECT_NAMES[input]}; use ${orList(accepted)}`);
	let key: IdentifierKey | undefined;
	if (input !== 'attributes') {
		const given = accepted.filter((candidate) => present(object, candidate));
		if (given.length > 1) return refuse(`exactly one identifier is allowed, got ${given.join(' and ')}`);
		key = given[0];
	} else {
		const primaries = ATTRIBUTE_PRIMARY.filter((candidate) => present(object, candidate));
		if (primaries.length > 1)
			return refuse(
				`only one of ${ATTRIBUTE_PRIMARY.join(', ')} may identify the profile, got ${primaries.join(' and ')}`,
			);
		key = primaries[0] ?? (present(object, 'email') ? 'email' : present(object, 'phone') ? 'phone' : undefined);
	}
	const value = key === undefined ? undefined : object[key];
	switch (key) {
		case undefined:
			return refuse(`one identifier is required: ${orList(accepted)}`);
		case 'external_id':
			if (!isNonEmptyString(value)) return refuse('external_id must be a non-empty string');
			if (isBlockedExternalId(value)) return refuse(BLOCKED_EXTERNAL_ID_MESSAGE);
			return accept({ kind: 'external_id', externalId: value });
		case 'user_alias':
			if (!isPlainObject(value) || !isNonEmptyString(value.alias_name) || !isNonEmptyString(value.alias_label)) {
				return refuse('user_alias must be an object with non-empty strings alias_name and alias_label');
			}
			return accept({ kind: 'user_alias', alias: { alias_name: value.alias_name, alias_label: value.alias_label } });
		case 'service_id':
			if (!isNonEmptyString(value)) return refuse('service_id must be a non-empty string');
			return accept({ kind: 'service_id', serviceId: value });
		case 'email':
			if (!isEmailAddress(value)) return refuse(`email ${JSON.stringify(value)} is not a valid email address`);
			return accept({ kind: 'email', email: value });
		case 'phone':
			if (!isE164Phone(value)) {
				return refuse(
					`phone ${JSON.stringify(value)} is not a valid E.164 phone number (e.g. +14155552671); phone addressing needs a valid number`,
				);
			}
			return accept({ kind: 'phone', phone: value });
	}
}

export function readUpdateExistingOnly(object: Record<string, unknown>): Checked<boolean | undefined> {
	const value = object._update_existing_only;
	if (value === undefined || typeof value === 'boolean') return accept(value);
	return refuse('_update_existing_only must be a boolean');
}

/**
 * Whether an object may create the profile it names when none exists (spec: Transitions and the
 * `_update_existing_only` notes). Service IDs are the platform's own, so they never create one. Phone
 * is not in the spec's table; like email, it creates a phone-only profile (Braze does).
 */
function mayCreateProfile(input: InputArray, identifier: Identifier, updateExistingOnly: boolean | undefined): boolean {
	switch (identifier.kind) {
		case 'service_id':
			return false;
		case 'user_alias':
			// Only an attribute object with an explicit `false` creates an alias-only profile; with events
			// (and purchases, by the same reading) update-only mode is always on for aliases.
			return input === 'attributes' && updateExistingOnly === false;
		default:
			return updateExistingOnly !== true;
	}
}

function findProfile(state: PlatformState, identifier: Identifier): Profile | undefined {
	const profiles = state.profiles;
	switch (identifier.kind) {
		case 'external_id':
			return profiles.byExternalId(identifier.externalId);
		case 'user_alias':
			return profiles.byAlias(identifier.alias);
		case 'service_id':
			return profiles.byServiceId(identifier.serviceId);
		case 'email':
			return profiles.byEmail(identifier.email);
		case 'phone':
			return profiles.byPhone(identifier.phone);
	}
}

/**
 * The profile an object updates, created when allowed. When it may not be created and does not exist,
 * the object is refused with a non-fatal error (our choice: the spec does not say), so the caller
 * learns that nothing was recorded.
 */
export function resolveProfile(
	state: PlatformState,
	input: InputArray,
	identifier: Identifier,
	updateExistingOnly: boolean | undefined,
	now: Date,
): Checked<Profile> {
	const existing = findProfile(state, identifier);
	if (existing) return accept(existing);
	if (mayCreateProfile(input, identifier, updateExistingOnly)) {
		return accept(state.profiles.create(newProfileIdentity(identifier), now));
	}
	return refuse(notFoundMessage(input, identifier));
}

function newProfileIdentity(identifier: Identifier): NewProfile {
	switch (identifier.kind) {
		case 'external_id':
			return { external_id: identifier.externalId };
		case 'user_alias':
			return { user_alias: identifier.alias };
		case 'email':
			return { email: identifier.email };
		case 'phone':
			return { phone: identifier.phone };
		case 'service_id':
			throw new Error('service_id never creates a profile');
	}
}

function notFoundMessage(input: InputArray, identifier: Identifier): string {
	switch (identifier.kind) {
		case 'service_id':
			return `no profile has service_id '${identifier.serviceId}'`;
		case 'user_alias': {
			const alias = `user_alias (alias_label '${identifier.alias.alias_label}', alias_name '${identifier.alias.alias_name}')`;
			return input === 'attributes'
				? `no profile has ${alias}; set _update_existing_only to false to create an alias-only profile`
				: `no profile has ${alias}; ${input} with user_alias only update existing profiles`;
		}
		case 'external_id':
			return `no profile has external_id '${identifier.externalId}' and _update_existing_only is true`;
		case 'email':
			return `no profile has email '${identifier.email}' and _update_existing_only is true`;
		case 'phone':
			return `no profile has phone '${identifier.phone}' and _update_existing_only is true`;
	}
}
