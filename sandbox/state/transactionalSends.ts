import type { TransactionalSendView } from '../adminApiTypes';

export interface TransactionalSend extends TransactionalSendView {
	/** Epoch milliseconds the send was accepted (the deduplication key's age counts from here). */
	acceptedAtMs: number;
	/** When its answer leaves the sandbox (accepted + configured latency): before that a repeat is "in flight". */
	answeredAtMs: number;
}

/** Accepted transactional sends, and the index of their deduplication keys (campaign + external_send_id). */
export class TransactionalSendStore {
	private readonly sends: TransactionalSend[] = [];
	private readonly byKey = new Map<string, TransactionalSend>();

	add(send: TransactionalSend): void {
		this.sends.push(send);
		if (send.external_send_id !== undefined) this.byKey.set(dedupKey(send.campaign_id, send.external_send_id), send);
	}

	/** The send that holds this key, however old: the caller decides whether the key has expired. */
	withKey(campaignId: string, externalSendId: string): TransactionalSend | undefined {
		return this.byKey.get(dedupKey(campaignId, externalSendId));
	}

	all(): readonly TransactionalSend[] {
		return this.sends;
	}
}

function dedupKey(campaignId: string, externalSendId: string): string {
	return `${campaignId}\n${externalSendId}`;
}
