import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { ItemInputError } from '../engine/itemInputError';
import type { ItemReader } from '../engine/itemReader';

interface KeyValueOrJsonField {
	/** Parameter name stem: `<name>Input`, `<name>` (pairs) and `<name>Json`. */
	name: string;
	displayName: string;
	/** One entry, for "Add <noun>": Property, Attribute. */
	noun: string;
	show: IDisplayOptions['show'];
	example: string;
}

/** A set of named values entered as key/value pairs in the UI or as one JSON object; expressions work in both. */
export function keyValueOrJsonFields({
	name,
	displayName,
	noun,
	show,
	example,
}: KeyValueOrJsonField): INodeProperties[] {
	return [
		{
			displayName: `${displayName} Input`,
			name: `${name}Input`,
			type: 'options',
			options: [
				{ name: 'Fields Below', value: 'keyValue' },
				{ name: 'JSON', value: 'json' },
			],
			default: 'keyValue',
			displayOptions: { show },
		},
		{
			displayName,
			name,
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: `Add ${noun}`,
			default: {},
			displayOptions: { show: { ...show, [`${name}Input`]: ['keyValue'] } },
			options: [
				{
					displayName: 'Pair',
					name: 'pairs',
					values: [
						{ displayName: 'Name', name: 'key', type: 'string', default: '', placeholder: 'e.g. plan' },
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
							placeholder: 'e.g. gold',
							hint: 'Text as typed; use an expression for numbers, booleans or arrays, e.g. {{ 42 }}',
						},
					],
				},
			],
		},
		{
			displayName: `${displayName} (JSON)`,
			name: `${name}Json`,
			type: 'json',
			default: '{}',
			hint: `A JSON object, e.g. ${example}`,
			displayOptions: { show: { ...show, [`${name}Input`]: ['json'] } },
		},
	];
}

/** The item's values as one object, or undefined when none were given. */
export function readKeyValueOrJson(item: ItemReader, name: string, label: string): IDataObject | undefined {
	if (item.raw(`${name}Input`, 'keyValue') === 'json') {
		const value = item.jsonObject(`${name}Json`, label);
		return value && Object.keys(value).length > 0 ? value : undefined;
	}
	const pairs = (item.collection(name).pairs ?? []) as Array<{ key?: unknown; value?: unknown }>;
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
