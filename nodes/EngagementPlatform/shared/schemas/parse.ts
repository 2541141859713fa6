import type { z } from 'zod/v4';

import type { InputProblem } from '../engine/read/itemInputError';
import { ItemInputError } from '../engine/read/itemInputError';
import { nearestValue } from './nearestValue';
import { shown } from './shown';

/** A JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Whether an object has a key of its own, without listing its keys. */
/**
 * Sets `object[key]` as an own key whatever the key: `__proto__`, a name rows may bring, stays a key as a
 * spread or JSON.parse keeps it, where assigning it would change the object's prototype.
 */
export function setOwnKey(object: Record<string, unknown>, key: string, value: unknown): void {
	if (key === '__proto__')
		Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
	else object[key] = value;
}

/**
 * A row's own `__proto__` key (JSON.parse keeps it) cannot go as a name: JSON readers on servers drop it or
 * refuse the body holding it, which would fail every item of the request. The item fails naming it.
 */
export const PROTO_KEY = '__proto__';
export const PROTO_KEY_PROBLEM = {
	rule: 'is a name the request cannot carry: servers drop a key named __proto__ or refuse the body holding it',
	fix: 'Rename the key, e.g. with an Edit Fields node before this one.',
} as const;

export function hasKeys(value: object): boolean {
	for (const key in value) if (Object.hasOwn(value, key)) return true;
	return false;
}

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
 * A schema with a quick test for the values it plainly accepts as they are (the common item: every
 * field filled in, simple values). `asIs` gives the schema's output for such a value, or undefined
 * for anything else, which the schema then reads for its words. It may refuse what the schema
 * accepts, never the reverse. It gives back the value itself where it can be sent as it is, and never
 * writes into it: the value may be an input item's own object (a field mapped whole, read from the
 * item's JSON), which other nodes read too. An output that differs is a new object.
 */
export interface CheckedSchema<T> {
	schema: z.ZodType<T, unknown>;
	asIs(value: unknown): T | undefined;
}

/**
 * Validates a value against a schema; its issues become an ItemInputError naming each field as the
 * user sees it (`labels` maps a top-level key, product_id, to its UI name, Product ID), each once.
 * The result may be `value` itself (CheckedSchema.asIs): a caller that adds to it copies it first,
 * unless the item's reading made the value.
 */
export function parseOrThrow<T>(
	checked: z.ZodType<T, unknown> | CheckedSchema<T>,
	value: unknown,
	field: string,
	labels: Record<string, string> = {},
	/** Problems the item's reading found already (ItemReader.problems): their fields' issues here are theirs. */
	found: InputProblem[] = [],
): T {
	const schema = 'asIs' in checked ? checked.schema : checked;
	if (found.length === 0 && 'asIs' in checked) {
		const plain = checked.asIs(value);
		if (plain !== undefined) return plain;
	}
	const result = schema.safeParse(value);
	if (result.success && found.length === 0) return result.data;
	const problems: InputProblem[] = [...found];
	const known = new Set(found.map((problem) => problem.field));
	for (const issue of result.success ? [] : result.error.issues) {
		if (known.has(pathOf(issue.path, field, labels))) continue;
		const problem = { field: pathOf(issue.path, field, labels), ...ruleAndFix(issue, valueAt(value, issue.path)) };
		if (!problems.some((seen) => seen.field === problem.field && seen.rule === problem.rule)) problems.push(problem);
	}
	const [first, ...more] = problems;
	throw new ItemInputError(first.field, first.rule, first.fix, more);
}

function pathOf(steps: PropertyKey[], field: string, labels: Record<string, string>): string {
	const [first, ...rest] = steps;
	const head = [field, first === undefined ? undefined : (labels[String(first)] ?? String(first))]
		.filter(Boolean)
		.join('.');
	return rest.reduce<string>(
		(text, step) => (typeof step === 'number' ? `${text}[${step}]` : text ? `${text}.${String(step)}` : String(step)),
		head,
	);
}

/**
 * Where a value may go somewhere else, the values the platform takes, for an error's "did you mean":
 * a schema's check names them in its params (`nearestIn`), an enum's issue lists them.
 */
export interface NearestIn {
	nearestIn?: () => { codes: readonly string[]; names?: ReadonlyMap<string, string> };
}

/**
 * The rule as the value broke it, and its fix: a value given (a scalar, cut to a sensible length) is
 * shown ("must be a three-letter ISO 4217 code such as USD, not 'EURO'"), and the valid value it most
 * likely means is offered, in the rule and as the fix; an enum with none near lists what it takes.
 */
function ruleAndFix(issue: z.core.$ZodIssue, value: unknown): { rule: string; fix: string } {
	const fix = fixOf(issue);
	const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
	if (!scalar || !showsTheValue(issue) || issue.message.includes(shown(value))) return { rule: issue.message, fix };
	const rule = `${issue.message}, not ${shown(value)}`;
	const nearestIn = (issue as { params?: NearestIn }).params?.nearestIn?.();
	const candidates =
		nearestIn?.codes ?? (issue.code === 'invalid_value' ? issue.values.map((allowed) => String(allowed)) : undefined);
	if (!candidates) return { rule, fix };
	const nearest = nearestValue(value, candidates, nearestIn?.names);
	if (nearest !== undefined)
		return { rule: `${rule} (did you mean ${nearest}?)`, fix: `Give ${nearest} instead of ${shown(value)}.` };
	if (candidates.length <= 12) return { rule, fix: `Give one of: ${candidates.join(', ')}.` };
	return { rule, fix };
}

/**
 * Issues whose value is the problem (a form, an option, a type), where showing it shows the fix; a
 * length or a count says its measure instead, and a rule of our own shows it where it offers a nearest value.
 */
function showsTheValue(issue: z.core.$ZodIssue): boolean {
	if (issue.code === 'custom') return (issue as { params?: NearestIn }).params?.nearestIn !== undefined;
	return issue.code === 'invalid_format' || issue.code === 'invalid_value' || issue.code === 'invalid_type';
}

/** The value an issue's path leads to in what was read. */
function valueAt(value: unknown, path: PropertyKey[]): unknown {
	let at = value;
	for (const step of path) {
		if (at === null || typeof at !== 'object') return undefined;
		at = (at as Record<PropertyKey, unknown>)[step];
	}
	return at;
}

function fixOf(issue: z.core.$ZodIssue): string {
	return (issue as { params?: { fix?: string } }).params?.fix ?? FIX_BY_CODE[issue.code] ?? 'Correct the value.';
}
