import type { CatalogErrors } from './catalogErrors';
import { itemLabel, type CatalogOperation } from './catalogOperation';
import { hasValidItemIdCharacters, MAX_ITEM_ID_LENGTH } from './itemIdRules';

/** The ID rules of every item: present, a string, at most 250 allowed characters, unique in the request. */
export function checkItemIds(
	items: Array<{ item: Record<string, unknown>; index: number }>,
	operation: CatalogOperation,
	errors: CatalogErrors,
): void {
	const seen = new Map<string, number>();
	for (const { item, index } of items) {
		const id = item.id;
		const label = itemLabel(item, index);
		if (id === undefined || id === null) {
			errors.add('items-missing-ids', label, null);
			continue;
		}
		if (typeof id !== 'string') {
			// The spec's own spelling differs: ids-not-string on PUT, ids-not-strings on PATCH and DELETE.
			errors.add(operation === 'replace' ? 'ids-not-string' : 'ids-not-strings', label, id);
			continue;
		}
		if (id.length > MAX_ITEM_ID_LENGTH) errors.add('ids-too-large', label, id);
		if (!hasValidItemIdCharacters(id)) errors.add('invalid-ids', label, id);
		seen.set(id, (seen.get(id) ?? 0) + 1);
	}
	// One entry per repeated ID, however often it repeats.
	for (const [id, count] of seen) if (count > 1) errors.add('ids-not-unique', id, id);
}
