import { handleCatalogItems } from '../catalogs/handleCatalogItems';
import type { RouteDeclaration } from '../core/route';

/** PUT /catalogs/{catalog_name}/items: creates items or replaces them whole. 202 `{ message: 'success' }`. */
export const catalogItemsPut: RouteDeclaration = {
	method: 'PUT',
	path: '/catalogs/{catalog_name}/items',
	auth: 'rest',
	permission: 'catalogs.replace_items',
	rateLimitGroup: 'catalogs',
	handle: (context) => handleCatalogItems('replace', context),
};
