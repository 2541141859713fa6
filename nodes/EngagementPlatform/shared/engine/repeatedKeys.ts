import type { ItemInputError } from './itemInputError';
import type { Piece } from './operation';

/**
 * For checkAcrossItems: every piece whose key an earlier item already gave is refused, with
 * the error `refuse` builds from the key and that earlier item's index.
 */
export function refuseRepeatedKeys<Payload>(
	pieces: Array<Piece<Payload>>,
	keyOf: (piece: Piece<Payload>) => string,
	refuse: (key: string, firstItemIndex: number) => ItemInputError,
): Map<number, ItemInputError> {
	const firstItem = new Map<string, number>();
	const errors = new Map<number, ItemInputError>();
	for (const piece of pieces) {
		const key = keyOf(piece);
		const first = firstItem.get(key);
		if (first === undefined) firstItem.set(key, piece.itemIndex);
		else errors.set(piece.itemIndex, refuse(key, first));
	}
	return errors;
}

