import { characters } from '../formats';

/** The spec's limits on an item value: object keys without `.` or `$`, nesting up to 50, 5,000 characters. */
export const MAX_NESTING = 50;
const MAX_VALUE_CHARACTERS = 5000;

/** Object keys anywhere inside the value (arrays included) that contain `.` or `$`. */
export function badKeysIn(value: unknown, depth = 0): string[] {
	if (depth > MAX_NESTING + 1 || typeof value !== 'object' || value === null) return [];
	const entries = Array.isArray(value) ? value.map((element) => ['', element] as const) : Object.entries(value);
	const bad: string[] = [];
	for (const [key, inner] of entries) {
		if (!Array.isArray(value) && /[.$]/.test(key)) bad.push(key);
		bad.push(...badKeysIn(inner, depth + 1));
	}
	return bad;
}

/**
 * Levels of nesting: a scalar has none, each object or array around it adds one (`{ a: { b: 1 } }` has
 * two). Counting stops past the limit, so a hostile value costs no more than 51 levels.
 */
export function nestingOf(value: unknown, depth = 0): number {
	if (typeof value !== 'object' || value === null) return depth;
	if (depth > MAX_NESTING) return depth;
	const inner = Array.isArray(value) ? value : Object.values(value);
	return inner.reduce<number>((deepest, element) => Math.max(deepest, nestingOf(element, depth + 1)), depth + 1);
}

/**
 * Not shown how "item values at most 5,000 characters" is measured: a string by its characters, any other
 * value by the characters of its JSON text (what the platform stores). Characters are code points, as the
 * spec counts them everywhere (an emoji is one).
 */
export function isTooLarge(value: unknown): boolean {
	return characters(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')) > MAX_VALUE_CHARACTERS;
}
