import type { IDataObject } from 'n8n-workflow';

import type { InputProblem } from '../engine/read/itemInputError';
import { ItemInputError } from '../engine/read/itemInputError';
import { isJsonObject } from './parse';
import { shown } from './shown';

/**
 * Values as marketers' data brings them: spreadsheets, CSV files and shops give text. A text
 * that is exactly a number or a boolean means that value; anything else is refused
 * naming the value. An empty text is "not set". A time without a zone is read in time.ts.
 */

/** A number as written by people and spreadsheets: 59.90, " 3 ", -2, 1e3, .5. No thousands separators. */
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/** Characters as the spec counts them: code points, so an emoji is one (JavaScript's length counts two). */
export function characterCount(text: string): number {
	return [...text].length;
}

/**
 * Whether a text has more characters (code points) than the spec's `limit`: every place the spec
 * limits characters asks this. A text of at most `limit` UTF-16 units is within it and is not counted.
 */
export function exceedsCharacters(text: string, limit: number): boolean {
	return text.length > limit && characterCount(text) > limit;
}

/** Empty text, or text of spaces alone: a blank cell of a sheet. */
export function isBlank(value: unknown): boolean {
	return typeof value === 'string' && value.trim() === '';
}

/** The number a value means (undefined for "not set": nothing, or empty text), or the problem naming the value. */
export function numberFromText(
	value: unknown,
	label: string,
	example: string,
): { value: number | undefined } | { problem: InputProblem } {
	if (value === undefined || value === null) return { value: undefined };
	if (typeof value === 'number') {
		if (Number.isFinite(value)) return { value };
	} else if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return { value: undefined };
		if (NUMBER_TEXT.test(text)) return { value: Number(text) };
	}
	return {
		problem: {
			field: label,
			rule: `expects a number but got ${shown(value)}`,
			fix: `Give a number such as ${example}.`,
		},
	};
}

/** true, false, or their text ("true", "FALSE"); undefined for nothing or empty text. */
export function booleanFromText(value: unknown, label: string): boolean | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string') {
		const text = value.trim().toLowerCase();
		if (text === '') return undefined;
		if (text === 'true') return true;
		if (text === 'false') return false;
	}
	throw new ItemInputError(label, `expects true or false but got ${shown(value)}`, 'Give true or false.');
}

/** Trimmed text, undefined when empty or not set; a number or yes/no as its text; anything else refused. */
export function textValue(value: unknown, label: string): string | undefined {
	if (typeof value === 'string') {
		const trimmed = value.trim();
		return trimmed === '' ? undefined : trimmed;
	}
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	throw new ItemInputError(label, `must be text, got ${describeType(value)}`, 'Map a text value into this field.');
}

/** Trimmed text that must be given: empty is refused with `fix`, or "Fill in <label>." */
export function requiredTextValue(value: unknown, label: string, fix?: string): string {
	const text = textValue(value, label);
	if (text !== undefined) return text;
	throw new ItemInputError(label, 'is required and was empty', fix ?? `Fill in "${label}".`);
}

/** A JSON object or array given as one (from an expression) or as JSON text; undefined when empty. */
export function jsonValue(value: unknown, label: string, want: 'object' | 'array'): unknown {
	if (want === 'object' ? isJsonObject(value) : Array.isArray(value)) return value;
	if (value === undefined || value === null || value === '') return undefined;
	const example =
		want === 'object' ? 'Enter a JSON object such as {"plan": "gold"}.' : 'Enter a JSON array such as [{"name": "x"}].';
	const parsed = typeof value === 'string' ? parseJson(value) : { value };
	if ('problem' in parsed) throw new ItemInputError(label, `is not valid JSON (${parsed.problem})`, example);
	if (want === 'array' ? !Array.isArray(parsed.value) : !isJsonObject(parsed.value)) {
		throw new ItemInputError(label, `must be a JSON ${want}, got ${describeType(parsed.value)}`, example);
	}
	return parsed.value;
}

/** A JSON object's value as jsonValue reads it. */
export const jsonObjectValue = (value: unknown, label: string) =>
	jsonValue(value, label, 'object') as IDataObject | undefined;

function parseJson(text: string): { value: unknown } | { problem: string } {
	try {
		return { value: JSON.parse(text) as unknown };
	} catch (error) {
		return { problem: (error as Error).message };
	}
}

function describeType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A collection's values as given: none where the workflow holds no object. */
export const collectionValues = (value: unknown): IDataObject =>
	(value !== null && typeof value === 'object' ? value : {}) as IDataObject;
