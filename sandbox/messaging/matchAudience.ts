import { parseDatetime } from '../formats';
import type { Profile } from '../state/profileStore';
import type { AudienceNode } from './readAudience';

const DAY_MS = 24 * 60 * 60 * 1000;
// Not shown: a user with no recorded state. Braze treats new users as `subscribed` for email and push.
const DEFAULT_SUBSCRIPTION_STATE = 'subscribed';

/**
 * Whether a profile is in a connected audience, as far as the sandbox keeps the data:
 * - custom_attribute: equals / is (same value; arrays compared element by element), is_not (different or
 *   absent), includes_value (an array attribute holding the value), after / less_than_x_days_ago (a
 *   datetime attribute after the value / within that many days of now);
 * - email_subscription_status: the profile's email_subscribe; push_subscription_status: its
 *   push_subscribe standard attribute (both `subscribed` when never set);
 * - last_used_app: the date_of_last_session standard attribute (the sandbox has no SDK sessions); a
 *   profile without one never used the app, so it matches neither comparison.
 */
export function matchesAudience(profile: Profile, node: AudienceNode, now: Date): boolean {
	switch (node.kind) {
		case 'AND':
			return node.children.every((child) => matchesAudience(profile, child, now));
		case 'OR':
			return node.children.some((child) => matchesAudience(profile, child, now));
		case 'email_subscription_status':
			return ((profile.email_subscribe ?? DEFAULT_SUBSCRIPTION_STATE) === node.value) === (node.comparison === 'is');
		case 'push_subscription_status':
			return (
				((profile.standard_attributes.push_subscribe ?? DEFAULT_SUBSCRIPTION_STATE) === node.value) ===
				(node.comparison === 'is')
			);
		case 'last_used_app':
			return compareDatetime(profile.standard_attributes.date_of_last_session, node.comparison, node.value, now);
		case 'custom_attribute': {
			const attribute = profile.custom_attributes[node.name];
			switch (node.comparison) {
				case 'equals':
				case 'is':
					return attribute !== undefined && sameValue(attribute, node.value);
				case 'is_not':
					return attribute === undefined || !sameValue(attribute, node.value);
				case 'includes_value':
					return Array.isArray(attribute) && attribute.includes(node.value);
				case 'after':
				case 'less_than_x_days_ago':
					return compareDatetime(attribute, node.comparison, node.value as string | number, now);
			}
		}
	}
}

function sameValue(a: unknown, b: unknown): boolean {
	if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
	return a === b;
}

function compareDatetime(
	stored: unknown,
	comparison: 'after' | 'less_than_x_days_ago',
	value: string | number,
	now: Date,
): boolean {
	const at = typeof stored === 'string' ? parseDatetime(stored) : undefined;
	if (at === undefined) return false;
	if (comparison === 'after') return at > (parseDatetime(String(value)) ?? Infinity);
	return at <= now.getTime() && now.getTime() - at < Number(value) * DAY_MS;
}
