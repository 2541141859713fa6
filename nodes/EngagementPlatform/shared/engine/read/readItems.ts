import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodeExecutionData,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { InputProblem } from './itemInputError';
import { ItemInputError } from './itemInputError';
import type { EmptyCellProblem } from './emptyCells';
import { identifyingColumn } from './identifyingColumn';
import { emptyInEveryItemFix, withEmptyCellNamed } from './emptyCells';
import type { Piece } from '../plan/planner';
import { RunClock } from '../../schemas/time';
import type { AsItCame } from '../asItCame';
import { itemsAsTheyCame } from '../asItCame';
import { labelsOf } from '../../descriptions/labels';
import type { ParameterSource } from '../../fields/parameterSource';
import { columnsReferenced, compileSource, copyOf, NOT_PLAIN, savedParameter } from '../../fields/parameterSource';

/** The reading part of an operation's declaration (OperationSpec extends it). */
export interface ItemReading<Group = unknown, Payload = IDataObject> {
	/** Reads and validates one item. Throws an ItemInputError naming the field when invalid. */
	readItem(item: ItemReader): Array<Piece<Group, Payload>>;
	/** Rules across items (e.g. IDs unique within a catalog); returns the items that break them. */
	checkAcrossItems?(pieces: Array<Piece<Group, Payload>>): Map<number, ItemInputError>;
}

export interface ReadItems {
	pieces: Array<Piece>;
	/** Item index → its input error, for items that break a rule. */
	inputErrors: Map<number, ItemInputError>;
	/** The input column that tells the rows apart, for errors to name each row by (identifyingColumn.ts). */
	identifyingColumn?: string;
}

/** Reads and validates every item before anything is sent; `fields` (the operation's properties) label errors. */
export function readItems(
	context: IExecuteFunctions,
	spec: ItemReading,
	itemCount: number,
	fields: INodeProperties[] = [],
	runTime?: string,
): ReadItems {
	const pieces: Array<Piece> = [];
	const inputErrors = new Map<number, ItemInputError>();
	const parameters = new ParameterReader(context, fields, runTime);
	// One reader moves from item to item: nothing an item's reading gives keeps the reader.
	const reader = new ItemReader(context, 0, parameters);
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		reader.moveTo(itemIndex);
		try {
			const read = spec.readItem(reader);
			if (reader.problems.length > 0) throw everyProblem([], reader.problems);
			for (let index = 0; index < read.length; index++) pieces.push(read[index]);
		} catch (error) {
			if (!(error instanceof ItemInputError))
				throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
			inputErrors.set(itemIndex, inItemsWords(everyProblem(error.problems, reader.problems), reader, parameters));
		}
	}
	if (itemCount > 1 && inputErrors.size === itemCount) sayOnceForTheRun(inputErrors, itemCount);
	// The zone zoneless times were read in is named once for the run: the panel's hints cannot show
	// it. n8n's contexts (a node's run, an agent's tool) have hints; a reading outside a run has none.
	if (parameters.clock.zonelessRead) context.addExecutionHints?.(parameters.clock.zonelessHint());
	for (const kept of reader.keptForRun.values()) {
		const hint = kept.hint?.();
		if (hint) context.addExecutionHints?.(hint);
	}
	const column = identifyingColumn(context.getNode().parameters ?? {}, fields);
	const acrossItems = spec.checkAcrossItems?.(pieces);
	if (!acrossItems?.size) return { pieces, inputErrors, identifyingColumn: column };
	for (const [itemIndex, error] of acrossItems) if (!inputErrors.has(itemIndex)) inputErrors.set(itemIndex, error);
	const kept = pieces.filter((piece) => !acrossItems.has(piece.itemIndex));
	return { pieces: kept, inputErrors, identifyingColumn: column };
}

/**
 * The item's error as it is true of the item: a field mapped from a column that is empty here says so
 * (emptyCells.ts), and where the item broke several rules each fix names its own field, one line each
 * (the error's description lists them), so that no "this field" points at another's.
 */
function inItemsWords(error: ItemInputError, reader: ItemReader, parameters: ParameterReader): ItemInputError {
	const input = reader.input();
	const several = error.problems.length > 1;
	const problems = error.problems.map((problem) => {
		const name = parameters.nameOf(problem.field);
		const true_ = name === undefined ? problem : withEmptyCellNamed(problem, reader.mappedFrom(name), input);
		if (!several) return true_;
		return { ...true_, fix: `${problem.field}: ${true_.fix.replace(/\bthis field\b/g, `"${problem.field}"`)}` };
	});
	const [first, ...more] = problems;
	const inWords = new ItemInputError(first.field, first.rule, first.fix, more);
	inWords.problems[0] = first;
	return inWords;
}

/**
 * Every item refused for the same one problem (a mapping whose column is empty in every item): the
 * problem is the run's, and said once for it ("Price is empty in all 3 items: the column price ...").
 */
function sayOnceForTheRun(inputErrors: Map<number, ItemInputError>, itemCount: number): void {
	const [first] = inputErrors.values();
	if (first.problems.length !== 1) return;
	const same = (error: ItemInputError) =>
		error.problems.length === 1 &&
		error.field === first.field &&
		error.rule === first.rule &&
		error.problems[0].fix === first.problems[0].fix;
	for (const error of inputErrors.values()) if (!same(error)) return;
	const column = (first.problems[0] as Partial<EmptyCellProblem>).emptyColumn;
	const allOfThem = new ItemInputError(
		first.field,
		column === undefined ? `${first.rule} in all ${itemCount} items` : `is empty in all ${itemCount} items`,
		column === undefined ? first.problems[0].fix : emptyInEveryItemFix(first.field, column),
	);
	allOfThem.ofEveryItem = true;
	for (const itemIndex of inputErrors.keys()) inputErrors.set(itemIndex, allOfThem);
}

/** One error listing each problem once: the reading's kept ones and the one that stopped it. */
function everyProblem(thrown: InputProblem[], kept: InputProblem[]): ItemInputError {
	const problems = [...kept];
	for (const problem of thrown)
		if (!problems.some((seen) => seen.field === problem.field && seen.rule === problem.rule)) problems.push(problem);
	const [first, ...more] = problems;
	return new ItemInputError(first.field, first.rule, first.fix, more);
}

/** One item's parameters as the run's sources give them (ParameterReader), and the problems its reading found. */
export class ItemReader {
	constructor(
		readonly context: IExecuteFunctions,
		public itemIndex: number,
		private readonly parameters = new ParameterReader(context),
	) {}

	/** Reads another item of the run, with no problem found yet. */
	moveTo(itemIndex: number): void {
		this.itemIndex = itemIndex;
		this.problems.length = 0;
	}

	raw(name: string, fallback?: unknown): unknown {
		return this.parameters.value(name, this.itemIndex, fallback);
	}

	/** `raw(name)[key]` (a resource mapper's `value`), built without the rest of the parameter where it can be. */
	rawPart(name: string, key: string): unknown {
		return this.parameters.part(name, key, this.itemIndex);
	}

	/** Problems found that did not stop the reading, so that the item's error lists every one. */
	readonly problems: InputProblem[] = [];

	/** A reading that throws at its first problem, kept with the others (undefined then). */
	kept<T>(read: () => T): T | undefined {
		try {
			return read();
		} catch (error) {
			if (!(error instanceof ItemInputError))
				throw new NodeOperationError(this.context.getNode(), error as Error, { itemIndex: this.itemIndex });
			this.problems.push(...error.problems);
			return undefined;
		}
	}

	/** The label the panel shows for a parameter, e.g. "Trigger Properties" for `triggerProperties`. */
	labelOf(name: string): string {
		return this.parameters.labelOf(name);
	}

	/** The item as it came in (asItCame.ts): the same for every try n8n runs of it, whatever its expressions evaluate to. */
	asItCame(): string {
		return this.parameters.asItCame(this.itemIndex);
	}

	private readonly seenInRun = new Map<string, number>();

	/**
	 * How many earlier items of this run gave `key`: identical items told apart by their order, which the
	 * same input gives again however n8n runs it again (a derived External Send ID).
	 */
	earlierInRun(key: string): number {
		const earlier = this.seenInRun.get(key) ?? 0;
		this.seenInRun.set(key, earlier + 1);
		return earlier;
	}

	/**
	 * The expression a parameter, or a part of one (`attributesFields.assignments.0.value`), was mapped
	 * with, e.g. `$json.purchased_at`, for an error's fix to name; undefined for a value typed in.
	 */
	mappedFrom(path: string): string | undefined {
		return this.parameters.mappedFrom(path);
	}

	/**
	 * What a field's reading keeps for the whole run under `key`, made at its first item (how the input's
	 * columns matched, for one hint of the run): its `hint`, if any, is added to the run's when every item is read.
	 */
	forRun<T extends KeptForRun>(key: string, make: () => T): T {
		let kept = this.keptForRun.get(key);
		if (!kept) this.keptForRun.set(key, (kept = make()));
		return kept as T;
	}

	readonly keptForRun = new Map<string, KeptForRun>();

	/** The input's columns other fields are mapped from (`$json.ID` in External ID), each with that field's label. */
	columnsMappedElsewhere(): ReadonlyMap<string, string> {
		return this.parameters.columnsMapped();
	}

	/** The input item's own fields. */
	input(): IDataObject {
		return this.context.getInputData()[this.itemIndex]?.json ?? {};
	}

	/** How the run reads times: one without a zone in the workflow's timezone. */
	get clock(): RunClock {
		return this.parameters.clock;
	}
}

/** What a field's reading keeps for the run; its hint is the run's (readItems). */
export interface KeptForRun {
	hint?(): NodeExecutionHint | undefined;
}

/** `$json.purchased_at` of a saved `={{ $json.purchased_at }}`: one expression making the whole value. */
function expressionOf(saved: unknown): string | undefined {
	if (typeof saved !== 'string') return undefined;
	const inner = /^=\{\{([\s\S]*)\}\}$/.exec(saved)?.[1].trim();
	return inner && !inner.includes('}}') && !inner.includes('{{') ? withoutOuterBrackets(inner) : undefined;
}

/** `$json.when` of `($json.when)`: the same expression, as errors name it whichever way it was written. */
function withoutOuterBrackets(expression: string): string {
	let text = expression;
	while (text.startsWith('(') && text.endsWith(')')) {
		let depth = 0;
		for (let index = 0; index < text.length - 1; index++) {
			depth += text[index] === '(' ? 1 : text[index] === ')' ? -1 : 0;
			if (depth === 0) return text;
		}
		text = text.slice(1, -1).trim();
	}
	return text;
}

/**
 * A run's parameters, each read from the source its saved form gives (fields/parameterSource.ts). A
 * constant object is copied for each item; a dragged field is the item's own value, which readers only read.
 */
export class ParameterReader {
	private readonly sources = new Map<string, ParameterSource>();
	private readonly items: INodeExecutionData[];
	readonly clock: RunClock;
	private labels?: Map<string, string>;

	/** Every saved parameter is classified before the first item, so that no item's reading takes a first-time path (READER_SHAPES). */
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly fields: INodeProperties[] = [],
		runTime?: string,
	) {
		this.items = context.getInputData();
		this.clock = new RunClock(context.getTimezone(), runTime);
		for (const name of Object.keys(context.getNode().parameters ?? {})) this.classify(name);
	}

	private itemsAsTheyCame?: AsItCame;

	/** An item as it came in (asItCame.ts), worked out at the first reading that asks. */
	asItCame(itemIndex: number): string {
		return (this.itemsAsTheyCame ??= itemsAsTheyCame(this.context))(itemIndex);
	}

	/** The label the panel shows for a parameter, which its errors name; worked out at the run's first error. */
	labelOf(name: string): string {
		return (this.labels ??= labelsOf(this.fields)).get(name) ?? name;
	}

	/** The parameter a label names (the inverse of labelOf), for an error naming a field by its label. */
	nameOf(label: string): string | undefined {
		for (const [name, shown] of (this.labels ??= labelsOf(this.fields))) if (shown === label) return name;
		return undefined;
	}

	private readonly expressions = new Map<string, string | undefined>();

	/** ItemReader.mappedFrom, worked out once a run: n8n copies the whole node at every getNode(). */
	mappedFrom(path: string): string | undefined {
		if (!this.expressions.has(path))
			this.expressions.set(path, expressionOf(savedParameter(this.context.getNode().parameters ?? {}, path)));
		return this.expressions.get(path);
	}

	private mapped?: Map<string, string>;

	/** Each column the node's parameters read (`$json.ID`), with the label of the first parameter reading it; worked out once. */
	columnsMapped(): ReadonlyMap<string, string> {
		if (this.mapped) return this.mapped;
		this.mapped = new Map();
		const parameters = this.context.getNode().parameters ?? {};
		for (const name of Object.keys(parameters))
			for (const column of columnsReferenced(parameters[name]))
				if (!this.mapped.has(column)) this.mapped.set(column, this.labelOf(name));
		return this.mapped;
	}

	value(name: string, itemIndex: number, fallback?: unknown): unknown {
		const source = this.sources.get(name) ?? this.sourceOf(name, fallback);
		if (source.kind === 'template') {
			const value = source.read(this.items[itemIndex]?.json);
			if (value !== NOT_PLAIN) return value;
		} else if (source.kind === 'constant' || (source.kind === 'absent' && fallback !== undefined)) {
			const value = source.kind === 'constant' ? source.value : fallback;
			return value === null || typeof value !== 'object' ? value : copyOf(value);
		}
		return this.engineValue(name, itemIndex, fallback);
	}

	/** `value(name)[key]`, that key's part alone copied or built (a resource mapper's values, not its schema). */
	part(name: string, key: string, itemIndex: number): unknown {
		const source = this.sources.get(name) ?? this.sourceOf(name, undefined);
		if (source.kind === 'constant')
			return source.value !== null && typeof source.value === 'object'
				? copyOf((source.value as IDataObject)[key])
				: undefined;
		const build = source.kind === 'template' ? source.parts.get(key) : undefined;
		const value = build ? build(this.items[itemIndex]?.json) : NOT_PLAIN;
		if (value !== NOT_PLAIN) return value;
		const whole = this.value(name, itemIndex, {});
		return whole !== null && typeof whole === 'object' ? (whole as IDataObject)[key] : undefined;
	}

	/**
	 * n8n's value of a parameter for one item. One n8n cannot work out is that item's problem, naming the
	 * field; a parameter the node never had is a reading that needs a fallback, and fails the node.
	 */
	private engineValue(name: string, itemIndex: number, fallback: unknown): unknown {
		let refusal: Error;
		try {
			return this.context.getNodeParameter(name, itemIndex, fallback);
		} catch (error) {
			refusal = error as Error;
		}
		if (savedParameter(this.context.getNode().parameters, name) === undefined)
			throw new NodeOperationError(this.context.getNode(), refusal, { itemIndex });
		throw new ItemInputError(
			this.labelOf(name),
			`could not be worked out for this item: ${refusal.message}`,
			"Check the field's expression against this item's input (the expression editor previews it item by item).",
		);
	}

	/** How a parameter's value is had, for one the operation does not declare (worked out at its first reading). */
	private sourceOf(name: string, fallback: unknown): ParameterSource {
		const source = this.classify(name) ?? { kind: 'constant', value: this.engineValue(name, 0, fallback) };
		this.sources.set(name, source);
		return source;
	}

	/** A parameter's source, kept for the run (shared/fields/parameterSource.ts); undefined for a constant n8n refuses. */
	private classify(name: string): ParameterSource | undefined {
		const source = compileSource(
			savedParameter(this.context.getNode().parameters, name),
			() => this.context.getNodeParameter(name, 0),
			this.items[0]?.json,
		);
		if (source) this.sources.set(name, source);
		return source;
	}
}

/**
 * One reader of each kind kept while the module is loaded: V8's optimised code for their methods lives
 * only while an instance of their hidden classes does, and a full garbage collection between runs would
 * leave the next run on unoptimised code (10,000 events read in 35–65 ms, against 10–15 kept).
 */
const NO_RUN = {
	getInputData: () => [],
	getNode: () => ({}),
	getTimezone: () => 'UTC',
} as unknown as IExecuteFunctions;
/**
 * Exported although nothing imports it: the module's exports are what hold it for as long as the module
 * is loaded (a module-private constant nothing reads could be collected).
 * @public
 */
export const READER_SHAPES = new ItemReader(NO_RUN, 0, new ParameterReader(NO_RUN));
