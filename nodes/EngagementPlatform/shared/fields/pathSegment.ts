import { ItemInputError } from '../engine/read/itemInputError';
import type { ItemReader } from '../engine/read/readItems';

/** Half of a UTF-16 surrogate pair without its other half: text cut in the middle of an emoji. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A required value that goes into the request's URL path (a campaign, catalog, preference center
 * or user ID). A lone surrogate cannot be written in a URL, so it is refused with the item's other
 * input errors rather than failing the run once requests are being sent.
 */
export function readPathSegment(item: ItemReader, name: string): string {
	const value = item.string(name);
	if (LONE_SURROGATE.test(value)) {
		throw new ItemInputError(
			item.labelOf(name),
			'holds a broken character (half of an emoji or other surrogate pair) that cannot be sent in a URL',
			'Remove the broken character; it often comes from text cut in the middle of an emoji.',
		);
	}
	return value;
}
