import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemReader } from '../engine/read/readItems';
import { PROTO_KEY, PROTO_KEY_PROBLEM, hasKeys, setOwnKey } from '../schemas/parse';
import { withoutKeys } from '../objects/withoutKeys';
import { jsonObjectValue } from '../schemas/textValues';
import { typedEntryValue } from '../schemas/typedEntries';
import type { Input } from './inputs';
import { inputOf } from './inputs';
import type { NamedValuesDeclaration } from '../descriptions/namedValuesFields';
import { typedListOrJsonFields } from '../descriptions/namedValuesFields';

type Show = NonNullable<INodeProperties['displayOptions']>['show'];

/**
 * Named values as typed fields or one JSON object; undefined when none were given. `beside` is an input shown just before the typed list (Standard Attributes), whose
 * values come first and the list's over them.
 */
export function namedValues(
	field: NamedValuesDeclaration,
	beside?: (shownWithTypedList: Show) => Input<IDataObject>,
): Input<IDataObject | undefined> {
	const mode = `${field.name}Input`;
	const typedList = `${field.name}Fields`;
	const besideList = beside?.({ [mode]: ['fields'] });
	// The input beside the list comes before the list's notice, which stays just above the list.
	const properties = typedListOrJsonFields(field).flatMap((property) =>
		besideList && property.name === `${typedList}Notice` ? [...besideList.properties, property] : [property],
	);
	const typedLabel = field.fieldsDisplayName ?? field.displayName;
	const asGivenValues = namedValuesReader(field.name, field.displayName);
	if (!besideList && typedLabel === field.displayName)
		return inputOf(field.name, field.displayName, properties, asGivenValues);
	const typedValues = namedValuesReader(field.name, typedLabel);
	return inputOf(field.name, field.displayName, properties, (item) => {
		if (item.raw(mode, 'fields') !== 'fields') return asGivenValues(item);
		if (!besideList) return typedValues(item);
		// The input beside the list gives this item's own object: the list's values are added to it.
		const values = besideList.read(item);
		const typed = typedValues(item);
		for (const key in typed) setOwnKey(values, key, typed[key]);
		return values;
	});
}

/** The item's values as one object, or undefined when none were given; the parameter names made once rather than for every item. */
function namedValuesReader(name: string, label: string): (item: ItemReader) => IDataObject | undefined {
	const inputMode = `${name}Input`;
	const json = `${name}Json`;
	const fields = `${name}Fields`;
	return (item) => {
		const mode = item.raw(inputMode, 'fields');
		const values = mode === 'json' ? jsonObjectValue(item.raw(json, ''), label) : readAssignments(item, fields, label);
		if (!values || !hasKeys(values)) return undefined;
		if (Object.hasOwn(values, PROTO_KEY)) {
			item.problems.push({ field: `${label}.${PROTO_KEY}`, ...PROTO_KEY_PROBLEM });
			return withoutKeys(values, [PROTO_KEY]);
		}
		return values;
	};
}

interface Assignment {
	name?: unknown;
	value?: unknown;
	type?: string;
}

/**
 * n8n's assignment list as one object, each entry converted to its type (schemas/typedEntries.ts); a
 * value that does not convert, an entry without a name or one given twice is a problem of the item.
 */
function readAssignments(item: ItemReader, parameter: string, label: string): IDataObject | undefined {
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
		if (Object.hasOwn(values, key)) {
			item.problems.push({ field: `${label}.${key}`, rule: 'is given twice', fix: 'Keep one entry per name.' });
			continue;
		}
		const mappedFrom = type === 'dateTime' ? item.mappedFrom(`${parameter}.assignments.${index}.value`) : undefined;
		const entry = typedEntryValue(`${label}.${key}`, key, value, type, item.clock, mappedFrom);
		if (entry && 'problem' in entry) item.problems.push(entry.problem);
		else if (entry) setOwnKey(values, key, entry.value);
	}
	return Object.keys(values).length > 0 ? values : undefined;
}
