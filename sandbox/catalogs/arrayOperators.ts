import { isPlainObject } from '../formats';

/** `{ $add: [...], $remove: [...] }` (either or both), the PATCH operators of array fields. */
export type ArrayOperators = {
	$add?: unknown[];
	$remove?: unknown[];
};

const OPERATORS = ['$add', '$remove'];

/** A value meant as operators: an object whose keys all start with `$` (well formed or not). */
export function looksLikeOperators(value: unknown): value is Record<string, unknown> {
	return (
		isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((key) => key.startsWith('$'))
	);
}

/** Only `$add` and `$remove`, each with an array. */
export function isWellFormedOperators(value: Record<string, unknown>): value is ArrayOperators {
	return Object.entries(value).every(([key, operand]) => OPERATORS.includes(key) && Array.isArray(operand));
}

/** The operands, for the value checks (keys, nesting, size) that apply to the elements sent. */
export function operandsOf(value: ArrayOperators): unknown[] {
	return [...(value.$add ?? []), ...(value.$remove ?? [])];
}

/**
 * Not shown: how the operators combine. `$remove` first (every element equal to one listed, compared as
 * JSON), then `$add` appends its elements in order (duplicates kept, as Braze's array attributes do).
 * A field without an array value counts as empty.
 */
export function applyArrayOperators(current: unknown, operators: ArrayOperators): unknown[] {
	const removed = new Set((operators.$remove ?? []).map((element) => JSON.stringify(element)));
	const kept = (Array.isArray(current) ? current : []).filter((element) => !removed.has(JSON.stringify(element)));
	return [...kept, ...structuredClone(operators.$add ?? [])];
}
