import type { IDataObject, INodeExecutionData, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { InputProblem, ItemInputError } from '../read/itemInputError';
import type { OperationSpec, Piece, PieceError, PieceOutcome } from '../operation';
import { ON_ERROR_CONTINUE } from './runWords';
import { setOwnKey } from '../../schemas/parse';
import { capitalized, rowNamer } from './rowWords';

/** Why an item did not succeed, in the form every error item and thrown error is built from. */
export interface ItemFailure {
	itemIndex: number;
	/** The item as a marketer finds it again (rowWords.ts): `row 2 (item 1, order_id 'B-2002')`; empty for a tool call. */
	row: string;
	/** What went wrong, without the item: n8n's error output and its errors name the item beside it. */
	message: string;
	description: string;
	/** invalid: refused before sending. not_sent: the run stopped first. */
	delivery: 'invalid' | 'not_sent' | PieceError['delivery'];
	field?: string;
	/** Every rule the item's input broke (the first is `field`'s), for invalid items. */
	problems?: InputProblem[];
	httpCode?: number;
	response?: IDataObject;
	/** The failure is the run's (a refused key): said once, not pinned on an item. */
	ofTheRun?: boolean;
}

export interface ItemResults {
	output: INodeExecutionData[];
	failures: ItemFailure[];
	succeeded: number;
	/** Items not sent at all, as every piece repeats what was last accepted. */
	unchanged: number;
	/** Items not sent at all, as later items of the run set the same state of the same users. */
	replaced: number;
	withWarnings: number;
	/** Items not sent: each of their occurrences was tracked before with the same key (Track Once Per Key). */
	alreadyTracked: number;
}

export function inputFailure(itemIndex: number, error: ItemInputError, row = plainRow(itemIndex)): ItemFailure {
	return {
		itemIndex,
		row,
		message: error.problems.map(({ field, rule }) => `"${field}" ${rule}`).join('; '),
		// One line per problem: each fix names its own field (readItems).
		description: [...new Set(error.problems.map(({ fix }) => fix))].join('\n'),
		delivery: 'invalid',
		field: error.field,
		problems: error.problems,
		...(error.ofEveryItem && { ofTheRun: true }),
	};
}

/**
 * How the output items are made: each keeps its input item's fields as they came, and the node's words go
 * in one field of their own (`field`), so that no column of the row is overwritten (a sheet's `status`, a
 * product's `id`); an operation whose answers are the platform's records gives those alone (`records`).
 * With `errorOutput` (Continue (using error output)) a failed item is json n8n routes down the error
 * branch and lays over the input item's fields (errorBranchJson); otherwise it leaves by the one output.
 */
export interface OutputForm {
	inputs: readonly INodeExecutionData[];
	field: string;
	records: boolean;
	errorOutput: boolean;
	/** Preview: each valid item's words, beside its row (records too: a preview has none). */
	previews?: Map<number, IDataObject>;
	/** How a failed item is named (rowWords.ts); its number and row alone where not given. */
	rowOf?: (itemIndex: number) => string;
}

/** One answer per input item, in input order: its result(s), or its error. */
export function collectItemResults(
	spec: OperationSpec,
	itemCount: number,
	pieces: Array<Piece>,
	outcomes: Map<Piece, PieceOutcome>,
	inputErrors: Map<number, ItemInputError>,
	form: OutputForm,
): ItemResults {
	const byItem: Array<Array<Piece> | undefined> = new Array(itemCount);
	for (let index = 0; index < pieces.length; index++) (byItem[pieces[index].itemIndex] ??= []).push(pieces[index]);
	const results: ItemResults = {
		output: [],
		failures: [],
		succeeded: 0,
		unchanged: 0,
		replaced: 0,
		withWarnings: 0,
		alreadyTracked: 0,
	};
	const collector: Collector = { spec, outcomes, inputErrors, form, results };
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) collectItem(collector, itemIndex, byItem[itemIndex]);
	return results;
}

/** What every item's answer is made from, and the results collected so far. */
interface Collector {
	spec: OperationSpec;
	outcomes: Map<Piece, PieceOutcome>;
	inputErrors: Map<number, ItemInputError>;
	form: OutputForm;
	results: ItemResults;
}

type PieceWithOutcome = { piece: Piece; outcome: PieceOutcome };
type Tracked = Array<{ since?: string; sameKeyAs?: number }>;

/** An item's answer as the form gives it: the platform's record alone, or beside the input item's fields. */
function answerOf({ form }: Collector, itemIndex: number, json: IDataObject): IDataObject {
	return form.records ? json : withAnswer(form.inputs[itemIndex]?.json, form.field, json);
}

/** One item's output: its preview, its answer as sent, its error, or its answer with what was left out. */
function collectItem(collector: Collector, itemIndex: number, pieces: Array<Piece> | undefined): void {
	const { form, outcomes, results } = collector;
	const pairedItem = { item: itemIndex };
	const preview = form.previews?.get(itemIndex);
	if (preview) {
		results.output.push({ json: withAnswer(form.inputs[itemIndex]?.json, form.field, preview), pairedItem });
		results.succeeded++;
		return;
	}
	// An item refused on input has no pieces, so this is never one of those.
	const sent = sentAsIs(pieces, outcomes);
	if (sent) {
		const answers = collector.spec.itemResult(itemIndex, [sent]);
		for (let index = 0; index < answers.length; index++)
			results.output.push({ json: answerOf(collector, itemIndex, answers[index]), pairedItem });
		results.succeeded++;
		return;
	}
	const inputError = collector.inputErrors.get(itemIndex);
	const row = form.rowOf?.(itemIndex) ?? plainRow(itemIndex);
	const failure = inputError
		? inputFailure(itemIndex, inputError, row)
		: pieceFailure(itemIndex, row, pieces ?? [], outcomes);
	if (failure) {
		results.failures.push(failure);
		const input = form.inputs[itemIndex]?.json;
		results.output.push({
			json: form.errorOutput ? errorBranchJson(failure, input) : regularErrorJson(failure, input, form.field),
			pairedItem,
		});
		return;
	}
	const allPieces = (pieces ?? []).map((piece) => ({ piece, outcome: outcomes.get(piece)! }));
	const itemPieces = allPieces.filter((entry) => !notSent(entry));
	const tracked = allPieces.flatMap(({ outcome }) => (outcome.ok && outcome.alreadyTracked) || []);
	if (itemPieces.length === 0 && allPieces.length > 0) collectNotSent(collector, pairedItem, allPieces, tracked);
	else collectSentWithNotes(collector, pairedItem, allPieces, itemPieces, tracked);
}

/** A piece accepted without being sent: unchanged, replaced by a later item, or tracked before. */
function notSent({ outcome }: { outcome: PieceOutcome }): boolean {
	return outcome.ok && (outcome.unchanged === true || outcome.replacedBy !== undefined || !!outcome.alreadyTracked);
}

/** An item none of whose pieces was sent: already tracked, replaced by a later item, or unchanged. */
function collectNotSent(
	collector: Collector,
	pairedItem: { item: number },
	allPieces: PieceWithOutcome[],
	tracked: Tracked,
): void {
	const { results } = collector;
	const itemIndex = pairedItem.item;
	const replacedBy = Math.max(-1, ...allPieces.map(({ outcome }) => (outcome.ok && outcome.replacedBy) || -1));
	const subject = allPieces[0].piece.subject;
	if (tracked.length === allPieces.length) {
		results.output.push({
			json: answerOf(collector, itemIndex, { status: 'already_tracked', ...trackedWords(tracked), ...subject }),
			pairedItem,
		});
		results.alreadyTracked++;
	} else if (replacedBy >= 0) {
		results.output.push({
			json: answerOf(collector, itemIndex, { status: 'replaced', replacedBy, ...subject }),
			pairedItem,
		});
		results.replaced++;
	} else {
		results.output.push({ json: answerOf(collector, itemIndex, { status: 'unchanged', ...subject }), pairedItem });
		results.unchanged++;
	}
}

/**
 * An item sent in all or part: the operation's result(s) for the pieces sent, with the warnings, the
 * states it overrode and the parts left out (unchanged, replaced, already tracked) beside them.
 */
function collectSentWithNotes(
	collector: Collector,
	pairedItem: { item: number },
	allPieces: PieceWithOutcome[],
	itemPieces: PieceWithOutcome[],
	tracked: Tracked,
): void {
	const { results } = collector;
	const itemIndex = pairedItem.item;
	const warnings = itemPieces.flatMap(({ outcome }) => (outcome.ok && outcome.warnings) || []);
	if (warnings.length > 0) results.withWarnings++;
	const unchangedParts = unchangedPartsOf(allPieces);
	const replacedParts = replacedPartsOf(allPieces);
	const overrode = itemPieces.flatMap(({ outcome }) => (outcome.ok && outcome.overrode) || []);
	for (const json of collector.spec.itemResult(itemIndex, itemPieces)) {
		const extra = {
			...(warnings.length > 0 ? { warnings } : {}),
			...(overrode.length > 0 ? { overrode: overrode.join('; ') } : {}),
			...(unchangedParts ? { unchanged: unchangedParts } : {}),
			...(replacedParts ? { replaced: replacedParts } : {}),
			...(tracked.length > 0 ? { alreadyTracked: trackedWords(tracked) } : {}),
		};
		results.output.push({
			json: answerOf(collector, itemIndex, Object.keys(extra).length > 0 ? { ...json, ...extra } : json),
			pairedItem,
		});
	}
	results.succeeded++;
}

/** Where an item's occurrences were tracked before: since when, or the earlier item of the run with the same key. */
function trackedWords(tracked: Tracked): IDataObject {
	const since = tracked.flatMap(({ since: at }) => (at ? [at] : [])).sort()[0];
	const sameKeyAs = tracked.find(({ sameKeyAs: at }) => at !== undefined)?.sameKeyAs;
	return { ...(since !== undefined && { trackedSince: since }), ...(sameKeyAs !== undefined && { sameKeyAs }) };
}

/**
 * Most items are one piece, sent and accepted with nothing to add: that piece and its outcome, so
 * the item's answer is built without the general path's lists (the run's own cost per item).
 */
function sentAsIs(
	pieces: Array<Piece> | undefined,
	outcomes: Map<Piece, PieceOutcome>,
): { piece: Piece; outcome: PieceOutcome } | undefined {
	if (pieces?.length !== 1) return undefined;
	const outcome = outcomes.get(pieces[0]);
	if (!outcome?.ok || outcome.unchanged || outcome.replacedBy !== undefined || outcome.replacedParts) return undefined;
	if (outcome.alreadyTracked) return undefined;
	if (outcome.unchangedParts || outcome.overrode) return undefined;
	if (outcome.warnings && outcome.warnings.length > 0) return undefined;
	return { piece: pieces[0], outcome };
}

/** The first failed piece decides an item's error; pieces never sent make it "not sent". */
function pieceFailure(
	itemIndex: number,
	row: string,
	pieces: Array<Piece>,
	outcomes: Map<Piece, PieceOutcome>,
): ItemFailure | undefined {
	let answered = 0;
	for (const piece of pieces) {
		const outcome = outcomes.get(piece);
		if (outcome?.ok) answered++;
		else if (outcome) return piecesFailure(itemIndex, row, pieces, outcomes);
	}
	if (answered === pieces.length) return undefined;
	return piecesFailure(itemIndex, row, pieces, outcomes);
}

function piecesFailure(
	itemIndex: number,
	row: string,
	pieces: Array<Piece>,
	outcomes: Map<Piece, PieceOutcome>,
): ItemFailure | undefined {
	const itemOutcomes = pieces.map((piece) => outcomes.get(piece));
	const firstError = itemOutcomes.find((outcome) => outcome && !outcome.ok);
	if (firstError && !firstError.ok) {
		const { error } = firstError;
		const applied = itemOutcomes.filter((outcome) => outcome?.ok).length;
		const partly = applied > 0 ? ` (${applied} of this item's ${pieces.length} parts were applied)` : '';
		return {
			itemIndex,
			row,
			message: `${error.message}${partly}`,
			description: error.description ?? '',
			delivery: error.delivery,
			httpCode: error.httpCode,
			response: error.response,
			...(error.ofTheRun && { ofTheRun: true }),
		};
	}
	if (itemOutcomes.every((outcome) => outcome !== undefined)) return undefined;
	return {
		itemIndex,
		row,
		message: 'Not sent: the run stopped at an earlier failure',
		description: `Fix the failure reported for an earlier item, or set ${ON_ERROR_CONTINUE} to send the other items anyway.`,
		delivery: 'not_sent',
	};
}

/** Of an item that was partly sent, the parts of its state left out as unchanged, e.g. ['city', 'plan']. */
function unchangedPartsOf(pieces: Array<{ piece: Piece; outcome: PieceOutcome }>): string[] | undefined {
	const parts = pieces.flatMap(({ outcome }) => (outcome.ok && outcome.unchangedParts) || []);
	return parts.length > 0 ? [...new Set(parts)].sort() : undefined;
}

/** Which parts of an item's state later items set instead, e.g. {tier: 7}: the item that has the last word. */
function replacedPartsOf(pieces: Array<{ piece: Piece; outcome: PieceOutcome }>): IDataObject | undefined {
	const parts: IDataObject = {};
	for (const { outcome } of pieces)
		if (outcome.ok && outcome.replacedParts) Object.assign(parts, outcome.replacedParts);
	return Object.keys(parts).length > 0 ? parts : undefined;
}

/**
 * A failed item on the one output (Continue (regular output)): the input item's fields, `error` with the
 * reason (as n8n's own nodes give it there, what an IF node and n8n's Retry On Fail read), and the full
 * answer in the node's field, `status` "failed" among it, so that a sheet mapping the field's status
 * writes every row's outcome.
 */
function regularErrorJson(failure: ItemFailure, input: IDataObject | undefined, field: string): IDataObject {
	const json = withAnswer(input, field, { status: 'failed', ...errorJson(failure) });
	setOwnKey(json, 'error', namedMessage(failure));
	return json;
}

function errorJson(failure: ItemFailure): IDataObject {
	const json: IDataObject = {
		error: namedMessage(failure),
		description: failure.description,
		delivery: failure.delivery,
	};
	if (failure.field) json.field = failure.field;
	if (failure.problems && failure.problems.length > 1) json.problems = failure.problems as unknown as IDataObject[];
	if (failure.httpCode) json.httpCode = failure.httpCode;
	if (failure.response) json.response = failure.response;
	return json;
}

/**
 * An error item as n8n routes it down the error branch and merges over the input item's fields: its
 * json is `error` alone or `error` and `message`, the one shape both lines take (n8n 1.x routes json of
 * `error` alone or `error` and `message`, both set; 2.x also takes `details`), and n8n lays it over the
 * input. `error` is the key n8n routes by, so it always carries this run's reason, naming the item once
 * and every problem (a row's own `error`, often what an earlier run's error branch wrote back, is
 * replaced by it); `message` is the delivery and what to do ("invalid: Give a number such as 59.90.")
 * where the input has no `message` of its own (a form's, a ticket's), else `error` says both. Every
 * other field of the input arrives as it came.
 */
function errorBranchJson(failure: ItemFailure, input: IDataObject | undefined): IDataObject {
	const what = namedMessage(failure);
	const todo = `${DELIVERY_WORDS[failure.delivery]} ${failure.description}`;
	const hasMessage = input !== undefined && Object.hasOwn(input, 'message');
	return hasMessage ? { error: `${what} — ${todo}` } : { error: what, message: todo };
}

/**
 * n8n's error for one item, as n8n's own nodes carry it: an input the node refused is a
 * NodeOperationError, anything the platform or the connection did is a NodeApiError. The message names
 * the row and n8n's item number (rowWords.ts), so the editor adds no "[item 1]" of its own.
 */
export function itemError(
	context: IExecuteFunctions,
	failure: ItemFailure,
	note = '',
): NodeOperationError | NodeApiError {
	const description = `${failure.description}${note}`;
	const message = namedMessage(failure);
	if (failure.delivery === 'invalid') {
		return new NodeOperationError(context.getNode(), message, { itemIndex: failure.itemIndex, description });
	}
	return apiError(context, failure, message, description, failure.itemIndex);
}

/** A failure that is the run's (a refused key): said once for the run, no item blamed. */
export function runError(context: IExecuteFunctions, failure: ItemFailure, note = ''): NodeApiError {
	return apiError(context, failure, failure.message, `${failure.description}${note}`);
}

/** What the platform or the connection did, as n8n's NodeApiError: of an item, or of the run without one. */
function apiError(
	context: IExecuteFunctions,
	failure: ItemFailure,
	message: string,
	description: string,
	itemIndex?: number,
): NodeApiError {
	const response: JsonObject = (failure.response as JsonObject | undefined) ?? { message: failure.message };
	return new NodeApiError(context.getNode(), response, {
		message,
		description,
		itemIndex,
		httpCode: failure.httpCode ? String(failure.httpCode) : undefined,
	});
}

/**
 * The failure as every error item and thrown error says it: the item named, unless the failure is the
 * run's or there is no row to name (an agent's tool call).
 */
export function namedMessage(failure: ItemFailure): string {
	return failure.ofTheRun || failure.row === '' ? failure.message : `${capitalized(failure.row)}: ${failure.message}`;
}

/** An item named by its row and number alone, where no identifying column is known. */
function plainRow(itemIndex: number): string {
	return rowNamer([], undefined)(itemIndex);
}

/** An error item's `message`: what happened to the item, as a sentence, before what to do. */
const DELIVERY_WORDS: Record<ItemFailure['delivery'], string> = {
	invalid: "Not sent: the node refused this item's input before sending it.",
	not_sent: 'Not sent: the run stopped before this item.',
	not_applied: 'Not applied: the platform refused it, so it is safe to send again once fixed.',
	maybe_applied: 'Maybe applied: the platform may have stored it before the answer was lost.',
};

/**
 * The input item's fields as they came, and the node's answer under `field`: one key added to a copy
 * of the row, where joining every key of both cost about 2 µs an item. An own `__proto__` key (of the
 * row, or as the field's name) stays a key.
 */
function withAnswer(input: IDataObject | undefined, field: string, answer: IDataObject): IDataObject {
	const json: IDataObject = input ? { ...input } : {};
	setOwnKey(json, field, answer);
	return json;
}
