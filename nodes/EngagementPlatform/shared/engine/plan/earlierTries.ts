import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Piece, PieceOutcome } from '../operation';
import { runIndexOf } from '../runIndex';

/**
 * Retry On Fail: n8n tries a run of the node again, with the same input and run index, when it throws
 * or its first item is an error item, and so would send again what the first try got accepted (a
 * message, an event), or may have applied (an answer lost after the platform acted). With Retry On
 * Fail on, each try keeps in the node's context for this execution what the platform accepted or may
 * have applied, piece by piece; a later try of the same run answers those pieces as the earlier try
 * did and sends only the pieces known not to have been applied. A run that ends without a reason to be
 * tried again forgets.
 */
export interface EarlierTries {
	/** Pieces an earlier try of this run got accepted or may have applied, with their outcomes. */
	accepted: Map<Piece, PieceOutcome>;
	/** Keeps this try's accepted pieces, or forgets them all when no try will follow. */
	close(outcomes: Map<Piece, PieceOutcome>, triedAgain: boolean): void;
}

type Kept = Record<string, PieceOutcome>;

const NONE: EarlierTries = { accepted: new Map(), close: () => {} };

export function openEarlierTries(context: IExecuteFunctions, pieces: Piece[]): EarlierTries {
	if (context.getNode().retryOnFail !== true) return NONE;
	const store = context.getContext('node') as IDataObject;
	const key = `acceptedInRun${runIndexOf(context)}`;
	const kept = (store[key] ?? {}) as Kept;
	// The same input read the same way gives the same pieces in the same order, so a piece's position names it.
	const accepted = new Map<Piece, PieceOutcome>();
	pieces.forEach((piece, position) => {
		const outcome = kept[position];
		if (outcome !== undefined) accepted.set(piece, outcome);
	});
	return {
		accepted,
		close(outcomes, triedAgain) {
			if (!triedAgain) {
				delete store[key];
				return;
			}
			const next: Kept = { ...kept };
			pieces.forEach((piece, position) => {
				const outcome = outcomes.get(piece);
				if (outcome !== undefined && mayHaveApplied(outcome)) next[position] = outcome;
			});
			store[key] = next as unknown as IDataObject;
		},
	};
}

function mayHaveApplied(outcome: PieceOutcome): boolean {
	return outcome.ok || outcome.error.delivery === 'maybe_applied';
}
