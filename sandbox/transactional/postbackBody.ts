import type { TransactionalSend } from '../state/transactionalSends';
import type { DeliveryStep } from './deliveryOutcome';

/**
 * The spec's postback body: dispatch_id, status, and metadata with external_send_id (when the send had
 * one), campaign_api_id and the status's own fields. `received_at` and `enqueued_at` are when the send
 * was accepted; every other datetime is the moment of the status change.
 */
export function postbackBody(
	send: TransactionalSend,
	step: DeliveryStep,
	at: Date,
): { dispatch_id: string; status: string; metadata: Record<string, unknown> } {
	const metadata: Record<string, unknown> = {};
	if (send.external_send_id !== undefined) metadata.external_send_id = send.external_send_id;
	metadata.campaign_api_id = send.campaign_id;
	const when = at.toISOString();
	switch (step.status) {
		case 'sent': {
			const accepted = new Date(send.acceptedAtMs).toISOString();
			Object.assign(metadata, { received_at: accepted, enqueued_at: accepted, executed_at: when, sent_at: when });
			break;
		}
		case 'processed':
			metadata.processed_at = when;
			break;
		case 'delivered':
			metadata.delivered_at = when;
			break;
		case 'bounced':
			Object.assign(metadata, { bounced_at: when, reason: step.reason });
			break;
		case 'aborted':
			Object.assign(metadata, { aborted_at: when, reason: step.reason });
			break;
	}
	return { dispatch_id: send.dispatch_id, status: step.status, metadata };
}
