import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Piece, PieceOutcome } from '../operation';
import { canonicalValue } from '../operation';
import type { AsItCame } from '../asItCame';
import { itemsAsTheyCame } from '../asItCame';
import { runIndexOf } from '../runIndex';

/**
 * A run that n8n tries again: Retry On Fail runs the node again with the same input and run index when
 * it throws or its first item holds an `error`, and *Executions → Retry* runs a failed execution again
 * from its saved data, the node's context included. Either would send again what the first try got
 * accepted (a message, an event), or may have applied (an answer lost after the platform acted). So a
 * run that may be tried again keeps, in the node's context for this execution, what the platform
 * accepted or may have applied, piece by piece, and the time the run began; a later try of the same run
 * reads its items with that time, answers those pieces as the earlier try did and sends only the rest. A
 * run that ends without a reason to be tried again forgets.
 *
 * A piece is known by the item it came from as it came in (asItCame.ts) and its place among that
 * item's pieces, never only by the request it evaluates to: `{{ $now }}` or a random value differ
 * between tries. A piece whose request is the same is the same piece too (a node whose fields were
 * changed before Executions → Retry, where they send the same).
 */
export interface EarlierTries {
	/** The time the first try of this run began (an empty Time is that time); undefined on a first try. */
	runTime?: string;
	/**
	 * This try's pieces, each one an earlier try got accepted or may have applied as it was sent then,
	 * and those pieces' outcomes.
	 */
	match(pieces: Piece[]): { pieces: Piece[]; accepted: Map<Piece, PieceOutcome> };
	/** Keeps this try's accepted pieces and its time, or forgets them all when no try will follow. */
	close(outcomes: Map<Piece, PieceOutcome>, triedAgain: boolean, runTime: string): void;
}

/** What a try kept of a piece: the item it came from, what it sent, and how it went. */
interface KeptPiece {
	item: string;
	request: string;
	payload: IDataObject;
	outcome: PieceOutcome;
}

/** By the piece's place: its item's index and its place among that item's pieces ("3.0"). */
interface Kept {
	runTime: string;
	pieces: Record<string, KeptPiece>;
}

export function openEarlierTries(context: IExecuteFunctions): EarlierTries {
	const store = context.getContext('node') as IDataObject;
	const key = `acceptedInRun${runIndexOf(context)}`;
	const kept = store[key] as Kept | undefined;
	const asItCame = itemsAsTheyCame(context);
	/** This try's pieces an earlier try answered, each with what that try kept. */
	const matched = new Map<Piece, KeptPiece>();
	let tried: Piece[] = [];
	return {
		runTime: kept?.runTime,
		match(pieces) {
			tried = pieces;
			const accepted = new Map<Piece, PieceOutcome>();
			if (!kept) return { pieces, accepted };
			const places = placesOf(pieces);
			tried = pieces.map((piece) => {
				const earlier = kept.pieces[places.get(piece)!];
				if (!earlier || (earlier.item !== asItCame(piece.itemIndex) && earlier.request !== requestOf(piece)))
					return piece;
				// Answered as it was sent then: what the platform holds, not what this try evaluated.
				const asSent = { ...piece, payload: earlier.payload };
				matched.set(asSent, earlier);
				accepted.set(asSent, earlier.outcome);
				return asSent;
			});
			return { pieces: tried, accepted };
		},
		close(outcomes, triedAgain, runTime) {
			if (!triedAgain) {
				delete store[key];
				return;
			}
			const next: Kept = { runTime, pieces: {} };
			for (const [piece, place] of placesOf(tried)) {
				const outcome = outcomes.get(piece);
				if (outcome === undefined || !mayHaveApplied(outcome)) continue;
				next.pieces[place] = matched.get(piece) ?? keptPiece(piece, outcome, asItCame);
			}
			store[key] = next as unknown as IDataObject;
		},
	};
}

/** Each piece's place: its item's index and how many pieces of that item came before it. */
function placesOf(pieces: Piece[]): Map<Piece, string> {
	const places = new Map<Piece, string>();
	const before = new Map<number, number>();
	for (const piece of pieces) {
		const count = before.get(piece.itemIndex) ?? 0;
		before.set(piece.itemIndex, count + 1);
		places.set(piece, `${piece.itemIndex}.${count}`);
	}
	return places;
}

function keptPiece(piece: Piece, outcome: PieceOutcome, asItCame: AsItCame): KeptPiece {
	return { item: asItCame(piece.itemIndex), request: requestOf(piece), payload: piece.payload, outcome };
}

function mayHaveApplied(outcome: PieceOutcome): boolean {
	return outcome.ok || outcome.error.delivery === 'maybe_applied';
}

/** What the piece sends and where: equal for the same request, and only then. */
function requestOf(piece: Piece): string {
	return createHash('sha256')
		.update(canonicalValue({ slot: piece.slot, group: piece.group, payload: piece.payload }))
		.digest('base64url')
		.slice(0, 22);
}
