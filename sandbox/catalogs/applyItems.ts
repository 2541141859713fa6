import type { Catalog } from '../state/catalogStore';
import { applyArrayOperators, isWellFormedOperators, looksLikeOperators } from './arrayOperators';
import type { CatalogOperation } from './catalogOperation';

/** Applies a request that passed every check. Items are the request's objects, each with a valid `id`. */
export function applyItems(catalog: Catalog, operation: CatalogOperation, items: Array<Record<string, unknown>>): void {
	for (const item of items) {
		const id = item.id as string;
		if (operation === 'delete') {
			// Not shown: an ID the catalog lacks. Braze accepts the request and ignores it.
			catalog.items.delete(id);
		} else if (operation === 'replace') {
			// The whole item is replaced: fields not sent are gone. A new ID is appended, an existing one keeps its place.
			catalog.items.set(id, structuredClone(item));
		} else {
			const existing = catalog.items.get(id);
			// Not shown: PATCH of an ID the catalog lacks. Braze edits existing items only and ignores the rest
			// (no error, nothing created): PUT creates.
			if (existing) patchItem(existing, item);
		}
	}
}

function patchItem(existing: Record<string, unknown>, patch: Record<string, unknown>): void {
	for (const [name, value] of Object.entries(patch)) {
		if (name === 'id') continue;
		existing[name] =
			looksLikeOperators(value) && isWellFormedOperators(value)
				? applyArrayOperators(existing[name], value)
				: structuredClone(value);
	}
}
