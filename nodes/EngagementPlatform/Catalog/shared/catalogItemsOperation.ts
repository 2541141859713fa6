import type { IDataObject, IHttpRequestMethods, INodeProperties } from 'n8n-workflow';

import type {
	ApiResponse,
	Endpoint,
	ItemReader,
	OperationSpec,
	Piece,
	PieceOutcome,
	PlannedRequest,
	RequestShape,
} from '../../shared/engine';
import {
	answerRemaining,
	declareOperation,
	ItemInputError,
	refuseRepeatedKeys,
	responseError,
} from '../../shared/engine';
import { defineInputs, pathSegment, propertiesOf, requiredText } from '../../shared/fields/inputs';
import { characterCount, exceedsCharacters } from '../../shared/schemas/textValues';
import { namedValues } from '../../shared/fields/namedValues';

/** The spec: "up to 50 items per request". */
const ITEMS_PER_REQUEST = 50;

/**
 * /catalogs/{catalog_name}/items as a declaration for the three methods: 50 items per request
 * for the same catalog; the spec's item rules checked before sending; a 400's errors mapped to
 * the items they name.
 */

const ITEM_ID_FORM = /^[A-Za-z0-9_-]{1,250}$/;
/** "Item values at most 5,000 characters": counted as code points, as every character limit of the spec is. */
const MAX_VALUE_CHARACTERS = 5000;
const MAX_DEPTH = 50;
const UPDATE_OPERATORS: ReadonlySet<string> = new Set(['$add', '$remove']);

export type CatalogMethod = 'PATCH' | 'PUT' | 'DELETE';

/** Items of one catalog share requests; the catalog is the path's. */
interface Catalog {
	catalog_name: string;
}
type CatalogPiece = Piece<Catalog>;

const CATALOG_SHAPE: RequestShape<Catalog> = {
	slots: { items: { form: 'list', field: 'items', max: ITEMS_PER_REQUEST } },
	batch: 'catalog items',
	groupKey: (group) => group.catalog_name,
	pathParams: (group) => ({ catalog_name: group.catalog_name }),
};

const CATALOG = pathSegment({
	displayName: 'Catalog Name',
	name: 'catalogName',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. restaurants',
	builderHint: {
		propertyHint:
			'The name of a catalog that exists in the platform, written exactly as it was created, usually the same for every item. Never invent one: if the user has not given it, use a placeholder for them to fill in.',
	},
});

const ITEM_ID = requiredText({
	displayName: 'Item ID',
	name: 'itemId',
	type: 'string',
	default: '',
	required: true,
	hint: 'Up to 250 letters, digits, hyphens and underscores',
	builderHint: {
		propertyHint:
			"The item's ID in the catalog, usually mapped from the input's product ID or SKU; up to 250 letters, digits, hyphens and underscores, other characters fail the item.",
	},
});

/** The item's fields other than its ID, for the methods that write them; the example shows what each takes. */
const fieldsShowing = (example: string) =>
	namedValues({ name: 'fields', displayName: 'Fields', noun: 'Field', example });
const FIELDS = {
	PATCH: fieldsShowing('{"rating": 4.5, "tags": {"$add": ["vegan"]}}'),
	PUT: fieldsShowing('{"name": "Pizza Place", "rating": 4.5, "tags": ["pizza"]}'),
};

/** The inputs of a method: the catalog and the item, and its fields unless it deletes it. */
function catalogItemInputs(method: CatalogMethod) {
	return defineInputs({
		catalog: CATALOG,
		itemId: ITEM_ID,
		...(method === 'DELETE' ? {} : { fields: FIELDS[method] }),
	});
}

export function catalogItemFields(method: CatalogMethod): INodeProperties[] {
	return propertiesOf(catalogItemInputs(method));
}

export function catalogItemsOperation(method: CatalogMethod, status: string): OperationSpec {
	const permission = { PATCH: 'catalogs.update_items', PUT: 'catalogs.replace_items', DELETE: 'catalogs.delete_items' }[
		method
	];
	const endpoint: Endpoint<Catalog> = {
		method: method as IHttpRequestMethods,
		path: '/catalogs/{catalog_name}/items',
		rateLimit: 'catalogs',
		permission,
		credentialType: 'engagementPlatformApi',
		// Spec: the answer's `message` is success when the request succeeded.
		successSaysSo: true,
	};
	return declareOperation<Catalog, IDataObject>({
		endpoint,
		shape: CATALOG_SHAPE,
		readItem: (item) => [readCatalogItem(item, method)],
		checkAcrossItems: uniqueIdsPerCatalog,
		// Replacing, editing with the same values, or deleting again ends in the same catalog;
		// $add and $remove are the exception, so PATCH is not resent.
		isSafeToResend: () => method !== 'PATCH',
		readResponse: (_, request) => answerRemaining(request, { ok: true }),
		readErrorResponse: (response, request) => readCatalogErrors(response, request, endpoint),
		successStatus: { word: status },
		itemResult: (_, [{ piece }]) => [{ status, ...piece.subject }],
	});
}

function readCatalogItem(item: ItemReader, method: CatalogMethod): CatalogPiece {
	const catalog = CATALOG.read(item);
	const id = ITEM_ID.read(item);
	if (!ITEM_ID_FORM.test(id)) {
		throw ITEM_ID.problem(
			`"${id.slice(0, 60)}" must be 1 to 250 letters, digits, hyphens or underscores`,
			'Remove other characters, or shorten it.',
		);
	}
	const payload: IDataObject = { id };
	if (method !== 'DELETE') {
		const fieldsInput = FIELDS[method];
		const fields = fieldsInput.read(item) ?? {};
		if ('id' in fields)
			throw new ItemInputError(`${fieldsInput.label}.id`, `is set in ${ITEM_ID.label}`, 'Remove "id" from the fields.');
		for (const [name, value] of Object.entries(fields)) {
			if (name.includes('.') || name.includes('$')) {
				throw new ItemInputError(
					`${fieldsInput.label}.${name}`,
					'is a field name with "." or "$", which the platform refuses',
					'Rename the field.',
				);
			}
			checkValue(value, `${fieldsInput.label}.${name}`, method, 1);
		}
		Object.assign(payload, fields);
	}
	return {
		itemIndex: item.itemIndex,
		slot: 'items',
		group: { catalog_name: catalog },
		payload,
		subject: { catalog_name: catalog, id },
	};
}

/** Keys without "." or "$" (but $add / $remove on PATCH), values up to 5,000 characters, nesting up to 50. */
function checkValue(value: unknown, field: string, method: CatalogMethod, depth: number): void {
	if (depth > MAX_DEPTH) throw new ItemInputError(field, 'is nested more than 50 levels deep', 'Flatten the value.');
	if (typeof value === 'string' && exceedsCharacters(value, MAX_VALUE_CHARACTERS)) {
		throw new ItemInputError(
			field,
			`is ${characterCount(value)} characters; values may have at most 5,000`,
			'Shorten the value.',
		);
	}
	if (Array.isArray(value))
		value.forEach((element, index) => checkValue(element, `${field}[${index}]`, method, depth + 1));
	else if (value !== null && typeof value === 'object') {
		for (const [key, inner] of Object.entries(value)) {
			const operator = UPDATE_OPERATORS.has(key) && depth === 1;
			if (operator && method !== 'PATCH') {
				throw new ItemInputError(
					`${field}.${key}`,
					'is an update operator, allowed only when editing items',
					'Use Edit Items, or give the whole array.',
				);
			}
			if (!operator && (key.includes('.') || key.includes('$'))) {
				throw new ItemInputError(
					`${field}.${key}`,
					'is a key with "." or "$", which the platform refuses',
					'Rename the key.',
				);
			}
			checkValue(inner, `${field}.${key}`, method, depth + 1);
		}
	}
}

/** The platform refuses a request whose item IDs repeat: a repeated ID in one catalog is refused here. */
function uniqueIdsPerCatalog(pieces: CatalogPiece[]): Map<number, ItemInputError> {
	return refuseRepeatedKeys(
		pieces,
		(piece) => JSON.stringify([piece.group.catalog_name, piece.payload.id]),
		(piece, first) =>
			ITEM_ID.problem(
				`"${String(piece.payload.id)}" is also given by row ${first + 1} (item ${first}) for this catalog`,
				'Merge the two items into one, or remove one.',
			),
	);
}

/**
 * A 400 lists errors, each naming the item IDs (or fields) it concerns in `parameters` and
 * `parameter_values`. Those items get that error; catalog-not-found concerns them all. The
 * platform applies nothing of a refused request, so the other items say so and can be resent.
 */
function readCatalogErrors(
	response: ApiResponse,
	request: PlannedRequest<Catalog>,
	endpoint: Endpoint<Catalog>,
): Map<CatalogPiece, PieceOutcome> {
	const pieces = request.slots.get('items') ?? [];
	const outcomes = new Map<CatalogPiece, PieceOutcome>();
	const errors = (Array.isArray(response.body.errors) ? response.body.errors : []) as IDataObject[];
	// No error names an item: the request was refused as a whole (a key without the permission, a
	// wrong key, an unknown address), and every item gets that reason rather than another item's blame.
	if (errors.length === 0)
		return answerRemaining(request, { ok: false, error: responseError(response, endpoint, false) });
	for (const error of errors) {
		const named = [...((error.parameters as unknown[]) ?? []), ...((error.parameter_values as unknown[]) ?? [])].map(
			String,
		);
		const concerned =
			error.id === 'catalog-not-found'
				? pieces
				: pieces.filter(
						(piece) =>
							named.includes(String(piece.payload.id)) ||
							Object.keys(piece.payload).some((key) => key !== 'id' && named.includes(key)),
					);
		for (const piece of concerned.length > 0 ? concerned : pieces) {
			if (outcomes.has(piece)) continue;
			outcomes.set(piece, {
				ok: false,
				error: {
					message: `${String(error.id ?? 'error')}: ${String(error.message ?? response.body.message ?? 'the platform refused this item')}`,
					description: catalogAdvice(String(error.id)),
					delivery: 'not_applied',
					httpCode: response.statusCode,
					response: error,
				},
			});
		}
	}
	return answerRemaining(
		request,
		{
			ok: false,
			error: {
				message: 'Not applied: another item of the same request was refused, and the platform applies all or nothing',
				description: 'Fix the refused items and run these again.',
				delivery: 'not_applied',
				httpCode: response.statusCode,
			},
		},
		outcomes,
	);
}

function catalogAdvice(id: string): string {
	switch (id) {
		case 'catalog-not-found':
			return 'Check the catalog name; it must be an existing catalog of this workspace.';
		case 'invalid-fields':
			return 'Send only fields the catalog declares, or add the field to the catalog first.';
		case 'unable-to-coerce-value':
			return "Give the value in the type the catalog's field declares (e.g. a number, not text).";
		default:
			return 'Correct the item as the message says and run it again.';
	}
}
