import type { IExecuteFunctions } from 'n8n-workflow';

import type { LastWord } from './lastWord';
import type { OperationSpec, Piece, PieceOutcome, SentBeforeSettings } from '../operation';
import { normalisedSecret } from '../send/secrets';
import type { SentBeforeInput } from './sentBefore';
import { checkSentBefore, forgetWhatWasSent } from './sentBefore';
import { DEFAULT_HISTORY_SIZE } from '../runOptions';

/**
 * What the workflow remembers of the state it set, around one run: with Send Only Changes on, the
 * pieces the platform holds already and, once the requests are answered, what to keep of this run;
 * with it off, a node that sets state makes the workflow forget (see sentBefore.ts).
 */
export type RunMemory =
	| { ok: true; unchanged?: Set<Piece>; close(outcomes: Map<Piece, PieceOutcome> | undefined): Promise<void> }
	| { ok: false; reason: string };

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
	return {
		ok: true,
		unchanged: sentBefore.unchanged,
		async close(outcomes) {
			const recorded = await sentBefore.recordEnd(outcomes);
			if (recorded.doubted)
				log(
					'info',
					'Send Only Changes had no earlier run to rely on (the first run, a run that did not finish or overlapped another, or a contact set twice in one execution), so it sent every item it could not compare with this execution',
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

const NOTE_ONLY: SentBeforeSettings = { forget: false, historySize: DEFAULT_HISTORY_SIZE, resendEveryDays: 0 };

function provesNothing(spec: OperationSpec): boolean {
	const slots = Object.values(spec.stateSlots ?? {});
	return slots.length > 0 && slots.every((slot) => !slot.provenByAcceptance);
}

/**
 * Where the credential points, to keep what is remembered apart per workspace and key. The key as
 * requests send it (normalised): a key pasted again with a space or a line break around it is the
 * same key to the platform, and to what the workflow remembers.
 */
async function workspaceOf(context: IExecuteFunctions, spec: OperationSpec): Promise<SentBeforeInput['workspace']> {
	const credentials = await context.getCredentials(spec.endpoint.credentialType);
	return {
		endpoint: String(credentials.restEndpoint ?? credentials.scimEndpoint ?? '').trim(),
		key: normalisedSecret(credentials.apiKey ?? credentials.scimToken),
	};
}
