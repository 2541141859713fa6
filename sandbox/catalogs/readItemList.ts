import { isPlainObject } from '../formats';
import type { CatalogErrors } from './catalogErrors';
import { itemLabel, MAX_ITEMS_PER_REQUEST, type CatalogOperation } from './catalogOperation';

/**
 * The body's `items` as objects, or undefined when the request is refused as a whole (the error is added).
 * Elements that are not objects are reported here and left out of the list.
 */
export function readItemList(
	body: unknown,
	operation: CatalogOperation,
	errors: CatalogErrors,
): Array<{ item: Record<string, unknown>; index: number }> | undefined {
	// Other top-level fields are ignored, as Braze does; `items` is required, so a misspelt one still fails.
	const items = isPlainObject(body) ? body.items : undefined;
	if (!Array.isArray(items)) {
		errors.add(notAnObjectError(operation), 'items', items);
		return undefined;
	}
	// Refused before the items are read: the other problems of such a request are not listed.
	if (items.length > MAX_ITEMS_PER_REQUEST) {
		errors.add('request-includes-too-many-items', 'items', items.length);
		return undefined;
	}
	// An empty list is a valid "array of up to 50 items": accepted, nothing changes.
	const objects: Array<{ item: Record<string, unknown>; index: number }> = [];
	for (const [index, item] of items.entries()) {
		if (isPlainObject(item)) objects.push({ item, index });
		else errors.add(notAnObjectError(operation), itemLabel(item, index), item);
	}
	return objects;
}

// item-array-invalid is a PATCH / PUT id in the spec. DELETE objects carry only `id`, so there a
// non-object (or a missing `items`) is an item without an ID: items-missing-ids.
function notAnObjectError(operation: CatalogOperation) {
	return operation === 'delete' ? ('items-missing-ids' as const) : ('item-array-invalid' as const);
}
