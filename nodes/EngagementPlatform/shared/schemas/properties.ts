import { z } from 'zod';

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
 * Checks a key/value object against the spec's event property rules (also used for custom
 * attributes): names 1-255 characters not starting with `$`; values numbers, booleans,
 * datetimes, strings up to 255 characters, arrays without datetimes, or objects; payloads
 * with arrays or objects up to 100 KB.
 */
export function checkPropertyRules(
	value: Record<string, unknown>,
	ctx: z.RefinementCtx,
	options: { allowNull: boolean },
): void {
	let structured = false;
	for (const [name, entry] of Object.entries(value)) {
		if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
			ctx.addIssue({ code: 'custom', path: [name], message: 'name must have 1 to 255 characters', params: nameRule });
		} else if (name.startsWith('$')) {
			ctx.addIssue({ code: 'custom', path: [name], message: 'name must not start with "$"', params: nameRule });
		}
		const problem = valueProblem(entry, options.allowNull);
		if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem.rule, params: { fix: problem.fix } });
		if (Array.isArray(entry) || (entry !== null && typeof entry === 'object')) structured = true;
	}
	if (structured) {
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

function valueProblem(value: unknown, allowNull: boolean): { rule: string; fix: string } | undefined {
	switch (typeof value) {
		case 'number':
			return Number.isFinite(value) ? undefined : { rule: 'must be a finite number', fix: 'Give a number.' };
		case 'boolean':
			return undefined;
		case 'string':
			return value.length > MAX_STRING_LENGTH
				? { rule: `is ${value.length} characters; text values may have at most 255`, fix: 'Shorten the text.' }
				: undefined;
		case 'object':
			if (value === null) {
				return allowNull ? undefined : { rule: 'must not be null', fix: 'Remove the key or give it a value.' };
			}
			if (Array.isArray(value) && value.some((element) => typeof element === 'string' && isPlatformDatetime(element))) {
				return { rule: 'is an array holding a datetime, which the platform does not allow', fix: 'Send datetimes as their own keys, not inside arrays.' };
			}
			return undefined;
		default:
			return { rule: `must be a number, boolean, text, array or object, got ${typeof value}`, fix: 'Map a plain JSON value.' };
	}
}

export const eventProperties = z
	.record(z.unknown())
	.superRefine((value, ctx) => checkPropertyRules(value, ctx, { allowNull: false }));
