import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { ItemInputError } from '../engine/read/itemInputError';
import type { ItemReader } from '../engine/read/readItems';
import { hasKeys } from '../schemas/parse';
import {
	booleanFromText,
	jsonObjectValue,
	jsonValue,
	numberFromText,
	requiredTextValue,
	textValue,
} from '../schemas/textValues';
import { asWallTime, EACH_USERS_ZONE, isNoTime, notADate } from '../schemas/time';
import { labelOf } from '../descriptions/labels';
import type { IdentifierKind, IdentifyByLabel } from '../descriptions/userIdentifierFields';
import { userIdentifierFields } from '../descriptions/userIdentifierFields';
import type { ItemUser } from './userIdentifier';
import { readUser } from './userIdentifier';

/**
 * An operation's input, declared once: the properties the panel shows, the parameter it reads, the
 * label its errors name it by, and its typed reading of an item (CONTRIBUTING.md, "Adding a field").
 */
export interface Input<T> {
	/** The parameter read. */
	readonly name: string;
	readonly label: string;
	readonly properties: INodeProperties[];
	read(item: ItemReader): T;
	/** The item's problem with this input's value, worded with its label (for an operation's rules across inputs). */
	problem(rule: string, fix: string): ItemInputError;
}

/** An input of one parameter: `convert` turns its value (`fallback` where the workflow holds none) into the input's. */
export function inputField<T>(
	declared: INodeProperties,
	convert: (value: unknown, label: string, item: ItemReader) => T,
	fallback?: unknown,
): Input<T> {
	const { name } = declared;
	const label = labelOf(declared);
	return {
		name,
		label,
		properties: [declared],
		read: (item) => convert(item.raw(name, fallback), label, item),
		problem: (rule, fix) => new ItemInputError(label, rule, fix),
	};
}

/** An input whose properties are made elsewhere (several of them, or a generated set such as the user's). */
export function inputOf<T>(
	name: string,
	label: string,
	properties: INodeProperties[],
	read: (item: ItemReader, name: string, label: string) => T,
): Input<T> {
	return {
		name,
		label,
		properties,
		read: (item) => read(item, name, label),
		problem: (rule, fix) => new ItemInputError(label, rule, fix),
	};
}

/** An operation's inputs, each under the name its reading is had by, in the panel's order. */
export function defineInputs<Inputs extends Record<string, Input<unknown>>>(inputs: Inputs): Inputs {
	return inputs;
}

/** The properties of inputs, in order, for an operation's description. */
export function propertiesOf(inputs: Record<string, Input<unknown>>): INodeProperties[] {
	return Object.values(inputs).flatMap((declared) => declared.properties);
}

/** One option of a collection read on its own (`<collection>.<option>`); the collection's property shows it. */
export function collectionOption<T>(
	collection: Input<unknown>,
	option: INodeProperties,
	convert: (value: unknown, label: string, item: ItemReader) => T,
	fallback?: unknown,
): Input<T> {
	const name = `${collection.name}.${option.name}`;
	const label = labelOf(option);
	return inputOf(name, label, [], (item) => convert(item.raw(name, fallback), label, item));
}

/** Required text, trimmed; empty is refused with `fix`, or "Fill in <label>." */
export const requiredText = (declared: INodeProperties, fix?: string) =>
	inputField(declared, (value, label) => requiredTextValue(value, label, fix), '');

/** Text, trimmed; undefined when empty. `adjust` turns what was given into what is sent (a currency in capitals). */
export const optionalText = (declared: INodeProperties, adjust?: (text: string) => string) =>
	inputField(
		declared,
		(value, label) => {
			const text = textValue(value, label);
			return text === undefined || !adjust ? text : adjust(text);
		},
		'',
	);

/** Half of a UTF-16 surrogate pair without its other half: text cut in the middle of an emoji. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Required text that goes into the request's URL path: a lone surrogate cannot be written in a URL, so it
 * is refused with the item's other input errors rather than failing the run once requests are sent.
 */
export const pathSegment = (declared: INodeProperties) =>
	inputField(
		declared,
		(value, label) => {
			const text = requiredTextValue(value, label);
			if (!LONE_SURROGATE.test(text)) return text;
			throw new ItemInputError(
				label,
				'holds a broken character (half of an emoji or other surrogate pair) that cannot be sent in a URL',
				'Remove the broken character; it often comes from text cut in the middle of an emoji.',
			);
		},
		'',
	);

/** A yes/no; "true" and "false" text read as the panel's switch. */
export const yesNo = (declared: INodeProperties) => {
	const fallback = typeof declared.default === 'boolean' ? declared.default : false;
	return inputField(
		declared,
		(value, label) => (typeof value === 'boolean' ? value : (booleanFromText(value, label) ?? fallback)),
		fallback,
	);
};

/** A number, or a text that is exactly one (`example` shows one). */
export function number(declared: INodeProperties, example: string) {
	// An unset number is its default only where the declaration has one (Quantity 1; Price none).
	const fallback = typeof declared.default === 'number' ? declared.default : undefined;
	return inputField(declared, (value, label, item) => numberValue(value, label, item, example, fallback), fallback);
}

/** A text that is exactly a number is that number, empty text is not set, and any other value is kept as a problem. */
function numberValue(value: unknown, label: string, item: ItemReader, example: string, fallback?: number): unknown {
	const read = numberFromText(value, label, example);
	if ('problem' in read) {
		item.problems.push(read.problem);
		return undefined;
	}
	return read.value ?? fallback;
}

/**
 * A date and time: one without a zone is read in the workflow's timezone (schemas/time.ts), and one in
 * no form it takes is kept as a problem; with `emptyIsNow`, an empty one is the run's time.
 */
export const time = (declared: INodeProperties, { emptyIsNow = false } = {}) =>
	inputField(declared, (value, label, item) =>
		checkedTime(
			item,
			label,
			value,
			emptyIsNow ? item.clock.timeOrNow(value) : item.clock.zoned(value),
			item.mappedFrom(declared.name),
		),
	);

/** A date and time each user has in their own zone when it has none (In Local Time): `time`'s forms, no zone added. */
export const wallTime = (declared: INodeProperties) =>
	inputField(declared, (value, label, item) =>
		checkedTime(item, label, value, asWallTime(value), item.mappedFrom(declared.name), EACH_USERS_ZONE),
	);

/** A time as read, its value kept as a problem when it is no date (schemas/time.ts, isNoTime). */
function checkedTime(
	item: ItemReader,
	label: string,
	value: unknown,
	read: unknown,
	mappedFrom: string | undefined,
	zoneless?: string,
): unknown {
	if (isNoTime(read)) item.problems.push(notADate(label, value, zoneless, mappedFrom));
	return read;
}

/** A JSON object, given as an object (an expression) or as JSON text; undefined when empty. */
export const jsonObject = (declared: INodeProperties) => inputField(declared, jsonObjectValue, '');

/** A JSON array, given as an array (an expression) or as JSON text; undefined when empty. */
export const jsonArray = (declared: INodeProperties) =>
	inputField(declared, (value, label) => jsonValue(value, label, 'array') as unknown[] | undefined, '');

/** A collection's values (Additional Fields), its boolean and number options reading text as `yesNo` and `number` do. */
export const collection = (declared: INodeProperties) =>
	inputField(
		declared,
		(value, _label, item): IDataObject => {
			if (!value || typeof value !== 'object') return {};
			return hasKeys(value) ? typedOptions(value as IDataObject, declared, item) : (value as IDataObject);
		},
		{},
	);

/** A collection's values with its boolean and number options read from text; a problem leaves the value as given. */
function typedOptions(given: IDataObject, declared: INodeProperties, item: ItemReader): IDataObject {
	const values = { ...given };
	for (const option of (declared.options ?? []) as INodeProperties[]) {
		const value = values[option.name];
		if (value === undefined || (option.type !== 'boolean' && option.type !== 'number')) continue;
		const read =
			option.type === 'boolean'
				? { value: booleanFromText(value, option.displayName) }
				: numberFromText(value, option.displayName, String(option.default ?? 1));
		if ('problem' in read) item.problems.push(read.problem);
		else if (read.value === undefined) delete values[option.name];
		else values[option.name] = read.value;
	}
	return values;
}

/** The parameter as n8n gives it (a fixed collection's entries, a resource mapper), shaped by the operation. */
export const asGiven = <T = IDataObject>(declared: INodeProperties, fallback?: T) =>
	inputField(declared, (value) => value as T, fallback);

/** asGiven at the property's default where the workflow holds none (a choice, a multi-option's values). */
export const givenOrDefault = <T>(declared: INodeProperties) => asGiven<T>(declared, declared.default as T);

/** The item's user: "Identify User By" and the field(s) of each of `kinds`, read as `{ kind, identifier }`. */
export function user(
	kinds: readonly IdentifierKind[],
	options: { label?: IdentifyByLabel; show?: IDisplayOptions['show'] } = {},
): Input<ItemUser> {
	const properties = userIdentifierFields(kinds, options);
	return inputOf('identifyBy', options.label?.displayName ?? properties[0].displayName, properties, (item) =>
		readUser(item, { kinds, label: options.label }),
	);
}
