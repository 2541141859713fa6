import type { IDataObject } from 'n8n-workflow';

/**
 * The plain reading: an input's value that is plainly valid is read straight from the item's JSON, by
 * a reading the input's kind compiles once per run from its parameters' sources (fields/inputs.ts).
 * Anything it cannot decide (a value to convert, a problem to word) is left to the input's full
 * reading, which gives the same value and every error's words: the plain reading only gives values
 * the full one would give. It is most of the speed of a large run in a process whose readers V8 has
 * not optimised yet (CONTRIBUTING.md, "The plain reading").
 */

/** What a plain reading gives for a value it cannot decide: the full reading reads it. */
export const NOT_PLAIN: unique symbol = Symbol('not plain');

/** One field's value for an item, from the item's JSON; NOT_PLAIN when only the full reading can tell. */
export type PlainValue = (json: IDataObject | undefined) => unknown;

/** Where a parameter's value comes from for every item: one value for all, or a field of the item. */
export type PlainSource = 'same' | { path: readonly string[] };

/** What the plain reading needs of the run's parameters (readItems.ts's ParameterReader). */
export interface PlainSources {
	readonly version: number;
	/** Undefined where only n8n's expression engine can tell (an expression other than a dragged field). */
	plainSource(name: string): PlainSource | undefined;
}

/** What the plain reading needs of a full reader (readItems.ts's ItemReader). */
export interface FullReader {
	readonly problems: readonly unknown[];
	raw(name: string, fallback?: unknown): unknown;
}

/**
 * What a field's plain reading is worked out from, once per run. `Reader` and `Sources` are the
 * readers the operations read with (ItemReader, ParameterReader: readItems.ts's RunReading); the
 * plain reading only needs what FullReader and PlainSources name, so that it does not import the
 * stage that uses it.
 */
export class PlainRun<Reader extends FullReader = FullReader, Sources extends PlainSources = PlainSources> {
	constructor(
		readonly parameters: Sources,
		/** A full reader of the run's first item, for values that are the same for every item. */
		private readonly firstItem: () => Reader,
	) {}

	get readsText(): boolean {
		return this.parameters.version >= 2;
	}

	/**
	 * A field whose parameters are one value for every item (constants, or absent): read once by its
	 * own full reading, and a copy given to each item. Undefined when a parameter differs per item or
	 * the reading finds a problem (each item then gets it from the full reading).
	 */
	same(names: readonly string[], read: (item: Reader) => unknown): PlainValue | undefined {
		const value = this.once(names, read);
		if (value === NOT_PLAIN) return undefined;
		return value === null || typeof value !== 'object' ? () => value : () => copyOf(value);
	}

	/** What `read` gives every item when `names` are one value for all, read once; else NOT_PLAIN. */
	once(names: readonly string[], read: (item: Reader) => unknown): unknown {
		for (const name of names) if (this.parameters.plainSource(name) !== 'same') return NOT_PLAIN;
		const item = this.firstItem();
		try {
			const value = read(item);
			return item.problems.length > 0 ? NOT_PLAIN : value;
		} catch {
			return NOT_PLAIN;
		}
	}

	/**
	 * A parameter mapped to a field of the item, its value turned by `convert` (NOT_PLAIN for what it
	 * cannot decide). A field that is missing or not JSON is NOT_PLAIN: n8n's engine works it out.
	 */
	mapped(name: string, convert: (value: unknown) => unknown): PlainValue | undefined {
		const source = this.parameters.plainSource(name);
		if (source === undefined || source === 'same') return undefined;
		const { path } = source;
		const key = path[0];
		// One call per item where the field is at the top of the item, as a dragged-in field is.
		if (path.length === 1)
			return (json) => {
				const value = json?.[key];
				return typeof value === 'string' || isAsGiven(value) ? convert(value) : NOT_PLAIN;
			};
		return (json) => {
			const value = fieldOf(json, path);
			return isAsGiven(value) ? convert(value) : NOT_PLAIN;
		};
	}

	/** A parameter that is one value for every item (a choice such as Identify User By), or NOT_PLAIN. */
	constant(name: string, fallback: unknown): unknown {
		return this.once([name], (item) => item.raw(name, fallback));
	}
}

/** A value as trimmed text, as text fields read it: undefined when empty or not set, NOT_PLAIN when it is no text. */
export function textOf(value: unknown): string | undefined | typeof NOT_PLAIN {
	if (typeof value === 'string') {
		const trimmed = value.trim();
		return trimmed === '' ? undefined : trimmed;
	}
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return NOT_PLAIN;
}

/** A field of an item's JSON by its path (`customer.id` as ['customer', 'id']). */
export function fieldOf(json: IDataObject | undefined, path: readonly string[]): unknown {
	let value: unknown = json;
	for (const key of path) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

/** A field's value n8n's expression engine would give as it is: present, and JSON. */
export function isAsGiven(value: unknown): boolean {
	return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
		? true
		: value !== undefined && isPlainJson(value);
}

/** A value n8n's expression engine would give as it is: JSON, not a function or a class's instance. */
export function isPlainJson(value: unknown): boolean {
	if (value === null || typeof value !== 'object')
		return typeof value !== 'function' && typeof value !== 'symbol' && typeof value !== 'bigint';
	const prototype = Object.getPrototypeOf(value) as unknown;
	return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/** A copy of a JSON value (what n8n parameters hold); cheaper than structuredClone for the small ones. */
export function copyOf(value: unknown): unknown {
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map(copyOf);
	if (!isPlainJson(value)) return structuredClone(value);
	const copy: IDataObject = {};
	for (const key of Object.keys(value)) copy[key] = copyOf((value as IDataObject)[key]) as IDataObject[string];
	return copy;
}
