/** PATCH edits items, PUT replaces (or creates) them, DELETE removes them. */
export type CatalogOperation = 'update' | 'replace' | 'delete';

/** The spec's per-request item limit. */
export const MAX_ITEMS_PER_REQUEST = 50;

/** `items[<index>]`, or the item's ID when it has a string one: how errors name an item. */
export function itemLabel(item: unknown, index: number): string {
	const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
	return typeof id === 'string' && id !== '' ? id : `items[${index}]`;
}
