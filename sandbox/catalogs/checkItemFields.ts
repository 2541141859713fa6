import type { CatalogField } from '../adminApiTypes';
import type { Catalog } from '../state/catalogStore';
import { isWellFormedOperators, looksLikeOperators, operandsOf } from './arrayOperators';
import type { CatalogErrors } from './catalogErrors';
import { itemLabel, type CatalogOperation } from './catalogOperation';
import { fitsFieldType } from './fieldType';
import { badKeysIn, isTooLarge, MAX_NESTING, nestingOf } from './valueShape';

/** The fields of every item (everything but `id`): declared in the catalog, and values the spec allows. */
export function checkItemFields(
	catalog: Catalog,
	items: Array<{ item: Record<string, unknown>; index: number }>,
	operation: CatalogOperation,
	errors: CatalogErrors,
): void {
	const declared = new Map(catalog.fields.map((field) => [field.name, field]));
	for (const { item, index } of items) {
		const label = itemLabel(item, index);
		for (const [name, value] of Object.entries(item)) {
			if (name === 'id') continue;
			const field = declared.get(name);
			// DELETE objects carry only `id`: any other key is a field the request may not send. invalid-fields
			// is the spec's id for it (not restricted to PATCH / PUT in its table).
			if (!field || operation === 'delete') errors.add('invalid-fields', label, name);
			else checkValue(field, value, operation, label, errors);
		}
	}
}

function checkValue(
	field: CatalogField,
	value: unknown,
	operation: CatalogOperation,
	label: string,
	errors: CatalogErrors,
): void {
	if (looksLikeOperators(value)) {
		// `$add` / `$remove` only on PATCH, only on array fields, only with arrays. Anything else is a value
		// that does not fit the field: unable-to-coerce-value (rather than invalid-keys-in-value-object for
		// the `$` keys, which would hide that the operator itself is what is refused).
		if (operation !== 'update' || field.type !== 'array' || !isWellFormedOperators(value)) {
			errors.add('unable-to-coerce-value', label, value);
			return;
		}
		checkShape(operandsOf(value), label, errors);
		return;
	}
	checkShape(value, label, errors);
	if (!fitsFieldType(value, field.type)) errors.add('unable-to-coerce-value', label, value);
}

function checkShape(value: unknown, label: string, errors: CatalogErrors): void {
	for (const key of badKeysIn(value)) errors.add('invalid-keys-in-value-object', label, key);
	if (nestingOf(value) > MAX_NESTING) errors.add('too-deep-nesting-in-value-object', label, value);
	if (isTooLarge(value)) errors.add('items-too-large', label, value);
}
