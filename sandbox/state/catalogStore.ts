import type { CatalogField, CatalogView } from '../adminApiTypes';

/** One catalog: its declared fields and its items by ID (a Map keeps creation order). */
export interface Catalog {
	name: string;
	fields: CatalogField[];
	items: Map<string, Record<string, unknown>>;
}

/** A copy for the admin state view. */
export function catalogView(catalog: Catalog): CatalogView {
	return {
		name: catalog.name,
		fields: catalog.fields.map((field) => ({ ...field })),
		items: [...catalog.items.values()].map((item) => structuredClone(item)),
	};
}
