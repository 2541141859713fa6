import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Piece, PieceOutcome } from '../operation';
import { canonicalValue } from '../operation';
import { runIndexOf } from '../runIndex';

/**
 * A run that n8n tries again: Retry On Fail runs the node again with the same input and run index when
 * it throws or its first item holds an `error`, and *Executions → Retry* runs a failed execution again
 * from its saved data, the node's context included. Either would send again what the first try got
 * accepted (a message, an event), or may have applied (an answer lost after the platform acted). So a
 * run that may be tried again keeps, in the node's context for this execution, what the platform
 * accepted or may have applied, piece by piece; a later try of the same run answers those pieces as the
 * earlier try did and sends only the rest. A run that ends without a reason to be tried again forgets.
 */
export interface EarlierTries {
	/** Pieces an earlier try of this run got accepted or may have applied, with their outcomes. */
	accepted: Map<Piece, PieceOutcome>;
	/** Keeps this try's accepted pieces, or forgets them all when no try will follow. */
	close(outcomes: Map<Piece, PieceOutcome>, triedAgain: boolean): void;
}

/** By the piece's position in the run: the piece it was (its fingerprint) and its outcome. */
type Kept = Record<string, { piece: string; outcome: PieceOutcome }>;

export function openEarlierTries(context: IExecuteFunctions, pieces: Piece[]): EarlierTries {
	const store = context.getContext('node') as IDataObject;
	const key = `acceptedInRun${runIndexOf(context)}`;
	const kept = (store[key] ?? {}) as Kept;
	// The same input read the same way gives the same pieces in the same order. A try may read other
	// pieces (a workflow fixed before Executions → Retry): a position counts only for the same piece.
	const accepted = new Map<Piece, PieceOutcome>();
	for (const position in kept) {
		const piece = pieces[Number(position)];
		if (piece && kept[position].piece === fingerprint(piece)) accepted.set(piece, kept[position].outcome);
	}
	return {
		accepted,
		close(outcomes, triedAgain) {
			if (!triedAgain) {
				delete store[key];
				return;
			}
			const next: Kept = {};
			pieces.forEach((piece, position) => {
				const outcome = outcomes.get(piece);
				if (outcome !== undefined && mayHaveApplied(outcome))
					next[position] = { piece: accepted.has(piece) ? kept[position].piece : fingerprint(piece), outcome };
			});
			store[key] = next as unknown as IDataObject;
		},
	};
}

function mayHaveApplied(outcome: PieceOutcome): boolean {
	return outcome.ok || outcome.error.delivery === 'maybe_applied';
}

/** What the piece sends and where: equal for the same item read the same way, and only then. */
function fingerprint(piece: Piece): string {
	return createHash('sha256')
		.update(canonicalValue({ slot: piece.slot, group: piece.group, payload: piece.payload }))
		.digest('base64url')
		.slice(0, 22);
}
