import type { CatalogFieldType } from '../adminApiTypes';
import { isDatetimeString, isPlainObject } from '../formats';

/**
 * Whether a sent value fits the field's declared type. Nothing is converted (the strictest reading of
 * unable-to-coerce-value: a number sent to a string field is refused, so the node must send typed values);
 * `time` takes an ISO 8601 datetime string. `null` fits every type and clears the field, as Braze allows.
 */
export function fitsFieldType(value: unknown, type: CatalogFieldType): boolean {
	if (value === null) return true;
	switch (type) {
		case 'string':
			return typeof value === 'string';
		case 'number':
			return typeof value === 'number' && Number.isFinite(value);
		case 'boolean':
			return typeof value === 'boolean';
		case 'time':
			return isDatetimeString(value);
		case 'array':
			return Array.isArray(value);
		case 'object':
			return isPlainObject(value);
	}
}
