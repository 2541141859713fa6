import type { OperationSpec, Piece, PieceSuccess, StatePart } from '../operation';

/**
 * The last word of a run. When several items set the same part of one user's state (a CRM export
 * with two rows for one contact), the platform must end on the last item's value. The spec promises
 * no order between the elements of a request, nor between requests in flight at once, nor for a
 * resend, so the engine never sends a part twice in one run: each part travels with the last item
 * that sets it, and leaves the earlier pieces. An attribute object keeps the parts no later item
 * sets (a later item that sets only `tier` does not undo an earlier item's `city`).
 */
export interface LastWord {
	/** The pieces to send: each state piece holding only the parts whose last word it is. */
	pieces: Piece[];
	/** Pieces left out entirely, each answered as replaced by the later item. */
	replaced: Map<Piece, PieceSuccess>;
	/** Sent pieces that lost some parts to later items: the input's piece, and which parts went to which item. */
	partlyReplaced: Map<Piece, { original: Piece; lost: Record<string, number> }>;
	/** The parts each sent state piece sets (every state piece's when asked for, else those of users named twice). */
	parts: Map<Piece, StatePart[]>;
	/** Whether any piece of the run sets state. */
	setsState: boolean;
}

export function keepLastWord(spec: OperationSpec, pieces: Piece[], everyPart: boolean): LastWord {
	const result: LastWord = {
		pieces: [],
		replaced: new Map(),
		partlyReplaced: new Map(),
		parts: new Map(),
		setsState: false,
	};
	const stateSlots = spec.stateSlots;
	if (!stateSlots) {
		result.pieces = pieces;
		return result;
	}
	// Only a user that several pieces name can lose a part to a later one: the parts of the others are
	// read only when Send Only Changes compares them (`everyPart`).
	const userOf = new Map<Piece, string>();
	const pieceCount = new Map<string, number>();
	for (const piece of pieces) {
		const slot = stateSlots[piece.slot];
		if (!slot) continue;
		const user = slot.userOf(piece);
		userOf.set(piece, user);
		pieceCount.set(user, (pieceCount.get(user) ?? 0) + 1);
	}
	result.setsState = userOf.size > 0;
	const partsOf = new Map<Piece, StatePart[]>();
	const lastWriter = new Map<string, Piece>();
	for (const [piece, user] of userOf) {
		const named = pieceCount.get(user)!;
		if (!everyPart && named === 1) continue;
		const parts = stateSlots[piece.slot].parts(piece);
		partsOf.set(piece, parts);
		if (named > 1) for (const part of parts) lastWriter.set(partKey(part), piece);
	}

	for (const piece of pieces) {
		const parts = partsOf.get(piece);
		if (!parts || parts.length === 0) {
			result.pieces.push(piece);
			continue;
		}
		// A user only this piece names keeps every part: no other piece can have the last word.
		if (pieceCount.get(userOf.get(piece)!) === 1) {
			result.parts.set(piece, parts);
			result.pieces.push(piece);
			continue;
		}
		const kept: StatePart[] = [];
		const lost: Record<string, number> = {};
		for (const part of parts) {
			const writer = lastWriter.get(partKey(part))!;
			if (writer === piece) kept.push(part);
			else lost[part.label] = writer.itemIndex;
		}
		if (kept.length === 0) {
			result.replaced.set(piece, { ok: true, replacedBy: Math.max(...Object.values(lost)), replacedParts: lost });
			continue;
		}
		const sent =
			kept.length === parts.length ? piece : { ...piece, payload: stateSlots[piece.slot].keepOnly(piece, kept) };
		if (sent !== piece) result.partlyReplaced.set(sent, { original: piece, lost });
		result.parts.set(sent, kept);
		result.pieces.push(sent);
	}
	return result;
}

/** One part of one user in one line: the key of the maps above and of what Send Only Changes remembers. */
function partKey(part: StatePart): string {
	return `${part.user}\u0000${part.key}`;
}
