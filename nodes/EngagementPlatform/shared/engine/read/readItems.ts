import type { IDataObject, IExecuteFunctions, INodeProperties, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { InputProblem } from './itemInputError';
import { ItemInputError } from './itemInputError';
import type { Piece } from '../plan/planner';
import { RunClock } from '../../schemas/time';
import { labelsOf } from '../../descriptions/labels';
import type { ParameterSource } from '../../fields/parameterSource';
import { compileSource, copyOf, NOT_PLAIN, savedParameter } from '../../fields/parameterSource';

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
}

/** Reads and validates every item before anything is sent; `fields` (the operation's properties) label errors. */
export function readItems(
	context: IExecuteFunctions,
	spec: ItemReading,
	itemCount: number,
	fields: INodeProperties[] = [],
): ReadItems {
	const pieces: Array<Piece> = [];
	const inputErrors = new Map<number, ItemInputError>();
	const parameters = new ParameterReader(context, fields);
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
			inputErrors.set(itemIndex, everyProblem(error.problems, reader.problems));
		}
	}
	// The zone zoneless times were read in is named once for the run: the panel's hints cannot show
	// it. n8n's contexts (a node's run, an agent's tool) have hints; a reading outside a run has none.
	if (parameters.clock.zonelessRead) context.addExecutionHints?.(parameters.clock.zonelessHint());
	const acrossItems = spec.checkAcrossItems?.(pieces);
	if (!acrossItems?.size) return { pieces, inputErrors };
	for (const [itemIndex, error] of acrossItems) if (!inputErrors.has(itemIndex)) inputErrors.set(itemIndex, error);
	return { pieces: pieces.filter((piece) => !acrossItems.has(piece.itemIndex)), inputErrors };
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

	/** The input item's own fields. */
	input(): IDataObject {
		return this.context.getInputData()[this.itemIndex]?.json ?? {};
	}

	/** How the run reads times: one without a zone in the workflow's timezone. */
	get clock(): RunClock {
		return this.parameters.clock;
	}
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
	) {
		this.items = context.getInputData();
		this.clock = new RunClock(context.getTimezone());
		for (const name of Object.keys(context.getNode().parameters ?? {})) this.classify(name);
	}

	/** The label the panel shows for a parameter, which its errors name; worked out at the run's first error. */
	labelOf(name: string): string {
		return (this.labels ??= labelsOf(this.fields)).get(name) ?? name;
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
export const READER_SHAPES = new ItemReader(NO_RUN, 0, new ParameterReader(NO_RUN));
