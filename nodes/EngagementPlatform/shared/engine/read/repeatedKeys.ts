import type { ItemInputError } from './itemInputError';
import type { Piece } from '../operation';

/**
 * For checkAcrossItems: every piece whose key an earlier item already gave is refused, with the
 * error `refuse` builds from the piece and that earlier item's index. The key is only compared.
 */
export function refuseRepeatedKeys<Group, Payload>(
	pieces: Array<Piece<Group, Payload>>,
	keyOf: (piece: Piece<Group, Payload>) => string,
	refuse: (piece: Piece<Group, Payload>, firstItemIndex: number) => ItemInputError,
): Map<number, ItemInputError> {
	const firstItem = new Map<string, number>();
	const errors = new Map<number, ItemInputError>();
	for (const piece of pieces) {
		const key = keyOf(piece);
		const first = firstItem.get(key);
		if (first === undefined) firstItem.set(key, piece.itemIndex);
		else errors.set(piece.itemIndex, refuse(piece, first));
	}
	return errors;
}
