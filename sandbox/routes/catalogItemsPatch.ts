import { handleCatalogItems } from '../catalogs/handleCatalogItems';
import type { RouteDeclaration } from '../core/route';

/** PATCH /catalogs/{catalog_name}/items: edits existing items (unknown IDs ignored); `$add` / `$remove` on array fields. 202 `{ message: 'success' }`. */
export const catalogItemsPatch: RouteDeclaration = {
	method: 'PATCH',
	path: '/catalogs/{catalog_name}/items',
	auth: 'rest',
	permission: 'catalogs.update_items',
	rateLimitGroup: 'catalogs',
	handle: (context) => handleCatalogItems('update', context),
};
