import { z } from 'zod/v4';

import { isPlatformDatetime } from './time';

export const MAX_NAME_LENGTH = 255;
export const MAX_STRING_LENGTH = 255;
/**
 * "A properties payload containing array or object values may be up to 100 KB." We read KB
 * as 1,000 bytes, the stricter reading, so nothing we accept can be refused for size.
 */
export const MAX_STRUCTURED_PAYLOAD_BYTES = 100_000;

const nameRule = { fix: 'Rename the key: at most 255 characters, not starting with "$".' };

/**
 * Checks a key/value object against the spec's property rules (also used for custom
 * attributes): names 1-255 characters not starting with `$`, each value by `valueRules`,
 * and at most 100 KB in all when arrays or objects are among the values.
 */
export function checkPropertyRules(value: Record<string, unknown>, ctx: z.RefinementCtx, valueRules: ValueRules): void {
	let structured = false;
	let sound = true;
	for (const [name, entry] of Object.entries(value)) {
		if (name.length === 0 || characterCount(name) > MAX_NAME_LENGTH) {
			ctx.addIssue({ code: 'custom', path: [name], message: 'name must have 1 to 255 characters', params: nameRule });
		} else if (name.startsWith('$')) {
			ctx.addIssue({ code: 'custom', path: [name], message: 'name must not start with "$"', params: nameRule });
		}
		const problem = valueRules(entry);
		if (problem) sound = false;
		if (problem)
			ctx.addIssue({
				code: 'custom',
				path: [name, ...(problem.path ?? [])],
				message: problem.rule,
				params: { fix: problem.fix },
			});
		if (Array.isArray(entry) || (entry !== null && typeof entry === 'object')) structured = true;
	}
	// Sized only when every value is sound: JSON.stringify cannot fail on a bounded depth.
	if (structured && sound) {
		const bytes = Buffer.byteLength(JSON.stringify(value));
		if (bytes > MAX_STRUCTURED_PAYLOAD_BYTES) {
			ctx.addIssue({
				code: 'custom',
				message: `holds arrays or objects and is ${bytes.toLocaleString('en-US')} bytes; the limit is 100 KB`,
				params: { fix: 'Send fewer or smaller array and object values.' },
			});
		}
	}
}

/** A value's problem; `path` leads from the value to the part at fault (`["scores", "average"]`). */
type ValueProblem = { rule: string; fix: string; path?: Array<string | number> };
type ValueRules = (value: unknown) => ValueProblem | undefined;

/**
 * Characters as the spec counts them: code points, so an emoji is one (JavaScript's length counts
 * two). A text of at most 255 UTF-16 units has at most 255 code points, and is not counted.
 */
export function characterCount(text: string): number {
	if (text.length <= MAX_STRING_LENGTH) return text.length;
	let count = 0;
	for (const _ of text) count++;
	return count;
}

const TOO_LONG = (value: string) => ({
	rule: `is ${characterCount(value)} characters; text values may have at most 255`,
	fix: 'Shorten the text.',
});

/**
 * The spec does not say how deep an array or object value may nest. We take 100 levels, deeper than
 * any profile or order data, so that a runaway value fails its own item here and not the whole node
 * when the request is written.
 */
export const MAX_NESTING = 100;

/**
 * The first part of an array or object value JSON cannot carry as it is: a number that is not finite
 * (NaN, Infinity, which JSON.stringify would send as null) or nesting past MAX_NESTING.
 */
function structuredProblem(value: object): ValueProblem | undefined {
	const pending: Array<{ value: unknown; path: Array<string | number> }> = [{ value, path: [] }];
	while (pending.length > 0) {
		const { value: part, path } = pending.pop()!;
		if (typeof part === 'number' && !Number.isFinite(part))
			return { rule: `must be a finite number, got ${part}`, fix: 'Give a number, or leave the key out.', path };
		if (part === null || typeof part !== 'object') continue;
		if (path.length >= MAX_NESTING)
			return {
				rule: `is nested more than ${MAX_NESTING} levels deep`,
				fix: 'Flatten the value, or send its inner parts as their own properties.',
				path: path.slice(0, 3),
			};
		if (Array.isArray(part)) part.forEach((element, index) => pending.push({ value: element, path: [...path, index] }));
		else
			for (const key of Object.keys(part))
				pending.push({ value: (part as Record<string, unknown>)[key], path: [...path, key] });
	}
	return undefined;
}

function scalarProblem(value: unknown): { rule: string; fix: string } | undefined {
	if (typeof value === 'number')
		return Number.isFinite(value) ? undefined : { rule: 'must be a finite number', fix: 'Give a number.' };
	if (typeof value === 'string') return characterCount(value) > MAX_STRING_LENGTH ? TOO_LONG(value) : undefined;
	if (typeof value === 'boolean') return undefined;
	return {
		rule: `must be a number, boolean, text, array or object, got ${typeof value}`,
		fix: 'Map a plain JSON value.',
	};
}

function holdsDatetime(array: unknown[]): boolean {
	return array.some((element) =>
		Array.isArray(element) ? holdsDatetime(element) : typeof element === 'string' && isPlatformDatetime(element),
	);
}

/** Event and purchase properties: numbers, booleans, datetimes, short text, arrays without datetimes, objects. */
export const propertyValueRules: ValueRules = (value) => {
	if (value === null) return { rule: 'must not be null', fix: 'Remove the key or give it a value.' };
	if (typeof value === 'object') {
		const problem = structuredProblem(value);
		if (problem) return problem;
	}
	if (Array.isArray(value)) {
		return holdsDatetime(value)
			? {
					rule: 'is an array holding a datetime, which the platform does not allow',
					fix: 'Send datetimes as their own keys, not inside arrays.',
				}
			: undefined;
	}
	return typeof value === 'object' ? undefined : scalarProblem(value);
};

/**
 * Custom attributes: the spec shows text, booleans, numbers and arrays of text; null unsets
 * an attribute. Nested objects are not among them, so they are refused here rather than by the platform.
 */
export const attributeValueRules: ValueRules = (value) => {
	if (value === null) return undefined;
	if (Array.isArray(value)) {
		const bad = value.find((element) => typeof element !== 'string' || characterCount(element) > MAX_STRING_LENGTH);
		if (bad === undefined) return undefined;
		return typeof bad === 'string'
			? TOO_LONG(bad)
			: { rule: 'must be an array of text values', fix: 'Turn each element into text, e.g. with String().' };
	}
	if (typeof value === 'object') {
		return {
			rule: 'is an object; attributes take text, numbers, booleans, arrays of text or null',
			fix: 'Send each field as its own attribute, or as text.',
		};
	}
	return scalarProblem(value);
};

export const eventProperties = z
	.record(z.string(), z.unknown())
	.superRefine((value, ctx) => checkPropertyRules(value, ctx, propertyValueRules));
