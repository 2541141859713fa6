import type { EmailSubscribeState, SubscriptionState } from '../adminApiTypes';
import { isNonEmptyString, isPlainObject, characters } from '../formats';
import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';
import { accept, refuse, type Checked } from './checked';
import { readIdentifier, readUpdateExistingOnly, type Identifier } from './identifiers';
import { propertyNameProblem } from './properties';
import { isSubscribeState, STANDARD_ATTRIBUTES } from './standardAttributes';

export interface AttributeUpdate {
	identifier: Identifier;
	updateExistingOnly: boolean | undefined;
	/** Built-in attributes to set; null unsets. Includes email and phone when they are not the identifier. */
	standard: Record<string, unknown>;
	/** Custom attributes to set; null unsets. */
	custom: Record<string, unknown>;
	emailSubscribe?: EmailSubscribeState;
	subscriptionGroups: Array<{ groupId: string; state: SubscriptionState }>;
}

const IDENTIFIER_KEYS = new Set(['external_id', 'user_alias']);
const MAX_CUSTOM_STRING_LENGTH = 255;

/** Reads one attribute object; nothing is changed until applyAttributeUpdate. */
export function readAttributeObject(object: Record<string, unknown>): Checked<AttributeUpdate> {
	const identifier = readIdentifier(object, 'attributes');
	if (!identifier.ok) return identifier;
	const updateExistingOnly = readUpdateExistingOnly(object);
	if (!updateExistingOnly.ok) return updateExistingOnly;
	return readAttributes(object, identifier.value, updateExistingOnly.value);
}

/**
 * The attributes an object sets for the user `identifier` names (also the `attributes` of a messaging
 * recipient, whose user the recipient object names). The identifier's own key is not an attribute.
 */
export function readAttributes(
	object: Record<string, unknown>,
	identifier: Identifier,
	updateExistingOnly: boolean | undefined,
): Checked<AttributeUpdate> {
	const update: AttributeUpdate = { identifier, updateExistingOnly, standard: {}, custom: {}, subscriptionGroups: [] };
	for (const [key, value] of Object.entries(object)) {
		if (IDENTIFIER_KEYS.has(key) || key === '_update_existing_only' || key === identifier.kind) continue;
		if (key === 'email_subscribe') {
			if (!isSubscribeState(value)) return refuse('email_subscribe must be one of opted_in, subscribed, unsubscribed');
			update.emailSubscribe = value as EmailSubscribeState;
		} else if (key === 'subscription_groups') {
			const groups = readSubscriptionGroups(value);
			if (!groups.ok) return groups;
			update.subscriptionGroups = groups.value;
		} else if (Object.hasOwn(STANDARD_ATTRIBUTES, key)) {
			const problem = value === null ? undefined : STANDARD_ATTRIBUTES[key](value);
			if (problem) return refuse(`${key} ${problem}`);
			update.standard[key] = value;
		} else {
			const problem = customAttributeProblem(key, value);
			if (problem) return refuse(problem);
			update.custom[key] = value;
		}
	}
	return accept(update);
}

function readSubscriptionGroups(value: unknown): Checked<AttributeUpdate['subscriptionGroups']> {
	if (!Array.isArray(value)) return refuse('subscription_groups must be an array');
	const groups: AttributeUpdate['subscriptionGroups'] = [];
	for (const [i, entry] of value.entries()) {
		if (!isPlainObject(entry) || !isNonEmptyString(entry.subscription_group_id)) {
			return refuse(`subscription_groups[${i}].subscription_group_id must be a non-empty string`);
		}
		if (entry.subscription_state !== 'subscribed' && entry.subscription_state !== 'unsubscribed') {
			return refuse(`subscription_groups[${i}].subscription_state must be subscribed or unsubscribed`);
		}
		groups.push({ groupId: entry.subscription_group_id, state: entry.subscription_state });
	}
	return accept(groups);
}

// The spec has seen strings, booleans, integers and arrays of strings. We also take floats, and null
// to unset. Strings (also inside arrays) longer than 255 characters are refused, not truncated. Nested
// objects and Braze's increment/add/remove operators are not in the spec, so they are refused.
function customAttributeProblem(name: string, value: unknown): string | undefined {
	const nameProblem = propertyNameProblem(name);
	if (nameProblem) return `custom attribute ${nameProblem}`;
	if (value === null || typeof value === 'boolean' || typeof value === 'number') return undefined;
	if (typeof value === 'string') {
		return characters(value) > MAX_CUSTOM_STRING_LENGTH
			? `custom attribute '${name}': strings may be at most ${MAX_CUSTOM_STRING_LENGTH} characters (got ${characters(value)})`
			: undefined;
	}
	if (Array.isArray(value)) {
		return value.every((item) => typeof item === 'string' && characters(item) <= MAX_CUSTOM_STRING_LENGTH)
			? undefined
			: `custom attribute '${name}': arrays must contain only strings of at most ${MAX_CUSTOM_STRING_LENGTH} characters`;
	}
	return `custom attribute '${name}': value must be a string, number, boolean, array of strings or null`;
}

export function applyAttributeUpdate(state: PlatformState, profile: Profile, update: AttributeUpdate, now: Date): void {
	for (const [name, value] of Object.entries(update.standard)) {
		if (name === 'email') state.profiles.setEmail(profile, value === null ? undefined : (value as string));
		else if (name === 'phone') state.profiles.setPhone(profile, value === null ? undefined : (value as string));
		else if (value === null) delete profile.standard_attributes[name];
		else profile.standard_attributes[name] = value;
	}
	for (const [name, value] of Object.entries(update.custom)) {
		if (value === null) delete profile.custom_attributes[name];
		else profile.custom_attributes[name] = Array.isArray(value) ? [...value] : value;
	}
	state.profiles.touch(profile, now);

	if (update.emailSubscribe === undefined && update.subscriptionGroups.length === 0) return;
	for (const target of subscriptionTargets(state, profile, update.identifier)) {
		if (update.emailSubscribe !== undefined) target.email_subscribe = update.emailSubscribe;
		for (const group of update.subscriptionGroups)
			state.subscriptionGroups.set(group.groupId, target.service_id, group.state);
		state.profiles.touch(target, now);
	}
}

/**
 * Spec: when subscription status is set for a user given by external_id, every user sharing that
 * user's email is updated too. We read "subscription status" as both email_subscribe and group states.
 */
function subscriptionTargets(state: PlatformState, profile: Profile, identifier: Identifier): Profile[] {
	if (identifier.kind !== 'external_id' || profile.email === undefined) return [profile];
	return state.profiles.allWithEmail(profile.email);
}
