import type { z } from 'zod/v4';

import { ItemInputError } from '../engine/itemInputError';

/** Zod issues can carry the fix in `params.fix`; built-in issues get a fix by their code. */
const FIX_BY_CODE: Partial<Record<z.core.$ZodIssue['code'], string>> = {
	invalid_type: 'Map a value of the right type into this field.',
	too_big: 'Shorten the value.',
	too_small: 'Fill in a value.',
	invalid_value: 'Pick one of the allowed values.',
	invalid_format: 'Correct the format of the value.',
	unrecognized_keys: 'Remove the unknown keys.',
};

/**
 * Validates a value against a schema; the first issue becomes an ItemInputError naming the
 * field as the user sees it: `labels` maps a top-level key (product_id) to its UI name (Product ID).
 */
export function parseOrThrow<T>(
	schema: z.ZodType<T, unknown>,
	value: unknown,
	field: string,
	labels: Record<string, string> = {},
): T {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	const issue = result.error.issues[0];
	const [first, ...rest] = issue.path;
	const head = [field, first === undefined ? undefined : (labels[String(first)] ?? String(first))]
		.filter(Boolean)
		.join('.');
	const path = rest.reduce<string>(
		(text, step) => (typeof step === 'number' ? `${text}[${step}]` : text ? `${text}.${String(step)}` : String(step)),
		head,
	);
	const fix = (issue as { params?: { fix?: string } }).params?.fix ?? FIX_BY_CODE[issue.code] ?? 'Correct the value.';
	throw new ItemInputError(path, issue.message, fix);
}
