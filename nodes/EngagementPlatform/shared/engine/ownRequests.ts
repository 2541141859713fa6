import type { Piece, PlannedRequest } from './operation';

/** The piece of a request whose slots allow one piece (the API is one item per request). */
export function onlyPiece<Group, Payload>(request: PlannedRequest<Group, Payload>): Piece<Group, Payload> {
	return [...request.slots.values()][0][0];
}
