import type {
	FieldType,
	IDataObject,
	INodeProperties,
	INodePropertyOptions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';
import { validateFieldType } from 'n8n-workflow';

import type { ItemReader } from '../../shared/engine';
import { columnExpression, isWords } from '../../shared/engine';
import type { Input } from '../../shared/fields/inputs';
import { labelOf } from '../../shared/descriptions/labels';
import { inputOf } from '../../shared/fields/inputs';
import { isBlank } from '../../shared/schemas/textValues';
import { shown } from '../../shared/schemas/shown';
import { notADate } from '../../shared/schemas/time';
import { CODED_ATTRIBUTES } from '../../shared/schemas/standardAttributes';
import { nearestValue, normalized } from '../../shared/schemas/nearestValue';
import { ColumnTally, columnMatcher } from './standardAttributeColumns';

type Show = NonNullable<INodeProperties['displayOptions']>['show'];

const choices = (values: Array<[string, string]>) => values.map(([name, value]) => ({ name, value }));
const SUBSCRIBE = choices([
	['Opted In', 'opted_in'],
	['Subscribed', 'subscribed'],
	['Unsubscribed', 'unsubscribed'],
]);

/**
 * The profile's standard attributes a marketer maps from a sheet or a CRM, by the platform's names,
 * typed as n8n shows and converts them (a "true" from a sheet becomes true). Their rules are the
 * attribute schema's (shared/schemas/standardAttributes.ts). Times and dates are text: a date of
 * birth is a calendar date, and a time without a zone is read in the workflow's timezone.
 */
const STANDARD_ATTRIBUTES: Array<{ id: string; displayName: string; type: FieldType; options?: typeof SUBSCRIBE }> = [
	{ id: 'first_name', displayName: 'First Name', type: 'string' },
	{ id: 'last_name', displayName: 'Last Name', type: 'string' },
	{ id: 'email', displayName: 'Email', type: 'string' },
	{ id: 'phone', displayName: 'Phone', type: 'string' },
	{ id: 'country', displayName: 'Country (ISO 3166 Code, e.g. DE)', type: 'string' },
	{ id: 'language', displayName: 'Language (ISO 639-1 Code, e.g. de)', type: 'string' },
	{ id: 'home_city', displayName: 'Home City', type: 'string' },
	{ id: 'dob', displayName: 'Date of Birth (YYYY-MM-DD)', type: 'string' },
	{
		id: 'gender',
		displayName: 'Gender',
		type: 'options',
		options: choices([
			['Male', 'M'],
			['Female', 'F'],
			['Other', 'O'],
			['Not Applicable', 'N'],
			['Prefer Not to Say', 'P'],
			['Unknown', 'U'],
		]),
	},
	{ id: 'time_zone', displayName: 'Time Zone (e.g. Europe/Berlin)', type: 'string' },
	{ id: 'image_url', displayName: 'Image URL', type: 'string' },
	{ id: 'push_subscribe', displayName: 'Push Subscription', type: 'options', options: SUBSCRIBE },
	{ id: 'email_open_tracking_disabled', displayName: 'Email Open Tracking Disabled', type: 'boolean' },
	{ id: 'email_click_tracking_disabled', displayName: 'Email Click Tracking Disabled', type: 'boolean' },
	{ id: 'date_of_first_session', displayName: 'Date of First Session', type: 'string' },
	{ id: 'date_of_last_session', displayName: 'Date of Last Session', type: 'string' },
];
/** Dates and times: a session's date and time is sent as an ISO 8601 instant, the date of birth as the date. */
const TIMES: ReadonlySet<string> = new Set(['date_of_first_session', 'date_of_last_session']);
const DATES: ReadonlySet<string> = new Set(['dob', ...TIMES]);
const FIELDS: ReadonlyMap<string, (typeof STANDARD_ATTRIBUTES)[number]> = new Map(
	STANDARD_ATTRIBUTES.map((field) => [field.id, field]),
);

const attributeOfColumn = columnMatcher(STANDARD_ATTRIBUTES);

/** n8n's resourceMapping method: the standard attributes as typed fields, none required. */
export async function getStandardAttributes(): Promise<ResourceMapperFields> {
	return {
		fields: STANDARD_ATTRIBUTES.map(({ id, displayName, type, options }): ResourceMapperField => ({
			id,
			displayName,
			type,
			options,
			required: false,
			defaultMatch: false,
			display: true,
		})),
	};
}

/** The resource mapper for a node's methods.resourceMapping, shown where `show` says. */
function standardAttributesField(show: Show): INodeProperties {
	return {
		displayName: 'Standard Attributes',
		name: 'standardAttributes',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'autoMapInputData', value: null },
		typeOptions: {
			resourceMapper: {
				resourceMapperMethod: 'getStandardAttributes',
				mode: 'add',
				valuesLabel: 'Standard Attributes',
				fieldWords: { singular: 'standard attribute', plural: 'standard attributes' },
				addAllFields: false,
				supportAutoMap: true,
			},
		},
		displayOptions: { show },
		builderHint: {
			propertyHint:
				'Keep mapping automatically when the input fields are named as the standard attributes, by ID or label in any case, with spaces, hyphens or underscores (first_name or First Name, last_name, email, phone, country, language, dob or Date of Birth, gender, time_zone...), else map them one by one under those IDs. Input fields of other names are not sent from here: put custom attributes in Custom Attributes.',
		},
	};
}

/** The standard attributes the resource mapper sets, shown where `show` says. */
export function standardAttributes(show: Show): Input<IDataObject> {
	const field = standardAttributesField(show);
	return inputOf(field.name, labelOf(field), [field], readStandardAttributes);
}

/**
 * The standard attributes an item sets: the mapped values, or with "Map Automatically" the input's
 * columns matched to the attributes by ID or label (matchedColumns), each converted here as n8n converts a typed field
 * (validateFieldType), a session date as the typed Date entries are (an ISO 8601 instant, a zoneless
 * one in the workflow's timezone). The mapped values are read as the item gives them, not as n8n's
 * resource mapper converted them: it refuses a blank cell typed Boolean before the node could leave
 * it out. An empty value, and a blank one of any attribute but text, is not set.
 */
function readStandardAttributes(item: ItemReader, name: string, label: string): IDataObject {
	// The mapping's mode and its values are read as parts of the parameter: its whole would copy the
	// mapper's schema for every item. (n8n's own reading of `standardAttributes.value` checks the values
	// against that schema, refusing the blank cells read here as not set.)
	if (item.rawPart(name, 'mappingMode') === 'autoMapInputData') {
		const { values, columns } = matchedColumns(item, label);
		return convertedAttributes(item, label, values, (id) => columnExpression(columns.get(id)!));
	}
	const values = (item.rawPart(name, 'value') ?? {}) as IDataObject;
	return convertedAttributes(item, label, values, (id) => item.mappedFrom(`${name}.value.${id}`));
}

/** The tally this run's columns are counted in (ItemReader.forRun). */
const tallyOf = (item: ItemReader) =>
	item.forRun('standardAttributeColumns', () => new ColumnTally(attributeOfColumn, item.columnsMappedElsewhere()));

/**
 * With "Map Automatically", the input's columns that match a standard attribute (columnMatcher), each
 * counted for the run's hint, and each of the others kept with why it was not sent, for an item with
 * nothing to update to name. Two columns of one attribute (`email` and `Email`) with different values
 * refuse the item naming both: picking one would drop the other's value without a word, and which one
 * a sheet means is the marketer's to say. The same value twice is no choice, and is sent once.
 */
function matchedColumns(item: ItemReader, label: string): { values: IDataObject; columns: Map<string, string> } {
	const tally = tallyOf(item);
	tally.startItem(item.itemIndex);
	const input = item.input();
	const values: IDataObject = {};
	const columns = new Map<string, string>();
	for (const column in input) {
		// Another node's words (Track Purchase before this one) are no column of the row's to send.
		if (isWords(input[column])) continue;
		const id = tally.attributeOf(column);
		if (id === undefined) {
			tally.notSent(column, 'matches no standard attribute');
			continue;
		}
		const value = input[column];
		if (isNotSet(id, value)) {
			tally.notSent(column, 'is empty');
			continue;
		}
		const earlier = columns.get(id);
		if (earlier === undefined) {
			columns.set(id, column);
			values[id] = value;
		} else if (!sameValue(values[id], value)) {
			item.problems.push({
				field: `${label}.${FIELDS.get(id)!.displayName}`,
				rule: `is given by two columns, "${earlier}" and "${column}", with different values (${shown(values[id])} and ${shown(value)})`,
				fix: `Keep one of the columns "${earlier}" and "${column}" (rename or remove the other), or switch Mapping Column Mode to Map Each Column Below and map the one to send.`,
			});
			continue;
		}
		tally.sent(column, id);
	}
	return { values, columns };
}

/**
 * Why an item with "Map Automatically" sent no standard attribute: each of its columns and why it was not
 * sent; undefined where the item's standard attributes were not mapped automatically.
 */
export function columnsNotSent(item: ItemReader): string | undefined {
	return tallyOf(item).notSentWords(item.itemIndex);
}

function sameValue(left: unknown, right: unknown): boolean {
	return left === right || (typeof left === 'object' && JSON.stringify(left) === JSON.stringify(right));
}

/**
 * An empty value, and a blank one (spaces alone) of a yes/no, choice or date attribute, is "not set": it
 * is left out of the request, and the profile keeps the value it holds.
 */
function isNotSet(id: string, value: unknown): boolean {
	if (value === undefined || value === null || value === '') return true;
	const field = FIELDS.get(id);
	return isBlank(value) && (field?.type !== 'string' || DATES.has(id));
}

/** The attributes' values converted as n8n converts a typed field; `mappedFrom` names the expression a date's error shows. */
function convertedAttributes(
	item: ItemReader,
	label: string,
	values: IDataObject,
	mappedFrom: (id: string) => string | undefined,
): IDataObject {
	const attributes: IDataObject = {};
	for (const id in values) {
		const value = values[id];
		const field = FIELDS.get(id);
		if (!field || isNotSet(id, value)) continue;
		if (TIMES.has(id)) {
			const instant = item.clock.instant(value);
			if (instant === undefined)
				item.problems.push(notADate(`${label}.${field.displayName}`, value, undefined, mappedFrom(id)));
			else attributes[id] = instant;
			continue;
		}
		// Country, language, gender and phone as sheets write them (Germany, German, female, +49 151 …).
		if (typeof value === 'string' && Object.hasOwn(CODED_ATTRIBUTES, id)) {
			const read = CODED_ATTRIBUTES[id](value, mappedFrom(id));
			if ('code' in read) attributes[id] = read.code;
			else
				item.problems.push({ field: `${label}.${field.displayName}`, rule: read.problem.rule, fix: read.problem.fix });
			continue;
		}
		// n8n's conversion of text to text is the text itself (validateFieldType, type string).
		if (field.type === 'string' && typeof value === 'string') {
			attributes[id] = value;
			continue;
		}
		const converted = validateFieldType(field.displayName, value, field.type, { valueOptions: field.options });
		if (!converted.valid) {
			item.problems.push({
				field: `${label}.${field.displayName}`,
				...(field.options ? notAnOption(value, field.options) : notOfType(value, field.type)),
			});
			continue;
		}
		attributes[id] = (converted.newValue ?? value) as IDataObject[string];
	}
	return attributes;
}

function notOfType(value: unknown, type: FieldType): { rule: string; fix: string } {
	return {
		rule: `expects a ${type} but got ${shown(value)}`,
		fix: 'Map a value of that type, or leave the field out of the input.',
	};
}

/**
 * A value that is none of a choice's options: the option it most likely means (a label, `female` for F,
 * in any case), else every option with its label, so that the fix needs no look elsewhere.
 */
function notAnOption(value: unknown, options: INodePropertyOptions[]): { rule: string; fix: string } {
	const codes = options.map((option) => String(option.value));
	const labels = new Map(options.map((option) => [normalized(option.name), String(option.value)]));
	const nearest = nearestValue(value, codes, labels);
	const listed = options.map((option) => `${String(option.value)} (${option.name})`).join(', ');
	if (nearest !== undefined)
		return {
			rule: `expects one of its options but got ${shown(value)} (did you mean ${nearest}?)`,
			fix: `Give ${nearest} instead of ${shown(value)}; the options are ${listed}.`,
		};
	return { rule: `expects one of its options but got ${shown(value)}`, fix: `Give one of ${listed}.` };
}
