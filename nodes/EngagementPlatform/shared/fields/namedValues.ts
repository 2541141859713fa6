import type { FieldType, IDataObject, INodeProperties } from 'n8n-workflow';
import { validateFieldType } from 'n8n-workflow';

import { ItemInputError } from '../engine/read/itemInputError';
import type { ItemReader } from '../engine/read/readItems';
import { hasKeys } from '../schemas/parse';
import { isBlank, shown } from '../schemas/textValues';
import { notADate } from '../schemas/time';
import type { Input } from './inputs';
import { inputOf } from './inputs';
import { FROM_VERSION_2 } from '../descriptions/displayOptions';
import type { NamedValuesDeclaration } from '../descriptions/namedValuesFields';
import { keyValueOrJsonFields } from '../descriptions/namedValuesFields';
import { collectionValues, jsonObjectValue } from './values';

type Show = NonNullable<INodeProperties['displayOptions']>['show'];

/**
 * Named values (properties, attributes, a catalog item's fields) as keyValueOrJsonFields offers them:
 * typed fields (version 2), key/value pairs (version 1) or one JSON object; undefined when none were
 * given. Errors name the typed list by its own label (Custom Attributes), the pairs and the JSON by the
 * field's.
 *
 * `beside` is an input shown just before the typed list, where the list is how the values are given
 * (Standard Attributes beside Custom Attributes): it is given the condition that shows it, and read
 * before the list, its values first and the list's over them.
 */
export function namedValues(
	field: NamedValuesDeclaration,
	beside?: (shownWithTypedList: Show) => Input<IDataObject>,
): Input<IDataObject | undefined> {
	const mode = `${field.name}Input`;
	const typedList = `${field.name}Fields`;
	const besideList = beside?.({ ...FROM_VERSION_2, [mode]: ['fields'] });
	const properties = keyValueOrJsonFields(field).flatMap((property) =>
		besideList && property.name === typedList ? [...besideList.properties, property] : [property],
	);
	const typedLabel = field.fieldsDisplayName ?? field.displayName;
	const asGivenValues = namedValuesReader(field.name, field.displayName);
	if (!besideList && typedLabel === field.displayName)
		return inputOf(field.name, field.displayName, properties, asGivenValues);
	const typedValues = namedValuesReader(field.name, typedLabel);
	return inputOf(field.name, field.displayName, properties, (item) => {
		if (!item.readsText || item.raw(mode, 'fields') !== 'fields') return asGivenValues(item);
		if (!besideList) return typedValues(item);
		// The input beside the list gives this item's own object: the list's values are added to it.
		return Object.assign(besideList.read(item), typedValues(item));
	});
}

/** The item's values as one object, or undefined when none were given; the parameter names made once rather than for every item. */
export function namedValuesReader(name: string, label: string): (item: ItemReader) => IDataObject | undefined {
	const inputMode = `${name}Input`;
	const json = `${name}Json`;
	const fields = `${name}Fields`;
	return (item) => {
		const mode = item.raw(inputMode, item.readsText ? 'fields' : 'keyValue');
		if (mode === 'json') {
			const value = jsonObjectValue(item.raw(json, ''), label);
			return value && hasKeys(value) ? value : undefined;
		}
		if (mode === 'fields') return readAssignments(item, fields, label);
		return readPairs(item, name, label);
	};
}

function readPairs(item: ItemReader, name: string, label: string): IDataObject | undefined {
	const pairs = (collectionValues(item.raw(name, {})).pairs ?? []) as Array<{ key?: unknown; value?: unknown }>;
	if (pairs.length === 0) return undefined;
	const values: IDataObject = {};
	for (const [index, pair] of pairs.entries()) {
		const key = typeof pair.key === 'string' ? pair.key.trim() : '';
		if (!key)
			throw new ItemInputError(`${label}[${index}]`, 'has an empty name', 'Give every pair a name, or remove it.');
		if (key in values) throw new ItemInputError(`${label}.${key}`, 'is given twice', 'Keep one pair per name.');
		values[key] = pair.value as IDataObject[string];
	}
	return values;
}

interface Assignment {
	name?: unknown;
	value?: unknown;
	type?: string;
}

/**
 * n8n's assignment list as one object, each value converted to the type picked for it by
 * n8n-workflow's validateFieldType (as Edit Fields converts): "59.90" as a number is 59.9. A date is
 * read as the Time fields read one and sent as an ISO 8601 instant (schemas/time.ts, instantOf), where
 * validateFieldType would take "Dec 3, 2026" or "03/05/2026" and the text went out as written. Text
 * written as a date is sent as one too (the comment where it is done says why). A value that does not convert is a problem
 * of the item naming the entry, the value and the type; an empty value, and a blank one of any type but
 * text, is left out (not set).
 */
export function readAssignments(item: ItemReader, parameter: string, label: string): IDataObject | undefined {
	const assignments = ((item.raw(parameter, {}) as { assignments?: Assignment[] } | undefined)?.assignments ??
		[]) as Assignment[];
	const values: IDataObject = {};
	for (let index = 0; index < assignments.length; index++) {
		const { name, value, type = 'string' } = assignments[index];
		const key = typeof name === 'string' ? name.trim() : '';
		if (!key) {
			item.problems.push({
				field: `${label}[${index}]`,
				rule: 'has an empty name',
				fix: 'Give every entry a name, or remove it.',
			});
			continue;
		}
		if (key in values) {
			item.problems.push({ field: `${label}.${key}`, rule: 'is given twice', fix: 'Keep one entry per name.' });
			continue;
		}
		if (value === undefined || value === null || value === '') continue;
		// Here a blank cell (spaces alone) typed Number, Boolean, Date or any type but text is "not set":
		// the entry is left out of the request, so the value the platform holds stays. validateFieldType
		// would send " " as the number 0, overwriting a lifetime value, and refuse it as a boolean or date.
		if (type !== 'string' && isBlank(value)) continue;
		if (type === 'dateTime') {
			const instant = item.clock.instant(value);
			if (instant === undefined) item.problems.push(notADate(`${label}.${key}`, value));
			else values[key] = instant;
			continue;
		}
		// n8n's editor offers a list's entries the types String, Number, Boolean, Array and Object: no date.
		// The platform stores an ISO 8601 string as a datetime, and a sheet writes its dates its own way
		// (2026-03-01, 2026-03-01 10:00), which would be stored as text. So in version 2 (the list is
		// version 2's) an entry of type String, the type a dragged sheet column gets, whose text is written
		// as a date or a date and time in the forms the Time fields take (2026-03-01, 2026-03-01 10:00,
		// 2026-03-01 10:00:00, ISO 8601 with or without a zone, a `T` or a space) is sent as the ISO 8601
		// instant with offset the platform recognises as a date: exactly what the Date type gives
		// (schemas/time.ts, instantOf), without a zone in the workflow's timezone, a date alone its
		// midnight there. Any other text (abc 2026, 03/01/2026, 2026-02-30) stays text, as JSON mode's does;
		// so does the date of birth, which the platform keeps as a calendar date. The list's hint says so.
		if (type === 'string' && item.readsText && typeof value === 'string' && !KEPT_AS_TEXT.has(key)) {
			const instant = item.clock.instantOfText(value);
			if (instant !== undefined) {
				values[key] = instant;
				continue;
			}
		}
		const converted = validateFieldType(key, value, type as FieldType);
		if (!converted.valid) {
			item.problems.push({
				field: `${label}.${key}`,
				rule: `expects ${article(type)} but got ${shown(value)}`,
				fix: `Give ${article(type)}, or pick the type the value has.`,
			});
			continue;
		}
		values[key] = convertedValue(type, value, converted.newValue);
	}
	return Object.keys(values).length > 0 ? values : undefined;
}

/** Keys whose text stays text though written as a date: the date of birth, a calendar date (schemas/standardAttributes.ts). */
const KEPT_AS_TEXT: ReadonlySet<string> = new Set(['dob']);

function article(type: string): string {
	return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** An entry's value as its type says: text as text (as Edit Fields makes it), other types as converted. */
function convertedValue(type: string, value: unknown, converted: unknown): IDataObject[string] {
	if (type === 'string' && typeof value !== 'string')
		return typeof value === 'object' ? JSON.stringify(value) : String(value);
	return (converted ?? value) as IDataObject[string];
}
