import { createHash } from 'node:crypto';
import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { countedWas } from '../results/runWords';
import { RUN_OPTION } from '../runOptionNames';

import { canonicalValue } from '../../objects/canonicalValue';
import type { OncePerKeySettings, OperationSpec, Piece, PieceOutcome, RunSettings } from '../operation';
import { workspaceOf as credentialOf } from './memory';
import { madeAgain, workspaceOf as workspaceTagOf } from './sentBefore';
import { occurrenceKeySource, trackedConfirmationEntry, trackedEntry } from './storeEntries';

/**
 * Track Once Per Key: the events and purchases this node got accepted are remembered by a key read from
 * their item (an order ID, a ticket ID; the whole input item as it came where none is given), per
 * workspace, for at least Remember For (Days). An item whose key is remembered is not sent again and is
 * answered `already_tracked`. So the marketer who fixes a row upstream and runs the whole workflow again
 * (n8n's Retry reads the saved input, so the fix is not used) records each order once.
 *
 * Kept in n8n's deduplication store in the node's own scope: Send Only Changes forgets the workflow's
 * store on a doubt, which must not make orders new. n8n's store is a set of strings, so time is cut into
 * four slices per Remember For: an accepted key is written with the slice it was accepted in, and a run
 * asks for the key in each slice of the window (five entries, recorded and taken back at once, as n8n
 * offers no read alone). A key is remembered from Remember For to a quarter more, and its answer says the
 * slice it was tracked from.
 *
 * Only what the platform accepted and proved is remembered: a refused, failed or unsure item is sent
 * again by the next run. Written after the answers, as two marks, and checked again a moment later:
 * another execution writing the store at the same moment (n8n writes its record back whole) may drop
 * this run's entries, which the check writes again, or bring back probes this run took out; a key counts
 * as tracked only where both marks are found, asked for in two calls, so a probe brought back is never
 * taken for one. Two executions tracking the same key at the same moment may both send it: a claim
 * before sending would lose the item whenever the run stopped before taking it back.
 */

const DAY_MS = 86_400_000;
const SLICES_PER_WINDOW = 4;
/** n8n's `maxEntries` for the node's record: one entry per event or purchase accepted within the window. */
const KEYS_REMEMBERED = 1_000_000;
/** Times the run's entries are checked again, and written again where another execution's write dropped them. */
const WRITES_AGAIN = 3;
/**
 * How long after writing them they are checked: longer than a call of n8n's store takes between reading
 * its record and writing it back, so that a write from a read made before this run's has landed.
 */
const CHECK_AFTER_MS = 100;

type OncePerKey =
	| {
			ok: true;
			/** Pieces not to send: their key was accepted before (or by an earlier item of this run). */
			known: Map<Piece, PieceOutcome>;
			/** Remembers the accepted pieces' keys; a failure to is said in the run's hint. */
			close(outcomes: Map<Piece, PieceOutcome>): Promise<string | undefined>;
	  }
	| { ok: false; reason: string };

/**
 * The run's answers before sending, Track Once Per Key's added to what earlier tries got accepted
 * (`answered`: not sent), and what to do once the rest is answered: remember the accepted keys. Says in
 * the run's hints what it left out, and what it could not check or remember.
 */
export async function leaveOutTracked(
	context: IExecuteFunctions,
	spec: OperationSpec,
	settings: RunSettings,
	pieces: Piece[],
	acceptedBefore: Map<Piece, PieceOutcome>,
	runTime: string,
): Promise<{ answered: Map<Piece, PieceOutcome>; close(outcomes: Map<Piece, PieceOutcome>): Promise<void> }> {
	const idle = { answered: acceptedBefore, close: async () => {} };
	if (!settings.oncePerKey) return idle;
	const fresh = acceptedBefore.size > 0 ? pieces.filter((piece) => !acceptedBefore.has(piece)) : pieces;
	const opened = await openOncePerKey(context, spec, settings.oncePerKey, fresh, runTime, settings.preview === true);
	if (!opened.ok) {
		const error = {
			message: `Track Once Per Key could not check what this node tracked before (${opened.reason}), so nothing was sent`,
			description:
				"The node keeps that in n8n's database. Check that n8n's database is reachable and run again, or turn off Track Once Per Key in Options to send every item.",
			delivery: 'not_applied' as const,
			ofTheRun: true,
		};
		const failed = fresh.filter((piece) => spec.occurrenceSlots?.includes(piece.slot));
		return {
			...idle,
			answered: new Map([...acceptedBefore, ...failed.map((piece) => [piece, { ok: false as const, error }] as const)]),
		};
	}
	const { known } = opened;
	const itemsWhere = (test: (tracked: { since?: string; sameKeyAs?: number }) => boolean) =>
		new Set(
			[...known]
				.filter(([, outcome]) => outcome.ok && outcome.alreadyTracked && test(outcome.alreadyTracked))
				.map(([piece]) => piece.itemIndex),
		).size;
	const before = itemsWhere(({ since }) => since !== undefined);
	const again = itemsWhere(({ sameKeyAs }) => sameKeyAs !== undefined);
	if (known.size > 0)
		context.addExecutionHints({
			message: [
				before > 0
					? `${countedWas(before, 'item')} not sent: this node got the same key accepted within the last ${settings.oncePerKey.rememberDays} days (Track Once Per Key; see "trackedSince").`
					: '',
				again > 0
					? `${countedWas(again, 'item')} not sent: an earlier item of this run has the same key (see "sameKeyAs").`
					: '',
			]
				.filter(Boolean)
				.join(' '),
			type: 'info',
			location: 'outputPane',
		});
	return {
		answered: new Map([...acceptedBefore, ...known]),
		async close(outcomes) {
			const failure = await opened.close(outcomes);
			if (failure === undefined) return;
			context.logger.warn(`Track Once Per Key could not remember this run's keys (${failure})`);
			context.addExecutionHints({
				message: `Track Once Per Key could not remember what this run tracked in n8n's database (${failure}): running these items again would track them again.`,
				type: 'warning',
				location: 'outputPane',
			});
		},
	};
}

/** The pieces that record occurrences (events, purchases), checked and remembered by their item's key. */
async function openOncePerKey(
	context: IExecuteFunctions,
	spec: OperationSpec,
	settings: OncePerKeySettings,
	pieces: Piece[],
	runTime: string,
	preview: boolean,
): Promise<OncePerKey> {
	const occurrences = pieces.filter((piece) => spec.occurrenceSlots?.includes(piece.slot));
	const options: ICheckProcessedOptions = { mode: 'entries', maxEntries: KEYS_REMEMBERED };
	const helpers = context.helpers;
	try {
		if (settings.forget && !preview) await helpers.clearAllProcessedItems('node', options);
		const workspace = workspaceTagOf(await credentialOf(context, spec));
		const sliceMs = (settings.rememberDays * DAY_MS) / SLICES_PER_WINDOW;
		const now = Date.parse(runTime);
		const current = Math.floor(now / sliceMs);
		const window = Array.from({ length: SLICES_PER_WINDOW + 1 }, (_, back) => current - back);

		const keyOf = occurrenceKeys(context, workspace, occurrences);
		const known = new Map<Piece, PieceOutcome>();
		const firstOfKey = new Map<string, Piece>();
		const probes: string[] = [];
		for (const piece of occurrences) {
			const key = keyOf.get(piece)!;
			const earlier = firstOfKey.get(key);
			if (earlier) known.set(piece, { ok: true, alreadyTracked: { sameKeyAs: earlier.itemIndex } });
			else {
				firstOfKey.set(key, piece);
				for (const slice of window) probes.push(trackedEntry(key, slice));
			}
		}
		// The probes that found nothing, taken back at once and again at the run's end (see `close`).
		const absent: string[] = [];
		const probe = async (entries: string[]) => {
			if (entries.length === 0) return new Set<string>();
			const found = await recorded(context, entries, options);
			const missing = found.new.map(String);
			absent.push(...missing);
			if (missing.length > 0) await helpers.removeProcessed(missing, 'node', options);
			return new Set(found.processed.map(String));
		};
		// A key is tracked in a slice when both its marks are there, asked for in two calls: a probe that
		// another execution's write brought back is one mark alone (see `close`).
		const marked = await probe(probes);
		const candidates = new Map<string, number>();
		for (const key of firstOfKey.keys()) {
			const slice = window.find((candidate) => marked.has(trackedEntry(key, candidate)));
			if (slice !== undefined) candidates.set(key, slice);
		}
		const confirmed = await probe([...candidates].map(([key, slice]) => trackedConfirmationEntry(key, slice)));
		for (const [key, slice] of candidates)
			if (confirmed.has(trackedConfirmationEntry(key, slice)))
				known.set(firstOfKey.get(key)!, {
					ok: true,
					alreadyTracked: { since: new Date(slice * sliceMs).toISOString() },
				});
		return {
			ok: true,
			known,
			async close(outcomes) {
				if (preview) return undefined;
				const accepted = [...firstOfKey]
					.filter(([, piece]) => !known.has(piece) && isProven(outcomes.get(piece)))
					.flatMap(([key]) => [trackedEntry(key, current), trackedConfirmationEntry(key, current)]);
				// Another execution writing the record back whole from a read made between this run's probes and
				// their removal brings them back: they go once more, before the accepted keys are written. One
				// brought back later is a mark alone, which says nothing (both are asked for).
				const keep = new Set(accepted);
				const stale = absent.filter((entry) => !keep.has(entry));
				return await remember(context, accepted, stale, options);
			},
		};
	} catch (error) {
		return { ok: false, reason: (error as Error).message };
	}
}

/**
 * Each occurrence piece's key: the item's Key option, or the item as it came; with the workspace, and the
 * piece's place among its item's occurrences (an item may hold several events, each its own).
 */
function occurrenceKeys(context: IExecuteFunctions, workspace: string, pieces: Piece[]): Map<Piece, string> {
	const keys = new Map<Piece, string>();
	const places = new Map<number, number>();
	const inputs = context.getInputData();
	for (const piece of pieces) {
		const given = context.getNodeParameter(`options.${RUN_OPTION.trackOncePerKeyKey}`, piece.itemIndex, '') as unknown;
		const key =
			given === undefined || given === null || (typeof given === 'string' && given.trim() === '')
				? `item ${canonicalValue(inputs[piece.itemIndex]?.json ?? {})}`
				: `key ${typeof given === 'string' ? given.trim() : canonicalValue(given)}`;
		const place = places.get(piece.itemIndex) ?? 0;
		places.set(piece.itemIndex, place + 1);
		keys.set(
			piece,
			createHash('sha256')
				.update(occurrenceKeySource(workspace, piece.slot, place, key))
				.digest('base64url')
				.slice(0, 22),
		);
	}
	return keys;
}

/** Accepted, and the answer proves it (not an error it could not place on an object). */
const isProven = (outcome: PieceOutcome | undefined) =>
	outcome?.ok === true && !outcome.unproven && !outcome.alreadyTracked;

/** n8n's record-and-check call, made again when it lost a creation race to another execution (see madeAgain). */
async function recorded(context: IExecuteFunctions, entries: string[], options: ICheckProcessedOptions) {
	return await madeAgain(
		async () => await context.helpers.checkProcessedAndRecord(entries, 'node', options),
		() => {},
	);
}

/**
 * Takes the stale probes out, writes the entries, and again those another execution's write dropped
 * meanwhile; the failure, if any.
 */
async function remember(
	context: IExecuteFunctions,
	entries: string[],
	stale: string[],
	options: ICheckProcessedOptions,
): Promise<string | undefined> {
	try {
		if (stale.length > 0) await context.helpers.removeProcessed(stale, 'node', options);
		if (entries.length === 0) return undefined;
		await recorded(context, entries, options);
		for (let again = 0; again < WRITES_AGAIN; again++) {
			await sleep(CHECK_AFTER_MS);
			const checked = await recorded(context, entries, options);
			if (checked.new.length === 0) return undefined;
		}
		return 'another execution kept writing over what this run recorded';
	} catch (error) {
		return (error as Error).message;
	}
}
