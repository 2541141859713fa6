import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

export interface NamedValuesDeclaration {
	/** Parameter name stem: `<name>Input`, `<name>Fields` (the typed list) and `<name>Json`. */
	name: string;
	displayName: string;
	/** One entry, for "Add <noun>": Property, Attribute. */
	noun: string;
	/** Conditions beyond the operation's (which the node adds to every field). */
	show?: IDisplayOptions['show'];
	example: string;
	/** The typed list's label, where it differs: Custom Attributes beside Standard Attributes. */
	fieldsDisplayName?: string;
	/** Whether each item's answer lists the values as sent (`sent`), which the list's notice then says. */
	answerShowsSent?: boolean;
}

/** How a typed list's text is sent as a date, said where the editor shows it (the list's own hint it does not). */
const DATES_NOTICE =
	"Dates: pick the String type (the list has no Date type). Text written as a date (2026-03-01) or date and time (2026-03-01 14:30) is sent as a date, without a zone in the workflow's timezone (Workflow Settings → Timezone).";
/** Said where each item's answer lists what it sent (the User node's attributes). */
const SENT_IN_ANSWER = ' Each item\'s answer shows under "sent" the values as the platform received them.';

/**
 * A set of named values: as typed fields (n8n's assignment list, as Edit Fields has it: drag an input
 * field in, pick its type) or as one JSON object. Expressions work in both.
 */
export function typedListOrJsonFields({
	name,
	displayName,
	noun,
	show = {},
	example,
	fieldsDisplayName = displayName,
	answerShowsSent = false,
}: NamedValuesDeclaration): INodeProperties[] {
	const input = (mode: string) => ({ show: { ...show, [`${name}Input`]: [mode] } });
	return [
		{
			displayName: `${displayName} Input`,
			name: `${name}Input`,
			type: 'options',
			options: [
				{ name: 'Fields Below', value: 'fields' },
				{ name: 'JSON', value: 'json' },
			],
			default: 'fields',
			displayOptions: { show },
		},
		// n8n 2.x shows no hint under a typed list, and its types offer no Date: a notice above it does show.
		{
			displayName: answerShowsSent ? DATES_NOTICE + SENT_IN_ANSWER : DATES_NOTICE,
			name: `${name}FieldsNotice`,
			type: 'notice',
			default: '',
			displayOptions: input('fields'),
		},
		{
			displayName: fieldsDisplayName,
			name: `${name}Fields`,
			type: 'assignmentCollection',
			default: {},
			placeholder: `Add ${noun}`,
			hint: "Drag an input field here, or add one and pick its type (text, number, boolean, array, object). Text written as a date (2026-03-01) or date and time (2026-03-01 14:30) is sent as a date, without a zone in the workflow's timezone (Workflow Settings → Timezone).",
			displayOptions: input('fields'),
		},
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
