import { parseDatetime } from '../formats';
import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';

// The spec's list for merge_behavior `merge` that the sandbox stores: these built-in attributes are
// copied only when the identified profile has no value (Braze: on a conflict the identified profile's
// value is kept). Session count is not stored by the sandbox, so there is nothing to sum.
const FILLED_IF_MISSING = ['first_name', 'last_name', 'gender', 'dob', 'time_zone', 'home_city', 'country', 'language'];

/**
 * merge_behavior `merge`: the anonymous profile's listed fields go to the identified profile, and its
 * stored events and purchases are re-homed there, so export summaries add the counts and take the
 * earliest first and latest last. Everything else (email_subscribe, subscription groups, other
 * built-in attributes) is not in the spec's list and is not merged.
 */
export function mergeProfileData(state: PlatformState, anonymous: Profile, identified: Profile): void {
	const from = anonymous.standard_attributes;
	const to = identified.standard_attributes;
	for (const name of FILLED_IF_MISSING) {
		if (from[name] !== undefined && to[name] === undefined) to[name] = from[name];
	}
	if (anonymous.phone !== undefined && identified.phone === undefined)
		state.profiles.setPhone(identified, anonymous.phone);
	pickDatetime(from, to, 'date_of_first_session', (a, b) => a < b);
	pickDatetime(from, to, 'date_of_last_session', (a, b) => a > b);
	// Custom attributes the identified profile already has are kept; the others are added.
	for (const [name, value] of Object.entries(anonymous.custom_attributes)) {
		if (!(name in identified.custom_attributes)) identified.custom_attributes[name] = value;
	}
	for (const event of state.events)
		if (event.service_id === anonymous.service_id) event.service_id = identified.service_id;
	for (const purchase of state.purchases)
		if (purchase.service_id === anonymous.service_id) purchase.service_id = identified.service_id;
}

/** Sets `to[name]` to `from[name]` when `to` has none, or when `better(from, to)` by time. */
function pickDatetime(
	from: Record<string, unknown>,
	to: Record<string, unknown>,
	name: string,
	better: (a: number, b: number) => boolean,
): void {
	const candidate = from[name];
	if (typeof candidate !== 'string') return;
	const current = to[name];
	const candidateMs = parseDatetime(candidate);
	const currentMs = typeof current === 'string' ? parseDatetime(current) : undefined;
	if (currentMs === undefined || (candidateMs !== undefined && better(candidateMs, currentMs))) to[name] = candidate;
}
