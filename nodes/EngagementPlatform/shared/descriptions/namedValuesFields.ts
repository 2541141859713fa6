import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { forVersion1, fromVersion2 } from './displayOptions';

export interface NamedValuesDeclaration {
	/** Parameter name stem: `<name>Input`, `<name>` (pairs) and `<name>Json`. */
	name: string;
	displayName: string;
	/** One entry, for "Add <noun>": Property, Attribute. */
	noun: string;
	/** Conditions beyond the operation's (which the node adds to every field). */
	show?: IDisplayOptions['show'];
	example: string;
	/** The typed list's label (version 2), where it differs: Custom Attributes beside Standard Attributes. */
	fieldsDisplayName?: string;
}

/**
 * A set of named values: as typed fields (version 2: n8n's assignment list, as Edit Fields has it:
 * drag an input field in, pick its type), as key/value text pairs (version 1) or as one JSON object.
 * Expressions work in all three.
 */
export function keyValueOrJsonFields({
	name,
	displayName,
	noun,
	show = {},
	example,
	fieldsDisplayName = displayName,
}: NamedValuesDeclaration): INodeProperties[] {
	const input = (mode: string) => ({ show: { ...show, [`${name}Input`]: [mode] } });
	// "Fields Below" is key/value pairs in version 1 and the typed list from version 2.
	const modeChoice = (fieldsBelow: 'keyValue' | 'fields'): INodeProperties => ({
		displayName: `${displayName} Input`,
		name: `${name}Input`,
		type: 'options',
		options: [
			{ name: 'Fields Below', value: fieldsBelow },
			{ name: 'JSON', value: 'json' },
		],
		default: fieldsBelow,
		displayOptions: { show },
	});
	return [
		...forVersion1([
			modeChoice('keyValue'),
			{
				displayName,
				name,
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: `Add ${noun}`,
				default: {},
				displayOptions: input('keyValue'),
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
		]),
		...fromVersion2([
			modeChoice('fields'),
			{
				displayName: fieldsDisplayName,
				name: `${name}Fields`,
				type: 'assignmentCollection',
				default: {},
				placeholder: `Add ${noun}`,
				hint: "Drag an input field here, or add one and pick its type (text, number, boolean, array, object). Text written as a date (2026-03-01) or date and time (2026-03-01 14:30) is sent as a date, without a zone in the workflow's timezone (Workflow Settings → Timezone).",
				displayOptions: input('fields'),
			},
		]),
		{
			displayName: `${displayName} (JSON)`,
			name: `${name}Json`,
			type: 'json',
			default: '{}',
			hint: `A JSON object, e.g. ${example}`,
			displayOptions: input('json'),
		},
	];
}
