import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { ICheckProcessedOptions, IDataObject, IDeduplicationOutput, IExecuteFunctions } from 'n8n-workflow';

import type { Piece, PieceOutcome, SentBeforeSettings, StatePart } from '../operation';
import type { Freshness } from './freshness';
import { freshnessOf } from './freshness';
import type { KnownRegisters, Registers } from './registers';
import { advancedRegisters, confirmationOf, keepRegisters, knownRegisters } from './registers';
import {
	contactOf,
	contactSetByEntry,
	dueEntry,
	ownRunEntry,
	partSetEntry,
	RUNNING_ENTRY,
	userIn,
	valueEntry,
} from './storeEntries';

/**
 * "Send Only Changes": for each workspace, user and part of their state (an attribute, a group state),
 * the last value this workflow got accepted, so that a part is left out only when the platform holds
 * the item's value already: a piece all of whose parts it holds is not sent, and a piece holding some
 * sends the others alone (each attribute written is a data point the platform counts).
 *
 * n8n's deduplication store (scope `workflow`, shared by every node of the workflow, kept in n8n's
 * database) is a set of strings, not a map: an old value cannot be found and taken out when a new one
 * is accepted. So what is remembered is kept by generation, one per execution: a run reads the
 * generation of the execution before (the last word every node of the workflow had accepted then)
 * and writes each piece it sends or leaves out into its own. A value that went back is absent from
 * the generation before, so it is sent; a user this execution did not touch is forgotten, and sent
 * the next time it comes. The oldest generations fall out of the store past History Size.
 *
 * Two generation registers (the latest and the one before it) are kept as one-hot bits. Every doubt
 * sends, by forgetting everything once the run's own requests are answered: a run that found another
 * run of the workflow unfinished (overlapping, or stopped mid-run), a run that set a part of a contact
 * (an attribute, a group state) to another value than another node or loop pass of the same execution
 * did (writtenEntries: nodes that set other parts never meet), and every run of a node that writes the same state
 * without the option (at its start and at its end). Whichever run's requests landed last, nothing
 * written before the forgetting is trusted, and what is written after it was sent after it.
 *
 * n8n's store calls are not atomic when executions run at once (queue mode's workers, or executions side
 * by side in one process): n8n keeps a workflow's entries in one row of `processed_data` (primary key
 * workflowId + context), and each call reads the row, then inserts it when there was none or writes it
 * back whole, with no transaction or lock between (n8n's DeduplicationHelper, the same in 1.x and 2.x).
 * Two calls at once can then (1) both find no row, and the second insert fails on the primary key, and
 * (2) both read the row, and the second write drops what the first wrote (or brings back what it took
 * out). (1) is a race lost, not a failure: the call is made again (see `madeAgain`). (2) cannot be
 * prevented through n8n's helpers, so it is detected: each run writes an entry of its own when it
 * starts and checks that it is still there when it reads what was sent before and when it records its
 * end. A run whose entry went, or whose call lost a creation race, overlapped another and trusts
 * nothing it read, and forgets everything at its end, as a run that found another unfinished does.
 *
 * Entries name the workspace by a keyed hash of the credential's endpoint (HMAC with the API key as
 * the key): another workspace or key is another memory, and the key itself is never stored.
 */

interface SentBefore {
	/** Pieces not to send: the platform holds their values already. */
	unchanged: Set<Piece>;
	/** Pieces to send without these of their parts: the platform holds their values already. */
	partlyUnchanged: Map<Piece, StatePart[]>;
	/** Why this run sends every item it sets, in the marketer's words; undefined when it compares them. */
	sendsAllBecause?: string;
	/**
	 * Parts another node or an earlier pass of this node set to another value in this execution: this
	 * run's value is the platform's last word, and the workflow forgets all it remembered at this run's end.
	 */
	overridden: StatePart[];
	/**
	 * Keeps what the platform accepted and proved, takes back the rest, and closes the run's generation.
	 * `failure`: the store could not be written, so the run is left unfinished for the next run.
	 */
	recordEnd(outcomes: Map<Piece, PieceOutcome> | undefined): Promise<{ doubted: boolean; failure?: string }>;
}

export type SentBeforeCheck = { ok: true; sentBefore: SentBefore } | { ok: false; reason: string };

export interface SentBeforeInput {
	/** The state pieces to send (after the run's last word), with the parts each sets. */
	parts: Map<Piece, StatePart[]>;
	/** Pieces whose acceptance proves nothing of their state (see StateSlot.provenByAcceptance). */
	unprovable: Set<Piece>;
	/** Where the credential points: endpoint and API key. */
	workspace: { endpoint: string; key: string };
}

/** Calls of n8n's store made in all when one loses a creation race (see `madeAgain`). */
const CREATION_RACE_TRIES = 4;
/** A run's own entry while it runs (see `planEntries` and `recordEnd`). */

export async function checkSentBefore(
	context: IExecuteFunctions,
	input: SentBeforeInput,
	settings: SentBeforeSettings,
): Promise<SentBeforeCheck> {
	try {
		return { ok: true, sentBefore: await check(context, input, settings) };
	} catch (error) {
		return { ok: false, reason: (error as Error).message };
	}
}

/**
 * Reads what the runs before left, asks the workflow's record for every piece's entries, and sorts the
 * pieces by its answer; `recordEnd` closes the run once its requests are answered.
 */
async function check(
	context: IExecuteFunctions,
	input: SentBeforeInput,
	settings: SentBeforeSettings,
): Promise<SentBefore> {
	const store = storeOf(context, settings);
	if (settings.forget) await clearWorkflow(store);

	const before = await readBefore(context, store);
	const { current, known } = before;
	const now = Date.now();
	const { planned, asked, own } = planEntries(context, input, settings, before, now);
	const { seen, claimed, confirmed } = await openRecord(store, before.confirmation, asked);

	const registers: Registers = confirmed !== undefined ? known.registers : {};
	// What the execution before left is trusted only if no other run was running or wrote at the same moment.
	const trusted = !seen.has(RUNNING_ENTRY) && !store.raced;
	const previous = trusted && confirmed !== undefined ? known.previous : undefined;
	const advance = registers.latest !== current;
	const freshness =
		settings.resendEveryDays > 0 ? freshnessOf(settings.resendEveryDays, registers, now, advance) : undefined;
	const sorted = sortPieces(planned, seen, previous);
	const run: OpenRun = {
		context,
		store,
		before,
		confirmed,
		registers,
		trusted,
		previous,
		advance,
		freshness,
		planned,
		sorted,
		claimed,
		own,
	};
	return {
		unchanged: sorted.unchanged,
		partlyUnchanged: sorted.partlyUnchanged,
		overridden: sorted.conflicts,
		sendsAllBecause: sendsAllBecause(trusted, previous),
		recordEnd: async (outcomes) => await recordEnd(run, outcomes),
	};
}

/** n8n's store as a run calls it: the workflow's record and the node's. */
interface Store {
	helpers: IExecuteFunctions['helpers'];
	/** The workflow's record, which History Size bounds. */
	options: ICheckProcessedOptions;
	nodeOptions: ICheckProcessedOptions;
	/** That a call of this run lost a creation race: another run created the store at the same moment. */
	raced: boolean;
}

function storeOf(context: IExecuteFunctions, settings: SentBeforeSettings): Store {
	return {
		helpers: context.helpers,
		options: { mode: 'entries', maxEntries: settings.historySize },
		// The node's record holds its registers alone (a few hundred entries): History Size bounds what is
		// remembered of contacts, and would only cut the registers short.
		nodeOptions: { mode: 'entries' },
		raced: false,
	};
}

async function recordInWorkflow(store: Store, entries: string[]): Promise<IDeduplicationOutput> {
	return await madeAgain(
		async () => await store.helpers.checkProcessedAndRecord(entries, 'workflow', store.options),
		() => (store.raced = true),
	);
}

async function recordInNode(store: Store, entries: string[]): Promise<IDeduplicationOutput> {
	return await madeAgain(
		async () => await store.helpers.checkProcessedAndRecord(entries, 'node', store.nodeOptions),
		() => {},
	);
}

async function removeFromWorkflow(store: Store, entries: string[]): Promise<void> {
	if (entries.length > 0) await store.helpers.removeProcessed(entries, 'workflow', store.options);
}

async function clearWorkflow(store: Store): Promise<void> {
	await store.helpers.clearAllProcessedItems('workflow', store.options);
}

/** What a run read of the runs before it, from the node's record: not yet confirmed by the workflow's. */
interface ReadBefore {
	/** This execution's generation. */
	current: number;
	known: KnownRegisters;
	/** The workflow's entry that confirms the registers read; undefined for registers never recorded. */
	confirmation: string | undefined;
}

/**
 * What this run compares with is read from the node's small record (registers.ts) and confirmed by one
 * entry of the workflow's, asked for with everything else: one call reads the workflow's record.
 */
async function readBefore(context: IExecuteFunctions, store: Store): Promise<ReadBefore> {
	const current = generationOf(context);
	const known = await knownRegisters(
		context,
		current,
		store.nodeOptions,
		async (entries) => await recordInNode(store, entries),
	);
	return { current, known, confirmation: confirmationOf(known.registers) };
}

/** The pieces' plans, and every entry the run asks the workflow's record for, its own entry last. */
interface Plan {
	planned: PiecePlan[];
	asked: string[];
	own: string;
}

function planEntries(
	context: IExecuteFunctions,
	input: SentBeforeInput,
	settings: SentBeforeSettings,
	{ current, known, confirmation }: ReadBefore,
	now: number,
): Plan {
	const workspace = workspaceOf(input.workspace);
	// Planned as if the values read are confirmed; what the confirmation denies is not trusted once the
	// workflow's record answers (`check`).
	const optimisticFreshness =
		settings.resendEveryDays > 0
			? freshnessOf(settings.resendEveryDays, known.registers, now, known.registers.latest !== current)
			: undefined;
	// Each part's value is asked once (a piece gives each part's last word alone); who set a contact and when
	// it is due are asked per piece, so a contact several pieces name would ask them again.
	const valueEntries: string[] = [];
	const entries = new Set<string>();
	const node = context.getNode().id;
	const setBefore = nodesThatSetParts(context, node, input.parts);
	const planned = [...input.parts].map(([piece, parts]) => {
		const plan = planPiece(
			{ workspace, node, current, previous: known.previous, setBefore },
			piece,
			parts,
			!input.unprovable.has(piece),
			optimisticFreshness,
		);
		for (const { entry } of plan.written) entries.add(entry);
		for (const { now, was } of plan.values ?? []) {
			valueEntries.push(now);
			if (was !== undefined) valueEntries.push(was);
		}
		for (const { entry } of plan.dueBefore ?? []) entries.add(entry);
		return plan;
	});
	// The run's own entry, written last so that History Size drops it after everything the call adds, is
	// checked at the end: gone, another run's write went over this run's, and nothing it wrote is proven.
	const own = ownRunEntry(randomUUID());
	const asked = [RUNNING_ENTRY, ...(confirmation ? [confirmation] : []), ...entries, ...valueEntries, own];
	return { planned, asked, own };
}

/** What the workflow's record answered the run's entries. */
interface Opened {
	/** The entries it held already. */
	seen: Set<string>;
	/** The entries this run's call added. */
	claimed: Set<string>;
	/** The confirmation of the registers read, when the record held it; undefined when it did not. */
	confirmed: string | undefined;
}

/**
 * Asks the workflow's record for the run's entries with the confirmation of the registers read. A record
 * that cannot hold what this run compares with is cleared first, and this run starts it anew.
 */
async function openRecord(store: Store, confirmation: string | undefined, asked: string[]): Promise<Opened> {
	// Values not confirmed are another node's, superseded, or none: the workflow's record may hold what a
	// run whose values this one cannot name compares with, so it is cleared, and this run starts it anew.
	if (confirmation === undefined && (await store.helpers.getProcessedDataCount('workflow', store.options)) > 0)
		await clearWorkflow(store);
	let checked = await recordInWorkflow(store, asked);
	const confirmed = confirmation !== undefined && checked.processed.map(String).includes(confirmation);
	if (confirmation !== undefined && !confirmed) {
		await clearWorkflow(store);
		checked = await recordInWorkflow(
			store,
			asked.filter((entry) => entry !== confirmation),
		);
	}
	return {
		seen: new Set(checked.processed.map(String)),
		claimed: new Set(checked.new.map(String)),
		confirmed: confirmed ? confirmation : undefined,
	};
}

/** The pieces as the workflow's record says they stand (see sortPiece). */
interface Sorted {
	unchanged: Set<Piece>;
	partlyUnchanged: Map<Piece, StatePart[]>;
	/** Pieces sent whole only because Resend Everything Every says they are due (some or all of their values held). */
	resent: Set<Piece>;
	/** Pieces left out in all or part because they are not due: the slice they are due in, to write again. */
	dueKept: Map<Piece, number>;
	/** The parts another node or pass of this execution set to another value: the platform keeps this run's. */
	conflicts: StatePart[];
}

function sortPieces(planned: PiecePlan[], seen: Set<string>, previous: number | undefined): Sorted {
	const sorted: Sorted = {
		unchanged: new Set(),
		partlyUnchanged: new Map(),
		resent: new Set(),
		dueKept: new Map(),
		conflicts: [],
	};
	for (const plan of planned) sortPiece(sorted, plan, seen, previous);
	return sorted;
}

/**
 * Sorts one piece: unchanged (left out), partly unchanged (its changed parts sent alone), resent (due),
 * kept to its due slice, or sent whole; and notes the parts it set otherwise than another node or pass.
 */
function sortPiece(
	sorted: Sorted,
	{ piece, parts, values, written, dueBefore }: PiecePlan,
	seen: Set<string>,
	previous: number | undefined,
): void {
	// Another node or loop pass of this execution set some of these parts already. Where it set the same
	// value, the platform holds it; where another, whichever landed last is the platform's, and this
	// execution's generation cannot be trusted for it.
	const setByOthers = new Set(written.filter(({ entry }) => seen.has(entry)).flatMap(({ keys }) => [...keys]));
	const heldNow = parts.map((_, index) => values !== undefined && seen.has(values[index].now));
	const overridden = parts.filter(({ key }, index) => setByOthers.has(key) && !heldNow[index]);
	sorted.conflicts.push(...overridden);
	if (values === undefined) return;
	// Held by this execution already: an earlier node or pass got these values accepted after deciding
	// they were not due, or sent them when due, and wrote down when they are due next.
	if (heldNow.every(Boolean)) {
		sorted.unchanged.add(piece);
		return;
	}
	// Set otherwise by another node or pass of this execution: any doubt sends the whole piece.
	if (overridden.length > 0 || previous === undefined) return;
	const held = values.map(({ now, was }) => seen.has(now) || (was !== undefined && seen.has(was)));
	if (!held.some(Boolean)) return;
	const due = dueBefore?.find(({ entry }) => seen.has(entry))?.due;
	if (dueBefore !== undefined && due === undefined) {
		sorted.resent.add(piece);
		return;
	}
	if (due !== undefined) sorted.dueKept.set(piece, due);
	if (held.every(Boolean)) sorted.unchanged.add(piece);
	else {
		// A part is sent when any value the piece gives its key is new (a group listed twice).
		const changedKeys = new Set(parts.filter((_, index) => !held[index]).map(({ key }) => key));
		sorted.partlyUnchanged.set(
			piece,
			parts.filter(({ key }) => !changedKeys.has(key)),
		);
	}
}

function sendsAllBecause(trusted: boolean, previous: number | undefined): string | undefined {
	return !trusted
		? 'another run of this workflow had not finished, or ran at the same time (it may have changed what was remembered). That run may still be sending, so this one forgets what it sent too: the next run sends every item once more, and the one after it leaves out what the platform holds'
		: previous === undefined
			? 'nothing was remembered to compare with (the first run with the option, a run after Forget What Was Sent, or after a run that could not trust what it remembered, whose hint or log said why). The next run leaves out what the platform holds'
			: undefined;
}

/** A run as it opened the workflow's record: what its end keeps, takes back and checks (recordEnd). */
interface OpenRun {
	context: IExecuteFunctions;
	store: Store;
	before: ReadBefore;
	confirmed: string | undefined;
	/** The registers this run compares with: those read, when the record confirmed them. */
	registers: Registers;
	trusted: boolean;
	/** The generation this run compares with; undefined when it compares with none. */
	previous: number | undefined;
	/** That this run starts its execution's generation in the registers. */
	advance: boolean;
	freshness: Freshness | undefined;
	planned: PiecePlan[];
	sorted: Sorted;
	claimed: Set<string>;
	own: string;
}

/** SentBefore's recordEnd for the run. */
async function recordEnd(
	run: OpenRun,
	outcomes: Map<Piece, PieceOutcome> | undefined,
): Promise<{ doubted: boolean; failure?: string }> {
	const { store, before, confirmed, advance, own } = run;
	const doubted = run.previous === undefined || !run.trusted;
	const forget = async () => {
		await clearWorkflow(store);
		return { doubted: true };
	};
	try {
		if (run.sorted.conflicts.length > 0 || !run.trusted) return await forget();
		const after: KnownRegisters = advance
			? {
					registers: advancedRegisters(before.current, run.freshness?.scheduleAfter() ?? run.registers),
					previous: run.previous,
				}
			: { registers: run.registers, previous: before.known.previous };
		const confirmedAfter = advance ? confirmationOf(after.registers) : undefined;
		const { takeBack, marks } = endEntries(run, outcomes);
		// The run's own entry is checked once more with the new confirmation: gone, this run's writes may have
		// been overwritten by another run's since it read what was sent before, so the next run must send.
		const ended = await recordInWorkflow(store, [...marks, ...(confirmedAfter ? [confirmedAfter] : []), own]);
		if (store.raced || !ended.processed.map(String).includes(own)) return await forget();
		// The confirmation this run read is the workflow's no more once it wrote its own.
		const replaced = confirmed !== undefined && advance ? [confirmed] : [];
		await removeFromWorkflow(store, [...replaced, ...takeBack, RUNNING_ENTRY, own]);
		await keepRegisters(
			run.context,
			before.current,
			after,
			store.nodeOptions,
			async (entries) => await recordInNode(store, entries),
		);
	} catch (error) {
		return { doubted, failure: (error as Error).message };
	}
	return { doubted };
}

/**
 * What the run's end writes and takes back: the values it claimed but the platform did not accept, and
 * with Resend Everything Every, the slice each contact is due again in.
 */
function endEntries(
	{ planned, sorted, claimed, freshness, before }: OpenRun,
	outcomes: Map<Piece, PieceOutcome> | undefined,
): { takeBack: string[]; marks: string[] } {
	const { unchanged, partlyUnchanged, dueKept, resent } = sorted;
	const takeBack: string[] = [];
	const marks: string[] = [];
	for (const { piece, values, contact } of planned) {
		const outcome = outcomes?.get(piece);
		const accepted = outcome?.ok === true && !outcome.unproven && !unchanged.has(piece);
		// A part left out stays held whatever became of the parts sent beside it.
		const leftOut = new Set(partlyUnchanged.get(piece)?.map(({ key }) => key));
		for (const { key, now: entry } of values ?? [])
			if (claimed.has(entry) && !unchanged.has(piece) && !leftOut.has(key) && !accepted) takeBack.push(entry);
		if (contact === undefined || freshness === undefined) continue;
		// Left out (in all or part) as not due: due as before. Sent whole and accepted: due anew. The parts a
		// partial send left out were not sent, so a partial send does not move the contact's turn.
		const kept = dueKept.get(piece);
		const due =
			kept ?? (accepted && !partlyUnchanged.has(piece) ? freshness.dueOfSend(contact, resent.has(piece)) : undefined);
		if (due !== undefined) marks.push(dueEntry(before.current, contact, due));
	}
	return { takeBack, marks };
}

interface PiecePlan {
	piece: Piece;
	parts: StatePart[];
	/**
	 * Per part (in the order of `parts`), when the piece's acceptance proves them: this execution's entry
	 * of its value, and the execution before's entry of the same value.
	 */
	values?: Array<{ key: string; now: string; was?: string }>;
	/**
	 * That this node set the contact in this execution, and what tells that another node, or an earlier
	 * pass of this one, set some of these parts: each entry with the parts' keys it stands for.
	 */
	written: Array<{ entry: string; keys: ReadonlySet<string> }>;
	/** Who the piece's due slice is kept by (workspace, user and piece), with Resend Everything Every. */
	contact?: string;
	/**
	 * The entries the execution before wrote for each slice the piece can be due in to be left out now
	 * (see freshness.ts): none found, it is due.
	 */
	dueBefore?: Array<{ due: number; entry: string }>;
}

/**
 * What a state piece is remembered by: each part's value on its own (a changed contact sends its
 * changed parts alone, each attribute written being a data point), who it is about, and the parts
 * another endpoint also sets. One entry per part and execution: the store holds about as many entries
 * per contact as the attributes and group states a run sets for them, plus one, and with Resend
 * Everything Every up to five more (see freshness.ts).
 */
interface Where {
	workspace: string;
	node: string;
	current: number;
	previous: number | undefined;
	/** The nodes that set parts earlier in this execution (this one's earlier passes too), with their keys. */
	setBefore: Map<string, ReadonlySet<string>>;
}

function planPiece(
	{ workspace, node, current, previous, setBefore }: Where,
	piece: Piece,
	parts: StatePart[],
	provable: boolean,
	freshness: Freshness | undefined,
): PiecePlan {
	const user = userIn(workspace, parts[0].user);
	const written = writtenEntries(user, node, current, setBefore, piece, parts, provable);
	if (!provable) return { piece, parts, written };
	// Each node keeps its own turn to be resent: two nodes setting other attributes of one contact are due apart.
	const contact = contactOf(user, piece.slot, node);
	return {
		piece,
		parts,
		contact,
		// Asking for the execution before's due entries writes those it did not hold under that execution:
		// nothing reads them again, since every run of this execution that reads that execution's entries of
		// the same contact finds that this one wrote the contact, and trusts none of them.
		dueBefore:
			freshness && previous !== undefined
				? freshness.dueCandidates(contact).map((due) => ({ due, entry: dueEntry(previous, contact, due) }))
				: undefined,
		values: parts.map(({ key, value }) => ({
			key,
			now: valueEntry(current, user, piece.slot, key, value),
			was: previous !== undefined ? valueEntry(previous, user, piece.slot, key, value) : undefined,
		})),
		written,
	};
}

/**
 * What tells, per contact, which nodes of this execution set which of its parts. One entry per contact
 * and node says that the node set the contact (`w`); a node looks only for the entries of the nodes
 * whose parts overlap its own (nodesThatSetParts), so that two nodes setting other attributes of the
 * same contacts never meet. A part another endpoint sets too (a group state), and every part of a piece
 * whose acceptance proves nothing, has an entry of its own (`g`), whichever node set it.
 */
function writtenEntries(
	user: string,
	node: string,
	current: number,
	setBefore: Map<string, ReadonlySet<string>>,
	piece: Piece,
	parts: StatePart[],
	provable: boolean,
): PiecePlan['written'] {
	const contactSetBy = (by: string) => contactSetByEntry(current, user, piece.slot, by);
	const written: PiecePlan['written'] = parts
		.filter((part) => !provable || part.alsoSetElsewhere === true)
		.map(({ key }) => ({ entry: partSetEntry(current, user, key), keys: new Set([key]) }));
	if (!provable) return written;
	const keys = parts.map(({ key }) => key);
	for (const [other, set] of setBefore) {
		const shared = keys.filter((key) => set.has(key));
		if (shared.length > 0) written.push({ entry: contactSetBy(other), keys: new Set(shared) });
	}
	const own = contactSetBy(node);
	if (!written.some(({ entry }) => entry === own)) written.push({ entry: own, keys: new Set() });
	return written;
}

/**
 * The nodes that set parts earlier in this execution (this node's earlier passes too), each with the
 * keys of the parts it set, from the execution's own context (n8n keeps it with the execution, for
 * every node of it); then this run's keys are added under this node, for the nodes after it.
 */
function nodesThatSetParts(
	context: IExecuteFunctions,
	node: string,
	parts: Map<Piece, StatePart[]>,
): Map<string, ReadonlySet<string>> {
	const flow = context.getContext('flow') as IDataObject;
	const byNode = (flow.statePartsByNode ??= {}) as Record<string, string[]>;
	const before = new Map(Object.entries(byNode).map(([other, keys]) => [other, new Set(keys)]));
	const own = new Set(byNode[node]);
	for (const pieceParts of parts.values()) for (const { key } of pieceParts) own.add(key);
	byNode[node] = [...own];
	return before;
}

/**
 * Makes a call of n8n's store again when it lost a creation race: it found no row for the workflow, and
 * its insert failed on the row's primary key because another call (another execution's) created the row
 * in between. A failed insert writes nothing, and the row exists now, so the call made again reads it and
 * adds to it, overwriting nothing the other call recorded, and answers as processed only what that call
 * (or an earlier one) recorded. Any other error is not retried: a call whose write may have landed, made
 * again, would answer this run's own entries as recorded before it.
 */
export async function madeAgain<T>(call: () => Promise<T>, lostRace: () => void): Promise<T> {
	for (let tries = 1; tries < CREATION_RACE_TRIES; tries++) {
		const attempt = call();
		// Settled either way: its value, or any error but a lost creation race, goes to the caller as it is.
		if (!(await attempt.then(() => false, lostCreationRace))) return await attempt;
		lostRace();
	}
	return await call();
}

/**
 * Whether n8n's store failed on its row's primary key: TypeORM's QueryFailedError with the driver's
 * code and words (Postgres' unique_violation 23505; SQLite's UNIQUE constraint; MySQL's and MariaDB's
 * ER_DUP_ENTRY, n8n 1.x). The row's only unique key is that primary key.
 */
function lostCreationRace(error: unknown): boolean {
	if (typeof error !== 'object' || error === null) return false;
	const { code, message } = error as { code?: unknown; message?: unknown };
	return (
		code === '23505' ||
		code === 'ER_DUP_ENTRY' ||
		/duplicate key value violates unique constraint|UNIQUE constraint failed|^Duplicate entry /i.test(String(message))
	);
}

/**
 * A node that sets the same state without Send Only Changes writes past what is remembered: the
 * workflow forgets it all when the node starts and again once its requests are answered (a delete
 * in n8n's database each), so that no run with the option trusts a value this node may have changed,
 * even one running at the same time.
 */
export async function forgetWhatWasSent(context: IExecuteFunctions): Promise<string | undefined> {
	// Without a saved workflow's ID there is nothing remembered, and n8n's store must not be asked.
	const workflowId = context.getWorkflow().id;
	if (typeof workflowId !== 'string' || workflowId === '') return undefined;
	try {
		await context.helpers.clearAllProcessedItems('workflow', { mode: 'entries' });
		return undefined;
	} catch (error) {
		return (error as Error).message;
	}
}

/** This execution's generation: every node and loop of one execution shares it. */
function generationOf(context: IExecuteFunctions): number {
	const execution = context.getExecutionId?.() ?? '';
	const seed = execution !== '' ? `${context.getWorkflow().id ?? ''} ${execution}` : `${Math.random()} ${Date.now()}`;
	return createHash('sha256').update(seed).digest().readUInt32BE(0);
}

export function workspaceOf({ endpoint, key }: SentBeforeInput['workspace']): string {
	return createHmac('sha256', key).update(endpoint.replace(/\/+$/, '').toLowerCase()).digest('base64').slice(0, 22);
}
