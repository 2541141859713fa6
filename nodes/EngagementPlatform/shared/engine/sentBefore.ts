import { createHash, createHmac } from 'node:crypto';

import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';

import { partKey } from './lastWord';
import type { Piece, PieceOutcome, SentBeforeSettings, StatePart } from './operation';

/**
 * "Send Only Changes": for each workspace, user and part of state, the last value this workflow got
 * accepted, so that a part is left out only when the platform holds the item's value already.
 *
 * n8n's deduplication store (scope `workflow`, shared by every node of the workflow, kept in n8n's
 * database) is a set of strings, not a map: an old value cannot be found and taken out when a new one
 * is accepted. So what is remembered is kept by generation, one per execution: a run reads the
 * generation of the execution before (the last word every node of the workflow had accepted then)
 * and writes each part it sends or leaves out into its own. A value that went back is absent from
 * the generation before, so it is sent; a part this execution did not touch is forgotten, and sent
 * the next time it comes. The oldest generations fall out of the store past History Size.
 *
 * Two generation registers (the latest and the one before it) are kept as one-hot bits. Every doubt
 * sends: a run that finds another run of the workflow unfinished (overlapping, or stopped mid-run),
 * or a part set twice to different values within one execution (two nodes, a loop), leaves its
 * generation poisoned, and the next execution sends everything once.
 *
 * Entries name the workspace by a keyed hash of the credential's endpoint (HMAC with the API key as
 * the key): another workspace or key is another memory, and the key itself is never stored.
 */

export interface SentBefore {
	/** Parts each piece need not send: the platform holds their value already. */
	unchanged: Map<Piece, Set<StatePart>>;
	/**
	 * Keeps what the platform accepted and proved, takes back the rest, and closes the run's generation.
	 * `failure`: the store could not be written, so the run is left unfinished for the next run.
	 */
	settle(outcomes: Map<Piece, PieceOutcome> | undefined): Promise<{ doubted: boolean; failure?: string }>;
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

const REGISTER_BITS = 32;
const REGISTERS = ['latest', 'before'] as const;
type Register = (typeof REGISTERS)[number];
const RUNNING = 'a run of this workflow has not finished';
const OVERLAP = 'two runs of this workflow overlapped';
const DAY_MS = 86_400_000;

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

async function check(
	context: IExecuteFunctions,
	input: SentBeforeInput,
	settings: SentBeforeSettings,
): Promise<SentBefore> {
	const options: ICheckProcessedOptions = { mode: 'entries', maxEntries: settings.historySize };
	const helpers = context.helpers;
	const record = async (entries: string[]) => await helpers.checkProcessedAndRecord(entries, 'workflow', options);
	const remove = async (entries: string[]) => {
		if (entries.length > 0) await helpers.removeProcessed(entries, 'workflow', options);
	};
	if (settings.forget) await helpers.clearAllProcessedItems('workflow', options);

	// One call reads the registers and marks the run as started; the probes it recorded go back at once.
	const current = generationOf(context);
	const probes = REGISTERS.flatMap((register) => registerProbe(register));
	const opened = await record([RUNNING, OVERLAP, ...probes]);
	const present = new Set(opened.processed.map(String));
	const alone = !present.has(RUNNING);
	const probeClaims = opened.new.map(String).filter((entry) => entry !== RUNNING && entry !== OVERLAP);
	// Alone, an earlier overlap is over; otherwise the mark stays, for the other run to see at its end.
	await remove(alone ? [...probeClaims, OVERLAP] : probeClaims);
	const registers = { latest: readRegister(present, 'latest'), before: readRegister(present, 'before') };
	let previous = alone ? (registers.latest === current ? registers.before : registers.latest) : undefined;

	const workspace = workspaceOf(input.workspace);
	const today = Math.floor(Date.now() / DAY_MS);
	const poison = previous !== undefined ? poisoned(previous) : undefined;
	const entries: string[] = poison ? [poison] : [];
	const planned: Array<{ piece: Piece; part: StatePart; was?: string; now: string; written: string }> = [];
	for (const [piece, parts] of input.parts) {
		for (const part of parts) {
			const name = `${workspace}\u0000${partKey(part)}`;
			const written = `w\u0000${current}\u0000${name}`;
			// A part whose acceptance proves nothing is never remembered, only marked as written.
			const now = input.unprovable.has(piece) ? '' : `v\u0000${current}\u0000${name}\u0000${part.value}`;
			const was =
				previous !== undefined && now !== '' ? `v\u0000${previous}\u0000${name}\u0000${part.value}` : undefined;
			planned.push({ piece, part, was, now, written });
			entries.push(written);
			if (now !== '') entries.push(now);
			if (was) entries.push(was);
		}
	}
	const checked = entries.length > 0 ? await record(entries) : { processed: [], new: [] };
	const seen = new Set(checked.processed.map(String));
	const claimed = new Set(checked.new.map(String));
	if (poison && seen.has(poison)) previous = undefined;

	const unchanged = new Map<Piece, Set<StatePart>>();
	let conflict = false;
	for (const { piece, part, was, now, written } of planned) {
		if (now === '') continue;
		const writtenBefore = seen.has(written);
		const heldNow = seen.has(now);
		// Another node or loop pass of this execution set this part to another value: the platform's
		// last word is whichever landed last, so this execution's generation cannot be trusted.
		if (writtenBefore && !heldNow) conflict = true;
		const heldBefore = previous !== undefined && was !== undefined && seen.has(was) && !writtenBefore;
		if ((heldNow || heldBefore) && !isResendDay(part, today, settings.resendEveryDays)) {
			let set = unchanged.get(piece);
			if (!set) unchanged.set(piece, (set = new Set()));
			set.add(part);
		}
	}

	return {
		unchanged,
		async settle(outcomes) {
			const doubted = previous === undefined;
			try {
				const advance = registers.latest !== current;
				const newRegisters = advance
					? [...registerValue('before', registers.latest), ...registerValue('latest', current)]
					: [];
				const inDoubt = conflict || !alone;
				const ended = await record([OVERLAP, ...newRegisters, ...(inDoubt ? [poisoned(current)] : [])]);
				const overlapped = ended.processed.map(String).includes(OVERLAP);
				if (overlapped && !inDoubt) await record([poisoned(current)]);

				const takeBack: string[] = [];
				for (const { piece, part, now } of planned) {
					if (now === '' || !claimed.has(now)) continue;
					const outcome = outcomes?.get(piece);
					const kept = unchanged.get(piece)?.has(part) === true;
					if (!kept && !(outcome?.ok === true && !outcome.unproven)) takeBack.push(now);
				}
				const keep = new Set(newRegisters);
				const oldRegisters = advance ? probes.filter((entry) => present.has(entry) && !keep.has(entry)) : [];
				await remove([
					...takeBack,
					...oldRegisters,
					...(overlapped ? [] : [OVERLAP]),
					...(poison && claimed.has(poison) ? [poison] : []),
					RUNNING,
				]);
			} catch (error) {
				return { doubted, failure: (error as Error).message };
			}
			return { doubted };
		},
	};
}

/**
 * A node that sets the same state without Send Only Changes writes past what is remembered: the
 * workflow forgets it all (one delete in n8n's database), so that its next run with the option sends
 * everything rather than trust a value this node may have changed.
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

function workspaceOf({ endpoint, key }: SentBeforeInput['workspace']): string {
	return createHmac('sha256', key).update(endpoint.replace(/\/+$/, '').toLowerCase()).digest('base64').slice(0, 22);
}

function poisoned(generation: number): string {
	return `generation ${generation} is in doubt`;
}

function registerProbe(register: Register): string[] {
	return Array.from({ length: REGISTER_BITS }, (_, bit) => [0, 1].map((value) => `${register} ${bit} ${value}`)).flat();
}

function registerValue(register: Register, value: number | undefined): string[] {
	if (value === undefined) return [];
	return Array.from({ length: REGISTER_BITS }, (_, bit) => `${register} ${bit} ${(value >>> bit) & 1}`);
}

/** The register's value when exactly one entry of each bit is present; undefined when it was never written. */
function readRegister(present: Set<string>, register: Register): number | undefined {
	let value = 0;
	for (let bit = 0; bit < REGISTER_BITS; bit++) {
		const zero = present.has(`${register} ${bit} 0`);
		const one = present.has(`${register} ${bit} 1`);
		if (zero === one) return undefined;
		if (one) value = (value | (1 << bit)) >>> 0;
	}
	return value;
}

/**
 * Bounded staleness: whatever the store cannot see (a change made outside the workflow, the same
 * person under another identifier) is corrected within this many days. A user's turn comes once in
 * that many days, chosen by a hash of the user, so each day resends a share of the users, not all at once.
 */
function isResendDay(part: StatePart, today: number, everyDays: number): boolean {
	if (everyDays <= 0) return false;
	const turn = createHash('sha256').update(part.user).digest().readUInt32BE(0) % everyDays;
	return turn === today % everyDays;
}
