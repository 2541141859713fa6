import type { IDataObject } from 'n8n-workflow';

import type { Piece, PlannedRequest } from './operation';

/**
 * For operations that send one request per item (with packing `{ perSlot: 1 }`): the item's
 * piece, in a group of its own.
 */
export function ownRequestPiece<Payload>(itemIndex: number, payload: Payload, subject?: IDataObject): Piece<Payload> {
	return { itemIndex, slot: 'item', groupKey: `item ${itemIndex}`, payload, subject };
}

/** The piece of a request that carries one. */
export function onlyPiece<Payload>(request: PlannedRequest<Payload>): Piece<Payload> {
	return [...request.slots.values()][0][0];
}
