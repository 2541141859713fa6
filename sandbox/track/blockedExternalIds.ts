export const BLOCKED_EXTERNAL_ID_MESSAGE = 'provided external_id is blacklisted and disallowed';

// The spec names the error but not the list. Like Braze, we refuse placeholder values that mean
// "no real user" (compared trimmed and case-insensitively).
const BLOCKED_EXTERNAL_IDS = new Set([
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

export function isBlockedExternalId(externalId: string): boolean {
	return BLOCKED_EXTERNAL_IDS.has(externalId.trim().toLowerCase());
}
