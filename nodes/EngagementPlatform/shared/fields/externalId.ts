import { ItemInputError } from '../engine/itemInputError';
import type { ItemReader } from '../engine/itemReader';

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

/** An external ID the item names a real user with: text, and not a placeholder the platform refuses. */
export function readExternalId(item: ItemReader, name: string, displayName: string): string {
	// item.string gives the value trimmed.
	const externalId = item.string(name, displayName);
	if (externalId.length <= LONGEST_PLACEHOLDER && PLACEHOLDER_IDS.has(externalId.toLowerCase())) {
		throw new ItemInputError(
			displayName,
			`is "${externalId}", a placeholder the platform refuses as a dummy user`,
			"Map the field that holds the user's ID, and check that every item has one.",
		);
	}
	return externalId;
}
