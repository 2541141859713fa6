import type { IExecuteFunctions } from 'n8n-workflow';

import type { SentBeforeSettings } from '../operation';
import type { RunMemory } from '../plan/memory';

/**
 * What Send Only Changes would leave out, read without writing: n8n's deduplication store answers
 * which entries it holds only by recording those it does not (checkProcessedAndRecord; n8n offers no
 * read alone), so a preview asks it only how many entries it holds. None (a first run, or Forget What
 * Was Sent on), and every piece would be sent, as the preview shows; some, and which pieces the
 * platform holds already is decided at the real run (`undecided`). Without the option, a real run
 * makes the workflow forget; a preview does not.
 */
export type PreviewMemory = RunMemory & { undecided?: boolean };

export async function openPreviewMemory(
	context: IExecuteFunctions,
	settings: SentBeforeSettings | undefined,
): Promise<PreviewMemory> {
	const nothingKept: PreviewMemory = { ok: true, close: async () => {} };
	if (!settings || settings.forget) return nothingKept;
	const workflowId = context.getWorkflow().id;
	if (typeof workflowId !== 'string' || workflowId === '') return nothingKept;
	try {
		const entries = await context.helpers.getProcessedDataCount('workflow', { mode: 'entries' });
		return entries === 0 ? nothingKept : { ...nothingKept, undecided: true };
	} catch {
		return { ...nothingKept, undecided: true };
	}
}
