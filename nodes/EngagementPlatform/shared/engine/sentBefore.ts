import { createHash } from 'node:crypto';

import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';

import type { OperationSpec, Piece, PieceOutcome, SentBeforeSettings } from './operation';

/**
 * "Send Only Changes": what this node last had accepted, kept in n8n's deduplication store (n8n's
 * database, scope `node`), so it holds across executions, restarts and queue-mode workers.
 *
 * The store only has check-and-record, so a piece's fingerprint is recorded when it is checked (a
 * claim) and withdrawn after sending unless the platform accepted the piece: a refused, maybe-applied
 * or unsent piece is sent again next run. A run that never ends (n8n stopped mid-run) would leave its
 * claims behind, so each run also records a marker that it withdraws last: a run that finds the
 * marker forgets everything and sends everything once more. Every doubt costs a resend, never an update.
 */

export interface SentBefore {
	/** Pieces equal to what this node last had accepted: not to be sent. */
	unchanged: Set<Piece>;
	/**
	 * Keeps the claims of accepted pieces and withdraws the rest (and the run's marker). Call once,
	 * after sending. `failure`: the store could not be written, so the marker stays for the next run.
	 */
	settle(outcomes: Map<Piece, PieceOutcome> | undefined): Promise<{ forgotten: boolean; failure?: string }>;
}

/** What this node sent before, or why n8n's store could not tell (nothing has been recorded then). */
export type SentBeforeCheck = { ok: true; sentBefore: SentBefore } | { ok: false; reason: string };

/** Cannot equal a fingerprint (those are base64 of a SHA-256). */
const RUN_MARKER = 'a run of this node has not finished';

export async function checkSentBefore(
	context: IExecuteFunctions,
	spec: OperationSpec,
	pieces: Piece[],
	settings: SentBeforeSettings,
): Promise<SentBeforeCheck> {
	try {
		return { ok: true, sentBefore: await check(context, spec, pieces, settings) };
	} catch (error) {
		return { ok: false, reason: (error as Error).message };
	}
}

async function check(
	context: IExecuteFunctions,
	spec: OperationSpec,
	pieces: Piece[],
	settings: SentBeforeSettings,
): Promise<SentBefore> {
	const store: ICheckProcessedOptions = { mode: 'entries', maxEntries: settings.historySize };
	const fingerprints = new Map<Piece, string>();
	for (const piece of pieces) {
		if (spec.stateSlots?.[piece.slot]?.(piece.payload) === true) fingerprints.set(piece, fingerprintOf(spec, piece));
	}
	if (settings.forget) await context.helpers.clearAllProcessedItems('node', store);

	const distinct = [...new Set(fingerprints.values())];
	// The marker goes last, so that it is the newest entry and the last that maxEntries would drop.
	let checked = await context.helpers.checkProcessedAndRecord([...distinct, RUN_MARKER], 'node', store);
	const forgotten = !checked.new.includes(RUN_MARKER);
	if (forgotten) {
		await context.helpers.clearAllProcessedItems('node', store);
		checked = await context.helpers.checkProcessedAndRecord([...distinct, RUN_MARKER], 'node', store);
	}
	const seen = new Set(checked.processed);
	const claimed = new Set(checked.new);

	const unchanged = new Set<Piece>();
	for (const [piece, fingerprint] of fingerprints) if (seen.has(fingerprint)) unchanged.add(piece);

	return {
		unchanged,
		async settle(outcomes) {
			const notAccepted = new Set<string>([RUN_MARKER]);
			for (const [piece, fingerprint] of fingerprints) {
				const outcome = outcomes?.get(piece);
				if (claimed.has(fingerprint) && !(outcome?.ok === true)) notAccepted.add(fingerprint);
			}
			try {
				await context.helpers.removeProcessed([...notAccepted], 'node', store);
			} catch (error) {
				return { forgotten, failure: (error as Error).message };
			}
			return { forgotten };
		},
	};
}

/** The piece as it would be sent: where to, and its values, with object keys in one order. */
function fingerprintOf(spec: OperationSpec, piece: Piece): string {
	const content = canonical([spec.endpoint.method, spec.endpoint.path, piece.slot, piece.group ?? null, piece.payload]);
	return createHash('sha256').update(content).digest('base64');
}

function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, entry]) => entry !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonical(entry)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
