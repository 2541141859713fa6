import type { RouteContext, RouteResult } from '../core/route';
import { applyItems } from './applyItems';
import { catalogNotFound, CatalogErrors } from './catalogErrors';
import type { CatalogOperation } from './catalogOperation';
import { checkItemFields } from './checkItemFields';
import { checkItemIds } from './checkItemIds';
import { readItemList } from './readItemList';

/** What the three catalog item endpoints share: find the catalog, check everything, then apply. */
export function handleCatalogItems(operation: CatalogOperation, { body, params, state }: RouteContext): RouteResult {
	const catalog = state.catalogs.get(params.catalog_name);
	if (!catalog) return catalogNotFound(params.catalog_name);
	const errors = new CatalogErrors();
	const items = readItemList(body, operation, errors);
	if (items) {
		checkItemIds(items, operation, errors);
		checkItemFields(catalog, items, operation, errors);
	}
	// Not shown whether a request with some bad items is applied in part. We refuse it whole: every problem
	// is listed and nothing changes, so a client can fix the items named and send them all again.
	if (!errors.empty || !items) return errors.toResult();
	// The spec: the change is asynchronous (202). The sandbox applies it before answering, so a test can read
	// it straight away; a client must not rely on that against the platform.
	applyItems(
		catalog,
		operation,
		items.map(({ item }) => item),
	);
	return { status: 202, body: { message: 'success' } };
}
