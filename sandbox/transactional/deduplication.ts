import type { PlatformState } from '../state/platformState';
import type { TransactionalSend } from '../state/transactionalSends';

/** Spec Limits: the deduplication key is kept 24 hours. */
export const DEDUP_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const QUEUED_MESSAGE = 'The external reference has been queued. Please retry to obtain send_id.';

export type Duplicate = { kind: 'in-flight' } | { kind: 'repeat'; original: TransactionalSend };

/**
 * Whether a send with this external_send_id is a repeat (spec: same ID within 24 hours, no new send).
 * Keys are per campaign. Not shown what a repeat is answered; our choice:
 * - the original has been answered: 201 with the original's dispatch_id and its current status, so a
 *   client retrying after a lost answer learns what happened to its message;
 * - the original is still being answered (it waits out the configured latency): the spec's "has been
 *   queued, please retry" refusal, the case its wording describes. With latency 0 this never happens.
 */
export function findDuplicate(
	state: PlatformState,
	campaignId: string,
	externalSendId: string | undefined,
	nowMs: number,
): Duplicate | undefined {
	if (externalSendId === undefined) return undefined;
	const original = state.transactionalSends.withKey(campaignId, externalSendId);
	if (!original || nowMs - original.acceptedAtMs >= DEDUP_KEY_LIFETIME_MS) return undefined;
	return nowMs < original.answeredAtMs ? { kind: 'in-flight' } : { kind: 'repeat', original };
}
