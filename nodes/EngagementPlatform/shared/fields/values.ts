import type { IDataObject } from 'n8n-workflow';

import { ItemInputError } from '../engine/read/itemInputError';
import { isJsonObject } from '../schemas/parse';

// A parameter's value as the inputs (inputs.ts) take it; a label is worded into an error only when one fails.

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
