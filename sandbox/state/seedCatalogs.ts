import type { CatalogFieldType, SeedCatalog } from '../adminApiTypes';
import { isValidItemId } from '../catalogs/itemIdRules';
import { isPlainObject } from '../formats';
import type { PlatformState } from './platformState';

const FIELD_TYPES: readonly CatalogFieldType[] = ['string', 'number', 'boolean', 'time', 'array', 'object'];

/**
 * What is wrong with the seeded catalogs, or undefined (checked before anything is stored). Item IDs and
 * field names are checked; item values are stored as given, without the endpoints' type rules.
 */
export function catalogSeedProblem(catalogs: SeedCatalog[] | undefined): string | undefined {
	if (catalogs === undefined) return undefined;
	if (!Array.isArray(catalogs)) return 'catalogs must be an array';
	for (const [i, catalog] of catalogs.entries()) {
		const path = `catalogs[${i}]`;
		if (!isPlainObject(catalog)) return `${path} must be an object`;
		// Braze's catalog names follow the item ID rule (letters, numbers, hyphens, underscores).
		if (!isValidItemId(catalog.name)) return `${path}.name must be a string of letters, numbers, hyphens, underscores`;
		const problem = fieldsProblem(path, catalog.fields) ?? itemsProblem(path, catalog);
		if (problem) return problem;
	}
	return undefined;
}

/** Stores them; a catalog name seeded again is replaced whole. Call catalogSeedProblem first. */
export function seedCatalogs(state: PlatformState, catalogs: SeedCatalog[] | undefined): void {
	for (const catalog of catalogs ?? []) {
		const items = new Map((catalog.items ?? []).map((item) => [item.id as string, structuredClone(item)]));
		state.catalogs.set(catalog.name, {
			name: catalog.name,
			fields: catalog.fields.map(({ name, type }) => ({ name, type })),
			items,
		});
	}
}

function fieldsProblem(path: string, fields: unknown): string | undefined {
	if (!Array.isArray(fields)) return `${path}.fields must be an array of { name, type }`;
	const names = new Set<string>();
	for (const [j, field] of fields.entries()) {
		if (!isPlainObject(field) || typeof field.name !== 'string' || field.name === '')
			return `${path}.fields[${j}].name must be a non-empty string`;
		if (field.name === 'id') return `${path}.fields[${j}]: 'id' is every catalog's own item ID, not a declared field`;
		if (/[.$]/.test(field.name)) return `${path}.fields[${j}].name cannot contain '.' or '$'`;
		if (!FIELD_TYPES.includes(field.type as CatalogFieldType))
			return `${path}.fields[${j}].type must be one of ${FIELD_TYPES.join(', ')}`;
		if (names.has(field.name)) return `${path}.fields: '${field.name}' is declared twice`;
		names.add(field.name);
	}
	return undefined;
}

function itemsProblem(path: string, catalog: Record<string, unknown>): string | undefined {
	if (catalog.items === undefined) return undefined;
	if (!Array.isArray(catalog.items)) return `${path}.items must be an array`;
	const declared = new Set((catalog.fields as Array<{ name: string }>).map((field) => field.name));
	const ids = new Set<string>();
	for (const [j, item] of catalog.items.entries()) {
		if (!isPlainObject(item) || !isValidItemId(item.id))
			return `${path}.items[${j}].id must be an item ID (at most 250 letters, numbers, hyphens, underscores)`;
		if (ids.has(item.id)) return `${path}.items: id '${item.id}' is used twice`;
		ids.add(item.id);
		const undeclared = Object.keys(item).find((key) => key !== 'id' && !declared.has(key));
		if (undeclared !== undefined) return `${path}.items[${j}].${undeclared} is not a declared field`;
	}
	return undefined;
}
