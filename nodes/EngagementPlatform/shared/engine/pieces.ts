import type { IDataObject } from 'n8n-workflow';

/**
 * One piece of a request contributed by one input item. An item may contribute several
 * pieces (an order with three products gives three purchase objects); pieces of one item
 * may travel in different requests.
 */
export interface Piece<Group = unknown, Payload = IDataObject> {
	itemIndex: number;
	/** The declared slot the piece goes into, e.g. "events". */
	slot: string;
	/** What the whole request shares (a catalog, a message); pieces of unequal groups never share a request. */
	group: Group;
	payload: Payload;
	/** Who or what the piece is about (a user's identifier, an item ID), echoed in the item's result. */
	subject?: IDataObject;
}

/** What happened to one piece after its request was answered. */
export type PieceOutcome = PieceSuccess | { ok: false; error: PieceError };

export interface PieceSuccess {
	ok: true;
	warnings?: string[];
	data?: IDataObject;
	/** Not sent: the platform holds this value already, as this workflow last had it accepted (Send Only Changes). */
	unchanged?: true;
	/** Not sent: a later item of the run sets the same state of the same user; its index. */
	replacedBy?: number;
	/** Parts of the piece that a later item sets instead, each with that item's index, e.g. {tier: 7}. */
	replacedParts?: Record<string, number>;
	/** The answer accepted the piece without proving its state applied (an error it could not place, a user it may not know). */
	unproven?: true;
}

export interface PieceError {
	message: string;
	description?: string;
	/** not_applied: safe to send again. maybe_applied: the platform may or may not have stored it. */
	delivery: 'not_applied' | 'maybe_applied';
	httpCode?: number;
	response?: IDataObject;
	/**
	 * The failure is the run's, not the item's (a refused key, a missing permission, an address not
	 * allowed, a redirect): every request of the run meets it, so it is said once for the run.
	 */
	ofTheRun?: boolean;
}

export interface PlannedRequest<Group = unknown, Payload = IDataObject> {
	group: Group;
	/** Pieces by slot, in input order. */
	slots: Map<string, Array<Piece<Group, Payload>>>;
	pieceCount: number;
}

/** Limits a run may lower below the declared ones (Options such as Batch Size). */
export interface LoweredLimits {
	/** Most pieces of each list slot in one request. */
	perSlot?: number;
	/** Most pieces of all slots together in one request. */
	total?: number;
}
