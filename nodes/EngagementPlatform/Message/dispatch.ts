import type { IDataObject } from 'n8n-workflow';

import type { OperationSpec, Piece, PieceOutcome, PlannedRequest } from '../shared/engine/operation';
import { settleRemaining } from '../shared/engine/outcomes';
import type { Packing } from '../shared/engine/planner';
import { fixedPackingSettings } from '../shared/fields/requestOptions';

/**
 * What the three dispatching operations (send now, campaign and canvas triggers) share: items
 * whose request-level fields are equal pack 50 recipients to a request; an item without a
 * recipient is a broadcast of its own; every item of a request gets the request's dispatch_id,
 * and a `notice` (a paused or archived canvas) as a warning on each.
 */

export interface DispatchPayload extends IDataObject {
	/** The request-level fields, equal for all items of a request. */
	request: IDataObject;
	/** This item's recipient, in the body's recipient field; absent for a broadcast. */
	recipient?: IDataObject | string;
}

const BROADCAST = 'broadcast';

/** One item's piece: a recipient in `slot`, or a broadcast request of its own. */
export function dispatchPiece(itemIndex: number, slot: string, payload: DispatchPayload, subject: IDataObject): Piece {
	const broadcast = payload.recipient === undefined;
	return {
		itemIndex,
		slot: broadcast ? BROADCAST : slot,
		groupKey: JSON.stringify(payload.request) + (broadcast ? `|${itemIndex}` : ''),
		payload,
		subject,
	};
}

export function dispatchOperation(
	endpoint: OperationSpec['endpoint'],
	readItem: OperationSpec['readItem'],
	packing: Packing = { perSlot: 50 },
): OperationSpec {
	return {
		endpoint,
		settings: fixedPackingSettings(packing),
		readItem,
		buildBody(request) {
			const [[slot, pieces]] = [...request.slots];
			const body = { ...(pieces[0].payload as DispatchPayload).request };
			if (slot === BROADCAST) return { ...body, broadcast: true };
			return { ...body, [slot]: pieces.map((piece) => (piece.payload as DispatchPayload).recipient!) };
		},
		// Users and segments count against different limits (250,000 an hour, 250 a minute).
		rateLimitGroupOf: (request) => (request.slots.has(BROADCAST) ? 'messaging.segment' : 'messaging.external_ids'),
		// A resent send would message its recipients twice.
		isSafeToResend: () => false,
		readResponse: readDispatchResponse,
		itemResult: (_, [{ piece, outcome }]) => [{ status: 'sent', ...piece.subject, ...(outcome.ok ? outcome.data : {}) }],
	};
}

function readDispatchResponse(response: { body: IDataObject }, request: PlannedRequest): Map<Piece, PieceOutcome> {
	const { dispatch_id: dispatchId, notice } = response.body;
	const data: IDataObject = { dispatch_id: dispatchId };
	if (typeof notice === 'string') {
		data.status = 'not_sent';
		data.notice = notice;
	}
	return settleRemaining(request, { ok: true, data, warnings: typeof notice === 'string' ? [notice] : undefined });
}
