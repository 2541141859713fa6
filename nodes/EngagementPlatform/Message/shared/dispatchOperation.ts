import type { IDataObject } from 'n8n-workflow';

import type {
	Endpoint,
	OperationSpec,
	Piece,
	PieceOutcome,
	PlannedRequest,
	RequestShape,
	Slot,
} from '../../shared/engine';
import { answerRemaining, declareOperation } from '../../shared/engine';
import type { RateLimitName } from '../../shared/limits/rateLimits';

/** The spec: "up to 50 external IDs per request", 50 recipients; aliases are counted with them. */
export const RECIPIENTS_PER_REQUEST = 50;

/**
 * What the three dispatching operations (send now, campaign and canvas triggers) share: items
 * whose request-level fields are equal pack 50 recipients to a request; an item without a
 * recipient is a broadcast of its own; every item of a request gets the request's dispatch_id,
 * and a `notice` (a paused or archived canvas) as a warning on each.
 */

/** The request-level fields, equal for all items of a request; a broadcast is one item's request. */
export interface Dispatch {
	fields: IDataObject;
	broadcastOf?: number;
}

/** A recipient in the body's recipient field: an external user ID, an alias or a recipient object. */
export type Recipient = string | IDataObject;

type DispatchEndpoint = Omit<Endpoint<Dispatch, Recipient>, 'rateLimit'>;

/** A broadcast: `broadcast: true` in the body, and no recipient. */
const BROADCAST_SLOT = 'broadcast';

/** The recipient slots of an endpoint, 50 recipients per request in all, and the broadcast flag. */
export function dispatchShape(recipientSlots: Record<string, Slot<Recipient>>): RequestShape<Dispatch, Recipient> {
	return {
		slots: { ...recipientSlots, [BROADCAST_SLOT]: { form: 'flag', field: 'broadcast', max: 1 } },
		total: RECIPIENTS_PER_REQUEST,
		batch: 'recipients',
		groupKey: (group) => `${JSON.stringify(group.fields)} ${group.broadcastOf ?? ''}`,
		groupBody: (group) => group.fields,
	};
}

/** One item's piece: its recipient in `slot`, or a broadcast request of its own. */
export function dispatchPiece(
	itemIndex: number,
	fields: IDataObject,
	recipient: { slot: string; value: Recipient } | undefined,
	subject: IDataObject,
): Piece<Dispatch, Recipient> {
	if (!recipient)
		return { itemIndex, slot: BROADCAST_SLOT, group: { fields, broadcastOf: itemIndex }, payload: {}, subject };
	return { itemIndex, slot: recipient.slot, group: { fields }, payload: recipient.value, subject };
}

/**
 * Spec, Limits: these endpoints "with a segment or connected audience" share 250 requests a
 * minute; "with external IDs", 250,000 an hour. A request carrying a segment or an audience, or a
 * broadcast to the targeted segment, counts against the first whether or not it names users.
 */
function messagingRateLimit(request: PlannedRequest<Dispatch, Recipient>): RateLimitName {
	const { fields } = request.group;
	const targetsSegment =
		request.slots.has(BROADCAST_SLOT) || fields.segment_id !== undefined || fields.audience !== undefined;
	return targetsSegment ? 'messaging.segment' : 'messaging.external_ids';
}

const SENT = 'sent';

export function dispatchOperation(
	endpoint: DispatchEndpoint,
	shape: RequestShape<Dispatch, Recipient>,
	readItem: OperationSpec<Dispatch, Recipient>['readItem'],
): OperationSpec {
	return declareOperation<Dispatch, Recipient>({
		// Spec: each of the three answers a send with its `dispatch_id`.
		endpoint: { ...endpoint, rateLimit: messagingRateLimit, successCarries: 'dispatch_id' },
		shape,
		readItem,
		// A resent send would message its recipients twice.
		isSafeToResend: () => false,
		readResponse: readDispatchResponse,
		// `not_sent` instead where the platform answers a notice (an inactive canvas): readDispatchResponse.
		successStatus: { word: SENT },
		itemResult: (_, [{ piece, outcome }]) => [{ status: SENT, ...piece.subject, ...(outcome.ok ? outcome.data : {}) }],
	});
}

function readDispatchResponse(
	response: { body: IDataObject },
	request: PlannedRequest<Dispatch, Recipient>,
): Map<Piece<Dispatch, Recipient>, PieceOutcome> {
	const { dispatch_id: dispatchId, notice } = response.body;
	const data: IDataObject = { dispatch_id: dispatchId };
	if (typeof notice === 'string') {
		data.status = 'not_sent';
		data.notice = notice;
	}
	return answerRemaining(request, { ok: true, data, warnings: typeof notice === 'string' ? [notice] : undefined });
}
