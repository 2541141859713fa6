import type { Piece, PieceOutcome, PlannedRequest } from './operation';

/** Gives every piece of the request that has no outcome yet the same outcome. */
export function settleRemaining<Group, Payload>(
	request: PlannedRequest<Group, Payload>,
	outcome: PieceOutcome,
	outcomes = new Map<Piece<Group, Payload>, PieceOutcome>(),
): Map<Piece<Group, Payload>, PieceOutcome> {
	for (const pieces of request.slots.values()) {
		for (const piece of pieces) if (!outcomes.has(piece)) outcomes.set(piece, outcome);
	}
	return outcomes;
}
