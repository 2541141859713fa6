import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { ItemInputError } from '../engine/read/itemInputError';
import type { ItemReader, RunReading } from '../engine/read/readItems';
import type { PlainValue } from '../engine/read/plainReading';
import { NOT_PLAIN, textOf } from '../engine/read/plainReading';
import { numberFromText } from '../schemas/textValues';
import { isNoTime } from '../schemas/time';
import { forVersion1, fromVersion2 } from './displayOptions';
import { readPathSegment } from './pathSegment';
import type { IdentifierKind, IdentifyByLabel, ItemUser } from './userIdentifier';
import { plainUser, readUser, userIdentifierFields } from './userIdentifier';

/**
 * An operation's input, declared once: the properties the panel shows, the parameter it reads, the
 * label its errors name it by (the property's display name), and its reading of an item, typed. An
 * operation declares its inputs with `defineInputs` and reads them with `input.read(item)`; it never
 * names a parameter or types a label again (CONTRIBUTING.md, "Adding an operation").
 */
export interface Input<T> {
	/** The parameter read (version 2's name, where version 1 saved another). */
	readonly name: string;
	readonly label: string;
	readonly properties: INodeProperties[];
	read(item: ItemReader): T;
	/**
	 * The item's problem with this input's value, worded with its label: `rule` is what the value
	 * breaks, `fix` what to do. For rules across inputs, checked by the operation.
	 */
	problem(rule: string, fix: string): ItemInputError;
}

/** What an input gives, for an operation's own types. */
export type InputValue<I> = I extends Input<infer T> ? T : never;

/**
 * How a kind compiles its reading for a run (engine/read/plainReading.ts), given its parameter, label
 * and full reading: the item's value straight from its JSON, NOT_PLAIN where only the full reading can
 * tell (a value to convert, a problem to word); undefined where the run's parameters allow none.
 */
type Compile<T> = (
	run: RunReading,
	name: string,
	label: string,
	read: (item: ItemReader) => T,
) => PlainValue | undefined;

/** One property for every node version, or the ones version 1 (as 1.0 saved it) and version 2 show. */
export type Declared = INodeProperties | { version1: INodeProperties; fromVersion2: INodeProperties };

/** The property a declaration gives version 2 and later, which names and labels its input. */
export const currentOf = (declared: Declared): INodeProperties =>
	'version1' in declared ? declared.fromVersion2 : declared;

/**
 * An input of a kind of its own: `read` is given the parameter's name and label, to read it with
 * ItemReader's readers and word its problems. The kinds below are made with it.
 */
export function inputField<T>(
	declared: Declared,
	read: (item: ItemReader, name: string, label: string) => T,
	compile?: Compile<T>,
): Input<T> {
	const current = currentOf(declared);
	const properties =
		'version1' in declared
			? [...forVersion1([declared.version1]), ...fromVersion2([declared.fromVersion2])]
			: [declared];
	return inputOf(current.name, labelOf(current), properties, read, compile);
}

/** An input whose properties are made elsewhere (several of them, or a generated set such as the user's). */
export function inputOf<T>(
	name: string,
	label: string,
	properties: INodeProperties[],
	read: (item: ItemReader, name: string, label: string) => T,
	compile?: Compile<T>,
): Input<T> {
	const readItem = (item: ItemReader) => read(item, name, label);
	const compiled = (run: RunReading) => orFullReading(compile?.(run, name, label, readItem), readItem);
	const input: Input<T> = {
		name,
		label,
		properties,
		read: compile ? (item) => item.compiled(input, compiled) : readItem,
		problem: (rule, fix) => new ItemInputError(label, rule, fix),
	};
	return input;
}

/** A compiled reading that leaves what it cannot tell to the full reading; the full reading where the run allows none. */
function orFullReading<T>(plain: PlainValue | undefined, read: (item: ItemReader) => T): (item: ItemReader) => T {
	if (!plain) return read;
	return (item) => {
		const value = plain(item.json);
		return value === NOT_PLAIN ? read(item) : (value as T);
	};
}

/** A property's label as errors name it: without the "(JSON)" that tells the panel's input kind. */
export function labelOf(property: INodeProperties): string {
	return property.displayName.replace(/ \(JSON\)$/, '');
}

/**
 * An operation's inputs, each under the name its reading is had by. The record's order is the
 * order of their properties in the panel.
 */
export function defineInputs<Inputs extends Record<string, Input<unknown>>>(inputs: Inputs): Inputs {
	return inputs;
}

/** The properties of inputs, in order, for an operation's description. */
export function propertiesOf(inputs: Record<string, Input<unknown>>): INodeProperties[] {
	return Object.values(inputs).flatMap((declared) => declared.properties);
}

/**
 * One option of a collection (Additional Fields) read on its own, as `<collection>.<option>`, and
 * named by the option's label. Its property is the collection's, which shows it: it declares none.
 */
export function collectionOption<T>(
	collection: Input<unknown>,
	option: INodeProperties,
	read: (item: ItemReader, name: string, label: string) => T,
): Input<T> {
	return inputOf(`${collection.name}.${option.name}`, labelOf(option), [], read);
}

/** Required text, trimmed; empty is refused with `fix`, or "Fill in <label>." */
export const requiredText = (declared: Declared, fix?: string) =>
	inputField(declared, (item, name, label) => item.string(name, label, fix));

/** Text, trimmed; undefined when empty. `adjust` turns what was given into what is sent (a currency in capitals). */
export const optionalText = (declared: Declared, adjust?: (text: string) => string) =>
	inputField(
		declared,
		(item, name, label) => {
			const text = item.optionalString(name, label);
			return text === undefined || !adjust ? text : adjust(text);
		},
		(run, name, _label, read) =>
			run.same([name], read) ??
			run.mapped(name, (value) => {
				const text = textOf(value);
				return text === undefined || text === NOT_PLAIN || !adjust ? text : adjust(text);
			}),
	);

/** Required text that goes into the request's URL path (pathSegment.ts). */
export const pathSegment = (declared: Declared) => inputField(declared, (item, name) => readPathSegment(item, name));

/** One of the property's options, as the panel saved it or an expression gave it (checked by the operation's schema). */
export const choice = <T extends string = string>(declared: Declared) =>
	inputField(declared, (item, name) => item.raw(name) as T);

/** A yes/no; from version 2 "true" and "false" text read as the panel's switch. */
export const yesNo = (declared: Declared) =>
	inputField(declared, (item, name, label) => {
		const fallback = currentOf(declared).default;
		return item.boolean(name, typeof fallback === 'boolean' ? fallback : false, label);
	});

/** A number; from version 2 a text that is exactly one (`example` shows one). Version 1 gives the value as it came. */
export function number(declared: Declared, example: string) {
	// An unset number is its default only where today's declaration has one (Quantity 1; Price none).
	const declaredDefault = currentOf(declared).default;
	const fallback = typeof declaredDefault === 'number' ? declaredDefault : undefined;
	return inputField(
		declared,
		(item, name, label) => item.number(name, label, example, fallback),
		(run, name, label, read) => {
			const fromText = (value: unknown) => {
				const read = numberFromText(value, label, example);
				return 'problem' in read ? NOT_PLAIN : (read.value ?? fallback);
			};
			return run.same([name], read) ?? run.mapped(name, run.readsText ? fromText : (value) => value);
		},
	);
}

/**
 * A date and time; from version 2 one without a zone is in the workflow's timezone, one in no form it
 * takes is the item's problem naming the value and the forms (ItemReader.time), and with `emptyIsNow`
 * an empty one is the time of the run (an event's Time).
 */
export const time = (declared: Declared, { emptyIsNow = false } = {}) =>
	inputField(
		declared,
		(item, name, label) => (emptyIsNow ? item.timeOrNow(name, label) : item.time(name, label)),
		(run, name, _label, read) =>
			run.same([name], read) ??
			run.mapped(name, (value) => {
				const time = emptyIsNow ? run.parameters.timeOrNow(value) : run.parameters.zoned(value);
				// A value in no form a time takes is the full reading's problem to word.
				return isNoTime(time) ? NOT_PLAIN : time;
			}),
	);

/** A date and time each user has in their own zone when it has none (ItemReader.wallTime). */
export const wallTime = (declared: Declared) => inputField(declared, (item, name, label) => item.wallTime(name, label));

/** A JSON object, given as an object (an expression) or as JSON text; undefined when empty. */
export const jsonObject = (declared: Declared) =>
	inputField(declared, (item, name, label) => item.jsonObject(name, label));

/** A JSON array, given as an array (an expression) or as JSON text; undefined when empty. */
export const jsonArray = (declared: Declared) =>
	inputField(declared, (item, name, label) => item.jsonArray(name, label));

/**
 * A collection's values (Additional Fields): from version 2 its boolean and number options read text
 * as the fields `yesNo` and `number` do; one the workflow gives as constants is read once for the run.
 * With `namesIn1` (today's option name → 1.0's), a version 1 workflow's options, saved under 1.0's
 * names, are given under today's.
 */
export const collection = (declared: Declared, namesIn1: Readonly<Record<string, string>> = {}) =>
	inputField(
		declared,
		(item, name) => {
			const current = currentOf(declared);
			const read = item.collection(name, current);
			if (item.nodeVersion >= 2) return read;
			// A collection mapped whole from a field is the item's own object: renamed in a copy.
			const values = { ...read };
			for (const [today, in1] of Object.entries(namesIn1))
				if (values[in1] !== undefined && values[today] === undefined) {
					values[today] = values[in1];
					delete values[in1];
				}
			return values;
		},
		(run, name, _label, read) => run.same([name], read),
	);

/** The parameter as n8n gives it (a fixed collection's entries, a resource mapper), shaped by the operation. */
export const asGiven = <T = IDataObject>(declared: Declared, fallback?: T) =>
	inputField(declared, (item, name) => item.raw(name, fallback) as T);

/** asGiven at the property's default where the workflow holds none (a choice, a multi-option's values). */
export const givenOrDefault = <T>(declared: Declared) => asGiven<T>(declared, currentOf(declared).default as T);

/**
 * The item's user: "Identify User By" and the field(s) of each of `kinds` (userIdentifier.ts), read
 * as the kind chosen and its identifier, checked per the spec. Its properties are
 * userIdentifierFields'.
 */
export function user(
	kinds: readonly IdentifierKind[],
	options: { label?: IdentifyByLabel; show?: IDisplayOptions['show'] } = {},
): Input<ItemUser> {
	const properties = userIdentifierFields(kinds, options);
	return inputOf(
		'identifyBy',
		options.label?.displayName ?? properties[0].displayName,
		properties,
		(item) => readUser(item, { kinds, label: options.label }),
		(run) => plainUser(run, kinds),
	);
}
