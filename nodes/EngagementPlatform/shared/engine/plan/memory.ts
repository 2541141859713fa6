import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import type { LastWord } from './lastWord';
import type { OperationSpec, Piece, PieceOutcome, SentBeforeSettings, StatePart } from '../operation';
import { normalisedSecret } from '../send/secrets';
import type { SentBeforeInput } from './sentBefore';
import { checkSentBefore, forgetWhatWasSent } from './sentBefore';
import { DEFAULT_HISTORY_SIZE } from '../runOptions';
import { counted } from '../results/runWords';

/**
 * What the workflow remembers of the state it set, around one run: with Send Only Changes on, the
 * pieces the platform holds already, the pieces to send without the parts it holds, and, once the
 * requests are answered, what to keep of this run; with it off, a node that sets state makes the
 * workflow forget (see sentBefore.ts).
 */
export type RunMemory =
	| {
			ok: true;
			unchanged?: Set<Piece>;
			/** Of a piece the platform holds some parts of: the piece to send instead, and the parts left out. */
			partlyUnchanged?: Map<Piece, PartlyUnchanged>;
			/** `outcomes` of the pieces sent, a partly unchanged piece's under the piece sent instead. */
			close(outcomes: Map<Piece, PieceOutcome> | undefined): Promise<void>;
	  }
	| { ok: false; reason: string };

export interface PartlyUnchanged {
	/** The piece setting only the parts the platform does not hold. */
	sent: Piece;
	unchanged: StatePart[];
}

export async function openMemory(
	context: IExecuteFunctions,
	spec: OperationSpec,
	lastWord: LastWord,
	settings: SentBeforeSettings | undefined,
): Promise<RunMemory> {
	const log = (level: 'info' | 'warn', message: string) =>
		context.logger[level](`Engagement Platform ${spec.endpoint.path}: ${message}`);
	const forgetFailed = (failure: string | undefined) => {
		if (failure !== undefined)
			log('warn', `could not clear what Send Only Changes remembers for this workflow (${failure})`);
	};

	// A node none of whose state an answer can prove (the subscription endpoint) never leaves a piece out
	// (it does not offer the option): it notes the states it sets, as with the option on, so that other
	// nodes' Send Only Changes keep what they remembered and see those states.
	const optionOn = settings !== undefined;
	if (!settings && provesNothing(spec)) settings = NOTE_ONLY;
	if (!settings) {
		if (!lastWord.setsState) return { ok: true, close: async () => {} };
		forgetFailed(await forgetWhatWasSent(context));
		return { ok: true, close: async () => forgetFailed(await forgetWhatWasSent(context)) };
	}

	const checked = await checkSentBefore(
		context,
		{
			parts: lastWord.parts,
			unprovable: new Set(
				[...lastWord.parts.keys()].filter((piece) => !spec.stateSlots?.[piece.slot]?.provenByAcceptance),
			),
			workspace: await workspaceOf(context, spec),
		},
		settings,
	);
	if (!checked.ok) return checked;
	const { sentBefore } = checked;
	if (sentBefore.overridden.length > 0) context.addExecutionHints(overriddenHint(sentBefore.overridden));
	if (optionOn && sentBefore.sendsAllBecause && lastWord.parts.size > 0)
		context.addExecutionHints({
			message: `Send Only Changes sent every item: ${sentBefore.sendsAllBecause}.`,
			type: 'info',
			location: 'outputPane',
		});
	const partlyUnchanged = new Map<Piece, PartlyUnchanged>();
	for (const [piece, unchanged] of sentBefore.partlyUnchanged) {
		const keys = new Set(unchanged.map(({ key }) => key));
		const changed = lastWord.parts.get(piece)!.filter(({ key }) => !keys.has(key));
		const sent = { ...piece, payload: spec.stateSlots![piece.slot].keepOnly(piece, changed) };
		partlyUnchanged.set(piece, { sent, unchanged });
	}
	return {
		ok: true,
		unchanged: sentBefore.unchanged,
		partlyUnchanged,
		async close(outcomes) {
			const recorded = await sentBefore.recordEnd(outcomes && ofPiecesChecked(outcomes, partlyUnchanged));
			if (recorded.doubted)
				log(
					'info',
					'Send Only Changes had no earlier run to rely on (the first run, a run that did not finish or overlapped another, or an attribute set to two values in one execution), so it sent every item it could not compare with this execution',
				);
			if (recorded.failure === undefined) return;
			log(
				'warn',
				`Send Only Changes could not record this run's end (${recorded.failure}); the next run sends every item`,
			);
			context.addExecutionHints({
				message: `Send Only Changes could not record what this run sent in n8n's database (${recorded.failure}), so the next run sends every item once.`,
				type: 'warning',
				location: 'outputPane',
			});
		},
	};
}

/** The outcomes under the pieces the memory checked: a partly unchanged piece's is its sent piece's. */
function ofPiecesChecked(
	outcomes: Map<Piece, PieceOutcome>,
	partlyUnchanged: Map<Piece, PartlyUnchanged>,
): Map<Piece, PieceOutcome> {
	if (partlyUnchanged.size === 0) return outcomes;
	const checked = new Map(outcomes);
	for (const [piece, { sent }] of partlyUnchanged) {
		const outcome = outcomes.get(sent);
		if (outcome) checked.set(piece, outcome);
	}
	return checked;
}

/**
 * Two nodes (or two passes of one) setting the same attribute of a contact to different values in one
 * execution: the later one's is the platform's, and Send Only Changes cannot tell the next run which
 * landed last, so it sends every item once. Said in the run, in the marketer's words.
 */
function overriddenHint(overridden: StatePart[]): NodeExecutionHint {
	const contacts = new Set(overridden.map(({ user }) => user)).size;
	const labels = [...new Set(overridden.map(({ label }) => `"${label}"`))];
	const named =
		labels.length > 3 ? `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more` : labels.join(', ');
	return {
		message: `Another node of this workflow, or an earlier pass of this one, set ${named} of ${counted(contacts, 'contact')} to another value in this execution. The platform keeps this node's values, and Send Only Changes sends every item once on the next run. To keep its savings, let one node set each attribute.`,
		type: 'warning',
		location: 'outputPane',
	};
}

const NOTE_ONLY: SentBeforeSettings = { forget: false, historySize: DEFAULT_HISTORY_SIZE, resendEveryDays: 0 };

/**
 * A node none of whose state an answer can prove (the subscription endpoint): it never leaves a piece out,
 * and notes every state it sets, so that other nodes' Send Only Changes see them.
 */
export function provesNothing(spec: OperationSpec): boolean {
	const slots = Object.values(spec.stateSlots ?? {});
	return slots.length > 0 && slots.every((slot) => !slot.provenByAcceptance);
}

/**
 * Where the credential points, to keep what is remembered apart per workspace and key. The key as
 * requests send it (normalised): a key pasted again with a space or a line break around it is the
 * same key to the platform, and to what the workflow remembers.
 */
export async function workspaceOf(
	context: IExecuteFunctions,
	spec: OperationSpec,
): Promise<SentBeforeInput['workspace']> {
	const credentials = await context.getCredentials(spec.endpoint.credentialType);
	return {
		endpoint: String(credentials.restEndpoint ?? credentials.scimEndpoint ?? '').trim(),
		key: normalisedSecret(credentials.apiKey ?? credentials.scimToken),
	};
}
