import { isPlainObject } from '../formats';
import type { PlatformState } from '../state/platformState';
import { applyAttributeUpdate, readAttributeObject } from './attributes';
import type { InputArray } from './checked';
import { readEventObject, recordEvent } from './events';
import { resolveProfile } from './identifiers';
import { readPurchaseObject, recordPurchase } from './purchases';
import { unknownGroupProblem } from '../subscription/unknownGroup';

/**
 * Validates one element of a /users/track array and, when valid, applies it. Returns the non-fatal
 * error message when the object is refused; a refused object changes nothing (not even creating a profile).
 */
export function processTrackObject(
	state: PlatformState,
	input: InputArray,
	object: unknown,
	now: Date,
): string | undefined {
	if (!isPlainObject(object)) return `each element of ${input} must be an object`;
	switch (input) {
		case 'attributes': {
			const update = readAttributeObject(object);
			if (!update.ok) return update.error;
			const groupIds = update.value.subscriptionGroups.map((group) => group.groupId);
			const unknownGroup = unknownGroupProblem(state, groupIds, 'subscription_groups');
			if (unknownGroup) return unknownGroup;
			const profile = resolveProfile(state, input, update.value.identifier, update.value.updateExistingOnly, now);
			if (!profile.ok) return profile.error;
			applyAttributeUpdate(state, profile.value, update.value, now);
			return undefined;
		}
		case 'events': {
			const event = readEventObject(object);
			if (!event.ok) return event.error;
			const profile = resolveProfile(state, input, event.value.identifier, event.value.updateExistingOnly, now);
			if (!profile.ok) return profile.error;
			recordEvent(state, profile.value, event.value, now);
			return undefined;
		}
		case 'purchases': {
			const purchase = readPurchaseObject(object);
			if (!purchase.ok) return purchase.error;
			const profile = resolveProfile(state, input, purchase.value.identifier, purchase.value.updateExistingOnly, now);
			if (!profile.ok) return profile.error;
			recordPurchase(state, profile.value, purchase.value, now);
			return undefined;
		}
	}
}
