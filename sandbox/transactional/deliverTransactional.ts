import type { PostbackConfigView } from '../adminApiTypes';
import type { BackgroundTasks } from '../core/backgroundTasks';
import { postJson } from '../core/postJson';
import type { PlatformState } from '../state/platformState';
import type { TransactionalSend } from '../state/transactionalSends';
import type { DeliveryStep } from './deliveryOutcome';
import { postbackBody } from './postbackBody';

// A receiver that does not answer within this long counts as failed (responseStatus null).
const POSTBACK_TIMEOUT_MS = 5000;

export interface DeliveryContext {
	state: PlatformState;
	tasks: BackgroundTasks;
	/** The postback setting when the send was accepted: it applies to all of this send's status changes. */
	postbacks: PostbackConfigView;
}

/**
 * Plays a send's status changes in the background, one every `delayMs`, each followed by its postback
 * when a URL is configured. The next change waits for the previous postback to finish, so a receiver
 * gets them in order (sent before processed before delivered). Not shown: retries, authentication and
 * the expected reply. The sandbox POSTs once with the configured headers, takes any answer (even an
 * error status), records it, and never retries.
 */
export function deliverTransactional(
	context: DeliveryContext,
	send: TransactionalSend,
	steps: readonly DeliveryStep[],
): void {
	const { state, tasks, postbacks } = context;
	const step = (index: number): void => {
		tasks.after(postbacks.delayMs, async () => {
			const current = steps[index];
			const at = new Date();
			send.statuses.push(current.status);
			if (postbacks.url !== null)
				await sendPostback(state, tasks, postbacks.url, postbacks.headers, postbackBody(send, current, at));
			if (index + 1 < steps.length) step(index + 1);
		});
	};
	if (steps.length > 0) step(0);
}

async function sendPostback(
	state: PlatformState,
	tasks: BackgroundTasks,
	url: string,
	headers: Record<string, string>,
	body: unknown,
): Promise<void> {
	const sentAt = new Date().toISOString();
	const outcome = await postJson(url, headers, body, { signal: tasks.signal, timeoutMs: POSTBACK_TIMEOUT_MS });
	// Stopped by a reset while in flight: this state is gone, nothing to record.
	if (tasks.stopped) return;
	state.postbacks.push({
		url,
		body,
		responseStatus: outcome.status,
		...(outcome.error === undefined ? {} : { error: outcome.error }),
		sentAt,
	});
}
