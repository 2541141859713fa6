import type { IDataObject } from 'n8n-workflow';
import { isSafeObjectProperty } from 'n8n-workflow';

/**
 * How one parameter's value is had for every item of a run, decided once from the form the workflow
 * saved it in:
 * - `constant`: no expression anywhere in it, one value for every item (n8n's, read once);
 * - `template`: exactly one field of the item (`{{ $json.email }}`, what n8n's editor writes when a
 *   field is dragged in), or an object or list whose expressions each are (a resource mapper or a typed
 *   list whose entries were dragged in), built from the item's JSON; NOT_PLAIN for an item whose field
 *   only n8n's engine can tell, which then works that item out;
 * - `expression`: anything else, which only n8n's expression engine can work out;
 * - `absent`: not in the node's parameters.
 */
export type ParameterSource =
	| { kind: 'constant'; value: unknown }
	| { kind: 'template'; read: Build; parts: ReadonlyMap<string, Build> }
	| { kind: 'expression' }
	| { kind: 'absent' };

/**
 * `={{ $json.customer.id }}` or `={{ $json["first name"] }}`: the whole value is one field of the item,
 * with nothing before or after the braces (whitespace inside them is the engine's too). Anything outside
 * them, a space or a line break left after a dragged field included, makes n8n's value text (`"59.9 "`),
 * which is the engine's to give. A quoted key holds no backslash and no line break (no string literal
 * does); see `fieldOf` for what else leaves a field to the engine.
 */
const FIELD_REFERENCE =
	/^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*|\[(?:"[^"\\\n\r\u2028\u2029]*"|'[^'\\\n\r\u2028\u2029]*'|\d+)\])+)\s*\}\}$/;
/** n8n's engine refuses any expression whose text has this (its check against constructor calls). */
const CONSTRUCTOR_CALL = /\.\s*constructor/;
const PATH_STEP = /\.([A-Za-z_$][\w$]*)|\[(?:"([^"\\]*)"|'([^'\\]*)'|(\d+))\]/g;

/**
 * A parameter's source for the run. `engineValue` is n8n's value for the run's first item: a template is
 * kept only where it builds exactly that, so that any working-out n8n does beyond the expressions stays
 * n8n's. Undefined for a constant n8n refuses (its reading then fails the item, naming the field).
 */
export function compileSource(
	saved: unknown,
	engineValue: () => unknown,
	firstItem?: IDataObject,
): ParameterSource | undefined {
	if (saved === undefined) return { kind: 'absent' };
	// A dragged field is n8n's value as it is: no check against the engine needed.
	const field = typeof saved === 'string' ? fieldOf(saved) : undefined;
	if (field) return { kind: 'template', read: field, parts: new Map() };
	if (!hasExpression(saved)) {
		const value = attempt(engineValue);
		return value === REFUSED ? undefined : { kind: 'constant', value };
	}
	const read = typeof saved === 'object' && saved !== null ? templateOf(saved) : undefined;
	if (!read) return { kind: 'expression' };
	const built = read(firstItem);
	const expected = built === NOT_PLAIN ? REFUSED : attempt(engineValue);
	if (expected === REFUSED || !sameJson(built, expected)) return { kind: 'expression' };
	// Each key of an object's template builds its part of the value checked above, on its own.
	const parts = new Map<string, Build>();
	if (!Array.isArray(saved))
		for (const [key, value] of Object.entries(saved as IDataObject)) parts.set(key, templateOf(value) as Build);
	return { kind: 'template', read, parts };
}

type Build = (json: IDataObject | undefined) => unknown;

/**
 * A dragged field's reading, or undefined for any other expression. A reference n8n's engine refuses
 * whatever the item holds is no dragged field either, so that it fails each item as n8n fails it: one
 * whose quoted key holds `}}` (the engine's expression ends at the first), one with a `.constructor` in
 * its text, one naming a key n8n's sandbox refuses (`__proto__`, `prototype`, `caller`, … as the running
 * n8n lists them), an item's own key too.
 */
function fieldOf(saved: string): Build | undefined {
	const reference = FIELD_REFERENCE.exec(saved);
	if (!reference || reference[1].includes('}}') || CONSTRUCTOR_CALL.test(saved)) return undefined;
	const path = pathSteps(reference[1]);
	if (!path.every(isSafeKey)) return undefined;
	if (path.length > 1) return (json) => fieldValue(json, path);
	// A field at the top of the item, as a dragged one is: its text in one step.
	const [key] = path;
	return (json) => {
		const value = json?.[key];
		return typeof value === 'string' ? value : fieldValue(json, path);
	};
}

/** A key n8n's expression sandbox lets an expression read (every key, for an n8n without the check). */
const isSafeKey = (key: string) => typeof isSafeObjectProperty !== 'function' || isSafeObjectProperty(key);

/** A builder of the saved object or list for an item, each expression read as its field; undefined when one is no field. */
function templateOf(saved: unknown): Build | undefined {
	if (typeof saved === 'string' && saved.startsWith('=')) return fieldOf(saved);
	if (!hasExpression(saved)) return saved === null || typeof saved !== 'object' ? () => saved : () => copyOf(saved);
	if (Array.isArray(saved)) {
		const entries = saved.map(templateOf);
		if (entries.some((entry) => !entry)) return undefined;
		return (json) => {
			const list: unknown[] = [];
			for (const entry of entries as Build[]) {
				const value = entry(json);
				if (value === NOT_PLAIN) return NOT_PLAIN;
				list.push(value);
			}
			return list;
		};
	}
	const keys = Object.keys(saved as IDataObject);
	const builds = keys.map((key) => templateOf((saved as IDataObject)[key]));
	if (builds.some((build) => !build)) return undefined;
	return (json) => {
		const object: IDataObject = {};
		for (let index = 0; index < keys.length; index++) {
			const value = (builds[index] as Build)(json);
			if (value === NOT_PLAIN) return NOT_PLAIN;
			object[keys[index]] = value as IDataObject[string];
		}
		return object;
	};
}

const REFUSED: unique symbol = Symbol('refused');

function attempt(read: () => unknown): unknown {
	try {
		return read();
	} catch {
		return REFUSED;
	}
}

/** Equal as JSON values, keys in any order. */
function sameJson(left: unknown, right: unknown): boolean {
	if (left === right) return true;
	if (left === null || right === null || typeof left !== 'object' || typeof right !== 'object') return false;
	if (Array.isArray(left) !== Array.isArray(right)) return false;
	const leftKeys = Object.keys(left);
	if (leftKeys.length !== Object.keys(right).length) return false;
	return leftKeys.every((key) => sameJson((left as IDataObject)[key], (right as IDataObject)[key]));
}

/**
 * A dragged field's value as n8n's engine gives it (undefined where its object has no such key); NOT_PLAIN
 * where only the engine can tell: a step through no object, a prototype's key, a value that is no JSON.
 */
function fieldValue(json: IDataObject | undefined, path: readonly string[]): unknown {
	let holder: unknown = json;
	const last = path.length - 1;
	for (let step = 0; step < last; step++) {
		if (holder === null || typeof holder !== 'object') return NOT_PLAIN;
		holder = (holder as IDataObject)[path[step]];
	}
	if (holder === null || typeof holder !== 'object') return NOT_PLAIN;
	const key = path[last];
	const value = (holder as IDataObject)[key];
	if (value === undefined) return Object.hasOwn(holder, key) || !(key in holder) ? undefined : NOT_PLAIN;
	return isPlainJson(value) ? value : NOT_PLAIN;
}

/** A saved parameter's value at a dotted name (`additionalFields.send_id`). */
export function savedParameter(parameters: IDataObject, name: string): unknown {
	let value: unknown = parameters;
	for (const key of name.split('.'))
		value = value && typeof value === 'object' ? (value as IDataObject)[key] : undefined;
	return value;
}

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

function pathSteps(path: string): string[] {
	return [...path.matchAll(PATH_STEP)].map((step) => step[1] ?? step[2] ?? step[3] ?? step[4]);
}

/** What a field's reading gives for a value only n8n's expression engine can tell: n8n's engine reads it. */
export const NOT_PLAIN: unique symbol = Symbol('not plain');

/** A value n8n's expression engine would give as it is: JSON, not a function or a class's instance. */
function isPlainJson(value: unknown): boolean {
	if (value === null || typeof value !== 'object')
		return typeof value !== 'function' && typeof value !== 'symbol' && typeof value !== 'bigint';
	const prototype = Object.getPrototypeOf(value) as unknown;
	return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/** A copy of a JSON value (what n8n parameters hold); cheaper than structuredClone for the small ones. */
export function copyOf(value: unknown): unknown {
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map(copyOf);
	if (!isPlainJson(value)) return structuredClone(value);
	const copy: IDataObject = {};
	for (const key of Object.keys(value)) copy[key] = copyOf((value as IDataObject)[key]) as IDataObject[string];
	return copy;
}

/** `$json.ID`, `$json["First Name"]`, `$json['x']` anywhere in an expression. */
const COLUMN_REFERENCE = /\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*"([^"\\]*)"\s*\]|\[\s*'([^'\\]*)'\s*\])/g;

/** The input columns a saved parameter's expressions read, at any depth of it. */
export function columnsReferenced(saved: unknown, found: string[] = []): string[] {
	if (typeof saved === 'string') {
		if (saved.startsWith('='))
			for (const match of saved.matchAll(COLUMN_REFERENCE)) found.push(match[1] ?? match[2] ?? match[3]);
	} else if (saved !== null && typeof saved === 'object')
		for (const value of Object.values(saved)) columnsReferenced(value, found);
	return found;
}
