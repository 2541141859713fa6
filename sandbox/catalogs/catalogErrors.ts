import type { RouteResult } from '../core/route';

/** The spec's error ids of the catalog item endpoints (Errors, Catalogs). */
export type CatalogErrorId =
	| 'catalog-not-found'
	| 'ids-too-large'
	| 'ids-not-strings'
	| 'ids-not-string'
	| 'ids-not-unique'
	| 'invalid-ids'
	| 'invalid-fields'
	| 'invalid-keys-in-value-object'
	| 'items-missing-ids'
	| 'item-array-invalid'
	| 'items-too-large'
	| 'request-includes-too-many-items'
	| 'too-deep-nesting-in-value-object'
	| 'unable-to-coerce-value';

// Not shown: the messages. Braze's wording.
const MESSAGES: Record<CatalogErrorId, string> = {
	'catalog-not-found': 'Could not find catalog',
	'ids-too-large': 'Item IDs cannot be more than 250 characters',
	'ids-not-strings': 'Item IDs must be of type string',
	'ids-not-string': 'Item IDs must be of type string',
	'ids-not-unique': 'Item IDs must be unique in the request',
	'invalid-ids': 'Item IDs can only include letters, numbers, hyphens, and underscores',
	'invalid-fields': 'Some of the fields given do not exist in the catalog',
	'invalid-keys-in-value-object': "Item object keys can't include . or $",
	'items-missing-ids': 'There are items that do not have item IDs',
	'item-array-invalid': 'items must be an array of objects',
	'items-too-large': 'Item values cannot exceed 5,000 characters',
	'request-includes-too-many-items': 'Your request has too many items. The item limit per request is 50',
	'too-deep-nesting-in-value-object': 'Item objects cannot have more than 50 levels of nesting',
	'unable-to-coerce-value': 'Item types cannot be converted',
};

export interface CatalogError {
	id: CatalogErrorId;
	message: string;
	parameters: string[];
	parameter_values: unknown[];
}

/**
 * The problems of one request, one error object per id (first found first). `parameters` and
 * `parameter_values` run in parallel, one entry per offence: `parameters[i]` names the item concerned
 * (its ID; `items[<index>]` when it has no string ID; `items` or `catalog_name` for the request as a
 * whole) and `parameter_values[i]` is what offended (the ID, the undeclared field name, the bad key, the
 * field's value, the item count). Braze itself answers `parameters: ['id']`; naming the items lets a
 * client map each error back to the items it sent.
 */
export class CatalogErrors {
	private readonly byId = new Map<CatalogErrorId, CatalogError>();

	add(id: CatalogErrorId, parameter: string, value: unknown): void {
		let error = this.byId.get(id);
		if (!error) {
			error = { id, message: MESSAGES[id], parameters: [], parameter_values: [] };
			this.byId.set(id, error);
		}
		error.parameters.push(parameter);
		error.parameter_values.push(value === undefined ? null : value);
	}

	get empty(): boolean {
		return this.byId.size === 0;
	}

	/** 400 `{ message: 'Invalid Request', errors }` (the spec's catalog 400 body). */
	toResult(status = 400): RouteResult {
		return { status, body: { message: 'Invalid Request', errors: [...this.byId.values()] } };
	}
}

/**
 * The spec lists catalog-not-found among the 400 ids, and 404 among the statuses with its body "not
 * shown". We answer an unknown catalog 404 (the resource is missing) with the 400 body shape and this id.
 */
export function catalogNotFound(name: string): RouteResult {
	const errors = new CatalogErrors();
	errors.add('catalog-not-found', 'catalog_name', name);
	return errors.toResult(404);
}
