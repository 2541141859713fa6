import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ON_ERROR_CONTINUE, counted, countedWas } from './results/runWords';
import type { ItemInputError } from './read/itemInputError';
import type { ItemFailure } from './results/itemResults';
import { collectItemResults, inputFailure, itemError, namedMessage, runError } from './results/itemResults';
import { rowNamer } from './results/rowWords';
import { replacedWordsHint } from './results/replacedWords';
import type { LastWord } from './plan/lastWord';
import { keepLastWord } from './plan/lastWord';
import { noteStatesAcrossNodes } from './plan/acrossNodes';
import { openEarlierTries } from './plan/earlierTries';
import { leaveOutTracked } from './plan/oncePerKey';
import type { PartlyUnchanged } from './plan/memory';
import { openMemory, provesNothing } from './plan/memory';
import { holdNodeContext } from './preview/nodeContextHeld';
import type { PreviewMemory } from './preview/previewMemory';
import { openPreviewMemory } from './preview/previewMemory';
import { previewRequests } from './preview/previewRequests';
import { addPreviewHint, previewWords } from './preview/previewWords';
import type { NodeOperation } from './nodeOperations';
import type { OperationSpec, Piece, PieceOutcome, RunSettings } from './operation';
import { planRequests } from './plan/planner';
import { readItems } from './read/readItems';
import { readRunSettings } from './runOptions';
import type { SendReport } from './send/sendRequests';
import { sendRequests } from './send/sendRequests';

/** A node's execute: the chosen operation's declaration, run by the engine. */
export async function executeChosenOperation(
	context: IExecuteFunctions,
	operations: NodeOperation[],
): Promise<INodeExecutionData[][]> {
	const chosen = context.getNodeParameter('operation', 0) as string;
	const declaration = operations.find(({ option }) => option.value === chosen);
	if (!declaration) throw new NodeOperationError(context.getNode(), `The operation "${chosen}" is not supported`);
	return await runOperation(context, declaration.operation, declaration.description);
}

/**
 * Runs one operation declaration over all input items: validate every item, keep each user's last
 * word, leave out what the platform holds already (Send Only Changes), plan the fewest requests,
 * send them paced, and give every item its own result or error, paired to it.
 */
async function runOperation(
	context: IExecuteFunctions,
	spec: OperationSpec,
	fields: INodeProperties[] = [],
): Promise<INodeExecutionData[][]> {
	const settings = readRunSettings(context, spec);
	if (!settings.preview) return await run(context, spec, settings, fields);
	// A preview remembers nothing: whatever the run writes to the node's context (earlier tries, a
	// transactional email's count of identical emails) goes back as it was once the run ends.
	const release = holdNodeContext(context);
	try {
		return await run(context, spec, settings, fields);
	} finally {
		release();
	}
}

async function run(
	context: IExecuteFunctions,
	spec: OperationSpec,
	settings: RunSettings,
	fields: INodeProperties[],
): Promise<INodeExecutionData[][]> {
	const itemCount = context.getInputData().length;
	const continueOnFail = context.continueOnFail();

	// A try n8n runs again (Retry On Fail, Executions → Retry) reads its items at the first try's time, and
	// what an earlier try got accepted is answered as it was then and not sent again; only the rest goes on.
	const tries = openEarlierTries(context);
	const runTime = tries.runTime ?? new Date().toISOString();
	const read = readItems(context, spec, itemCount, fields, runTime);
	const { inputErrors } = read;
	// An AI agent's tool call (n8n types the node `…Tool`) is one call of the model's: no row to name.
	const asTool = context.getNode().type.endsWith('Tool');
	const rowOf = asTool ? () => '' : rowNamer(context.getInputData(), read.identifyingColumn);
	if (inputErrors.size > 0 && !continueOnFail) {
		const invalid = [...inputErrors].sort(([left], [right]) => left - right);
		throw invalidInputError(
			context,
			invalid.map(([itemIndex, error]) => inputFailure(itemIndex, error, rowOf(itemIndex))),
		);
	}

	const { pieces, accepted: acceptedBefore } = tries.match(read.pieces);
	// Track Once Per Key: occurrences whose key this node got accepted before are answered, not sent.
	const once = await leaveOutTracked(context, spec, settings, pieces, acceptedBefore, runTime);
	const accepted = once.answered;
	const sent = await sendFresh(context, spec, settings, pieces, accepted, !continueOnFail);
	await once.close(sent.outcomes);
	const report = accepted.size > 0 ? { ...sent, outcomes: new Map([...accepted, ...sent.outcomes]) } : sent;

	// Kept for a try to come: the run fails (n8n's Retry On Fail, or Executions → Retry from the saved
	// execution), or its first item holds an `error` that is not undefined, which makes n8n 1.x try it
	// again (2.x only one that is not null or false: 1.x's rule covers both).
	const output = finish(context, spec, settings, { itemCount, pieces, inputErrors, rowOf }, report, () =>
		tries.close(report.outcomes, true, runTime),
	);
	tries.close(report.outcomes, output[0]?.[0]?.json?.error !== undefined, runTime);
	return output;
}

/**
 * Sends the pieces no earlier try got accepted. Pieces that set state first keep each part's last word,
 * and leave out what the platform holds already (Send Only Changes); pieces that set none go straight to
 * the plan.
 */
async function sendFresh(
	context: IExecuteFunctions,
	spec: OperationSpec,
	settings: RunSettings,
	pieces: Piece[],
	accepted: Map<Piece, PieceOutcome>,
	stopAtFirstFailure: boolean,
): Promise<SendReport> {
	const fresh = accepted.size > 0 ? pieces.filter((piece) => !accepted.has(piece)) : pieces;
	const send = settings.preview ? previewRequests : sendRequests;
	if (!spec.stateSlots)
		return await send(context, spec, settings, planRequests(fresh, spec.shape, settings.lowered), stopAtFirstFailure);
	// An earlier try sent them all: nothing to compare with what the workflow remembers, nor to record.
	if (fresh.length === 0) return { outcomes: new Map(), requestsSent: 0, requestsSkipped: 0 };

	// The last word is the whole run's, earlier tries' pieces included: a part that a later item set in an
	// earlier try stays that item's, and an earlier item sent now leaves it out.
	// Every part is read where it is compared (Send Only Changes) or noted for other nodes (a state no answer proves).
	const everyPart = settings.sentBefore !== undefined || provesNothing(spec);
	const lastWord = withoutAccepted(keepLastWord(spec, pieces, everyPart), accepted);
	const memory: PreviewMemory = settings.preview
		? await openPreviewMemory(context, settings.sentBefore)
		: await openMemory(context, spec, lastWord, settings.sentBefore);
	if (!memory.ok) return storeUnavailable(fresh, memory.reason);
	const { toSend, leftOut } = leaveOutUnchanged(lastWord, memory.unchanged, memory.partlyUnchanged);

	const requests = planRequests(toSend, spec.shape, settings.lowered);
	let report: SendReport | undefined;
	try {
		report = await send(context, spec, settings, requests, stopAtFirstFailure);
	} finally {
		await memory.close(report?.outcomes);
	}
	if (memory.undecided) markIfChanged(spec, report.outcomes);
	const answers = answersOfInputPieces(lastWord, report.outcomes, leftOut, memory.partlyUnchanged);
	return { ...report, outcomes: settings.preview ? answers : noteStatesAcrossNodes(context, spec, answers) };
}

/** Preview with Send Only Changes: the pieces whose acceptance it would remember, it checks at the real run. */
function markIfChanged(spec: OperationSpec, outcomes: Map<Piece, PieceOutcome>): void {
	for (const [piece, outcome] of outcomes)
		if (outcome.ok && outcome.preview && spec.stateSlots?.[piece.slot]?.provenByAcceptance)
			outcome.preview.ifChanged = true;
}

/** The run's last word less what an earlier try got accepted (answered as it was then). */
function withoutAccepted(lastWord: LastWord, accepted: Map<Piece, PieceOutcome>): LastWord {
	if (accepted.size === 0) return lastWord;
	const inputPieceOf = (piece: Piece) => lastWord.partlyReplaced.get(piece)?.original ?? piece;
	const isFresh = (piece: Piece) => !accepted.has(inputPieceOf(piece));
	return {
		...lastWord,
		pieces: lastWord.pieces.filter(isFresh),
		replaced: new Map([...lastWord.replaced].filter(([piece]) => isFresh(piece))),
		partlyReplaced: new Map([...lastWord.partlyReplaced].filter(([piece]) => isFresh(piece))),
		parts: new Map([...lastWord.parts].filter(([piece]) => isFresh(piece))),
	};
}

/** Sends only what the platform does not hold already (Send Only Changes): whole pieces, or their changed parts. */
function leaveOutUnchanged(
	lastWord: LastWord,
	unchanged: Set<Piece> | undefined,
	partlyUnchanged: Map<Piece, PartlyUnchanged> | undefined,
): { toSend: Piece[]; leftOut: Piece[] } {
	if ((!unchanged || unchanged.size === 0) && !partlyUnchanged?.size) return { toSend: lastWord.pieces, leftOut: [] };
	return {
		toSend: lastWord.pieces
			.filter((piece) => !unchanged?.has(piece))
			.map((piece) => partlyUnchanged?.get(piece)?.sent ?? piece),
		leftOut: lastWord.pieces.filter((piece) => unchanged?.has(piece)),
	};
}

/** Every input piece's answer: sent (whole or its changed parts), left out as unchanged, or replaced by a later item's. */
function answersOfInputPieces(
	lastWord: LastWord,
	outcomes: Map<Piece, PieceOutcome>,
	leftOut: Piece[],
	partlyUnchanged: Map<Piece, PartlyUnchanged> = new Map(),
): Map<Piece, PieceOutcome> {
	if (
		lastWord.replaced.size === 0 &&
		lastWord.partlyReplaced.size === 0 &&
		leftOut.length === 0 &&
		partlyUnchanged.size === 0
	)
		return outcomes;
	const answers = new Map<Piece, PieceOutcome>(lastWord.replaced);
	// A piece sent without its unchanged parts answers for the piece of the last word it was cut from.
	const trimmedFrom = new Map([...partlyUnchanged].map(([piece, { sent, unchanged }]) => [sent, { piece, unchanged }]));
	const lastWordOf = (piece: Piece) => trimmedFrom.get(piece)?.piece ?? piece;
	const inputPieceOf = (piece: Piece) => lastWord.partlyReplaced.get(lastWordOf(piece))?.original ?? lastWordOf(piece);
	const withParts = (
		piece: Piece,
		outcome: PieceOutcome,
		unchanged = trimmedFrom.get(piece)?.unchanged,
	): PieceOutcome => {
		const lost = outcome.ok ? lastWord.partlyReplaced.get(lastWordOf(piece))?.lost : undefined;
		if (!outcome.ok || (!lost && !unchanged)) return outcome;
		return {
			...outcome,
			...(lost && { replacedParts: lost }),
			...(unchanged && { unchangedParts: unchanged.map(({ label }) => label).sort() }),
		};
	};
	for (const [piece, outcome] of outcomes) answers.set(inputPieceOf(piece), withParts(piece, outcome));
	for (const piece of leftOut)
		answers.set(inputPieceOf(piece), withParts(piece, { ok: true, unchanged: true }, lastWord.parts.get(piece)));
	return answers;
}

/** What reading the items gave the run's end: the pieces, the invalid items, how an item is named. */
interface ReadRun {
	itemCount: number;
	pieces: Piece[];
	inputErrors: Map<number, ItemInputError>;
	rowOf: (itemIndex: number) => string;
}

/** Every item's answer from what happened to its pieces, the summary, the hints, and the error that stops the node. */
function finish(
	context: IExecuteFunctions,
	spec: OperationSpec,
	settings: RunSettings,
	{ itemCount, pieces, inputErrors, rowOf }: ReadRun,
	report: SendReport,
	beforeFailing?: () => void,
): INodeExecutionData[][] {
	const continueOnFail = context.continueOnFail();
	const previews = report.planned && previewWords(spec, pieces, report.outcomes, report.planned);
	const inputs = context.getInputData();
	const results = collectItemResults(spec, itemCount, pieces, report.outcomes, inputErrors, {
		inputs,
		field: settings.outputField,
		records: spec.answersWithRecords === true,
		errorOutput: context.getNode().onError === 'continueErrorOutput',
		previews,
		rowOf,
	});
	const replaced = spec.answersWithRecords ? undefined : replacedWordsHint(context, inputs, settings.outputField);
	if (replaced) context.addExecutionHints(replaced);
	if (report.planned && previews) {
		addPreviewHint(context, spec, itemCount, report.planned, previews);
		if (results.failures.length > 0 && !continueOnFail) throw invalidInputError(context, results.failures);
		return [results.output];
	}

	const summary =
		`${counted(itemCount, 'item')} → ${counted(report.requestsSent, 'request')}: ${results.succeeded} succeeded, ` +
		`${results.failures.length} failed` +
		(results.unchanged > 0 ? `, ${results.unchanged} unchanged and not sent` : '') +
		(results.replaced > 0 ? `, ${results.replaced} replaced by later items` : '') +
		(results.alreadyTracked > 0 ? `, ${results.alreadyTracked} tracked before and not sent` : '') +
		(report.requestsSkipped > 0 ? `, ${countedWas(report.requestsSkipped, 'request')} not sent` : '');
	context.logger.info(`Engagement Platform ${spec.endpoint.path}: ${summary}`);
	if (results.withWarnings > 0) {
		context.addExecutionHints({
			message: `${counted(results.withWarnings, 'item')} succeeded with a warning from the platform: see "warnings" on ${results.withWarnings === 1 ? 'it' : 'those items'}.`,
			type: 'warning',
			location: 'outputPane',
		});
	}

	if (results.replaced > 0) {
		context.addExecutionHints({
			message: `${countedWas(results.replaced, 'item')} not sent: a later item of this run sets the same state of the same user, so the platform ends on that item's value (see "replacedBy").`,
			type: 'info',
			location: 'outputPane',
		});
	}

	if (results.unchanged > 0) {
		context.addExecutionHints({
			message: `${countedWas(results.unchanged, 'item')} not sent: the platform holds ${results.unchanged === 1 ? 'its values' : 'their values'} already, as this workflow last had them accepted (Send Only Changes).`,
			type: 'info',
			location: 'outputPane',
		});
	}

	if (results.failures.length > 0 && continueOnFail) context.addExecutionHints(failedItemsHint(results.failures));

	if (results.failures.length > 0 && !continueOnFail) {
		const cause = results.failures.find((failure) => failure.delivery !== 'not_sent') ?? results.failures[0];
		beforeFailing?.();
		throw sendError(context, cause, summary);
	}
	return [results.output];
}

/** n8n's deduplication store could not be read: nothing is sent, and every piece says why (safe to send again). */
function storeUnavailable(pieces: Piece[], reason: string): SendReport {
	const error = {
		message: `Send Only Changes could not check what this node sent before (${reason}), so nothing was sent`,
		description:
			"The node keeps that in n8n's database. Check that n8n's database is reachable and run again, or turn off Send Only Changes in Options to send every item.",
		delivery: 'not_applied' as const,
		ofTheRun: true,
	};
	return {
		outcomes: new Map(pieces.map((piece) => [piece, { ok: false, error }])),
		requestsSent: 0,
		requestsSkipped: 0,
	};
}

/** With On Error set to continue: every failed item (the first ten) with its reason, in one place. */
function failedItemsHint(failures: ItemFailure[]): NodeExecutionHint {
	const listed = failures.slice(0, INVALID_ITEMS_LISTED).map(namedMessage);
	const unlisted = failures.length - listed.length;
	const rest = unlisted > 0 ? `; and ${counted(unlisted, 'more item')}` : '';
	return {
		message: `${counted(failures.length, 'item')} failed (each has its error item): ${listed.join('; ')}${rest}.`,
		type: 'warning',
		location: 'outputPane',
	};
}

/** At most this many invalid items are listed in a stopping error's description, each with its reason. */
const INVALID_ITEMS_LISTED = 10;

/**
 * The error that stops a run with invalid items: the first item's reason, and every other invalid item
 * listed with its own, so that one run shows every row to fix.
 */
function invalidInputError(context: IExecuteFunctions, failures: ItemFailure[]): NodeOperationError | NodeApiError {
	const [failure, ...others] = failures;
	// The same problem in every item is the run's: said once, no item blamed.
	if (failure.ofTheRun)
		return new NodeOperationError(context.getNode(), failure.message, {
			description: `${failure.description} Nothing was sent.`,
		});
	return itemError(
		context,
		failure,
		` Nothing was sent. To send the valid items and get an error item for each invalid one, set ${ON_ERROR_CONTINUE}.${othersListed(others)}`,
	);
}

function othersListed(others: ItemFailure[]): string {
	if (others.length === 0) return '';
	const listed = others.slice(0, INVALID_ITEMS_LISTED).map((failure) => `\n- ${namedMessage(failure)}`);
	const unlisted = others.length - listed.length;
	const rest = unlisted > 0 ? `\n- and ${counted(unlisted, 'more item')}` : '';
	return ` ${counted(others.length, 'more item')} ${others.length === 1 ? 'is' : 'are'} invalid too:${listed.join('')}${rest}`;
}

/** The error that stops the node: the run's own cause said once, or the first failed item's. */
function sendError(
	context: IExecuteFunctions,
	failure: ItemFailure,
	summary: string,
): NodeOperationError | NodeApiError {
	// Going on past failed items would not help: every request of the run meets a refused key.
	if (failure.ofTheRun) return runError(context, failure, ` (${summary}.)`);
	return itemError(
		context,
		failure,
		` (${summary}.) To get a result or an error item for every item, set ${ON_ERROR_CONTINUE}.`,
	);
}
