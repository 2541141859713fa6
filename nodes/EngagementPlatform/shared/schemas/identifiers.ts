export const E164 = /^\+[1-9]\d{6,14}$/;
/** Deliberately loose: the platform is the judge of deliverability; this only catches obvious slips. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The spec: "provided external_id is blacklisted and disallowed" indicates a dummy user. It does
 * not list the values; these are the ones that mean "no real user", several of them what a
 * mapping yields when the field it names is missing ("undefined", "null", "[object Object]").
 * Compared trimmed and case-insensitively.
 */
const PLACEHOLDER_IDS: ReadonlySet<string> = new Set([
	'null',
	'undefined',
	'nil',
	'none',
	'n/a',
	'0',
	'-1',
	'test',
	'anonymous',
	'unknown',
	'[object object]',
]);
const LONGEST_PLACEHOLDER = Math.max(...[...PLACEHOLDER_IDS].map((id) => id.length));

export function isPlaceholderId(externalId: string): boolean {
	return externalId.length <= LONGEST_PLACEHOLDER && PLACEHOLDER_IDS.has(externalId.toLowerCase());
}

/** A user alias as /users/track objects carry it (a type, not an interface: it is also an IDataObject). */
export type UserAlias = { alias_name: string; alias_label: string };

/** One of the ways a user is addressed in /users/track objects. */
export type UserIdentifier =
	| { external_id: string }
	| { user_alias: UserAlias }
	| { email: string }
	| { phone: string }
	| { service_id: string }
	| { device_id: string };

/** The way an identifier names its user: its one key (external_id, user_alias, email...). */
function identifierKindOf(identifier: UserIdentifier): string {
	return Object.keys(identifier)[0];
}

/**
 * The user an identifier names, as one key for the state a run sets: two items name the same user
 * when their keys are equal. Emails compare without case, as the platform matches them (its
 * subscription endpoint updates every user sharing an email, compared case-insensitively).
 */
export function userStateKey(identifier: UserIdentifier): string {
	const kind = identifierKindOf(identifier);
	const value = (identifier as Record<string, unknown>)[kind];
	if (kind === 'user_alias') {
		const alias = value as { alias_name?: unknown; alias_label?: unknown };
		return `${kind}\u0000${String(alias.alias_label)}\u0000${String(alias.alias_name)}`;
	}
	return `${kind}\u0000${kind === 'email' ? String(value).trim().toLowerCase() : String(value)}`;
}

/** The platform's API identifiers of messages, steps and locales. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
