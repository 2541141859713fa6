import { handleCatalogItems } from '../catalogs/handleCatalogItems';
import type { RouteDeclaration } from '../core/route';

/** DELETE /catalogs/{catalog_name}/items: removes items (objects carry only `id`; unknown IDs ignored). 202 `{ message: 'success' }`. */
export const catalogItemsDelete: RouteDeclaration = {
	method: 'DELETE',
	path: '/catalogs/{catalog_name}/items',
	auth: 'rest',
	permission: 'catalogs.delete_items',
	rateLimitGroup: 'catalogs',
	handle: (context) => handleCatalogItems('delete', context),
};
