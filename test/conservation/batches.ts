/**
 * Generated batches for the conservation suite: between 1 and `maxItems` items, each built from its
 * index (so every marker, ID and alias is unique in the batch) and from choices fast-check makes per
 * item (identifier kind, group, state, ...). Valid per the spec, every one.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { SeedProfile, SeedResult } from '../../sandbox';

/**
 * Lengths: now and then a few items, mostly a batch past the per-request limits (60% of the
 * maximum or more), so every run that can exercise batching does.
 */
export function batch<C>(
	choice: fc.Arbitrary<C>,
	build: (choice: C, index: number) => IDataObject,
	maxItems: number,
): fc.Arbitrary<IDataObject[]> {
	const few = Math.min(8, maxItems);
	const many = Math.max(1, Math.ceil(maxItems * 0.6));
	const length = fc.oneof(
		{ weight: 1, arbitrary: fc.integer({ min: 1, max: few }) },
		{ weight: 4, arbitrary: fc.integer({ min: many, max: maxItems }) },
	);
	return length.chain((n) => fc.array(choice, { minLength: n, maxLength: n })).map((choices) => choices.map(build));
}

/** One of `values`, the first `mainWeight` times as often as each other: keeps most items in one request group. */
export function mostly<T>(main: T, others: T[], mainWeight = 6): fc.Arbitrary<T> {
	return fc.oneof(
		{ weight: mainWeight, arbitrary: fc.constant(main) },
		...others.map((value) => ({ weight: 1, arbitrary: fc.constant(value) })),
	);
}

export const ALIAS_LABELS = ['crm_alias', 'shop_customer'];

/** ISO 8601, distinct per index. */
export const timeOf = (index: number): string =>
	new Date(Date.UTC(2026, 10, 1, 12, 0, 0) + index * 61_000).toISOString().replace('.000Z', 'Z');

/** The user of item `index`: every identifier the spec names, unique to the index. */
export function userOf(index: number, aliasLabel: string): IDataObject {
	return {
		externalId: `cx-${index}`,
		aliasName: `ax-${index}`,
		aliasLabel,
		email: `cx${index}@example.com`,
		phone: `+1415555${String(index).padStart(4, '0')}`,
		deviceId: `device-${index}`,
	};
}

/** Each item's user as a profile, in item order (so seeded profile i is item i's). */
export const profilesOf = (items: IDataObject[]): SeedProfile[] =>
	items.map((json) => ({
		external_id: json.externalId as string,
		user_aliases: [{ alias_name: json.aliasName as string, alias_label: json.aliasLabel as string }],
		email: json.email as string,
		phone: json.phone as string,
	}));

/** The service ID the sandbox gave item i's profile, for the items that identify by it. */
export const withServiceIds = (items: IDataObject[], seeded: SeedResult): IDataObject[] =>
	items.map((json, index) =>
		json.idKind === 'service_id' ? { ...json, serviceId: seeded.profiles[index].service_id } : json,
	);

/** The identifier object an item's `idKind` names, as the spec writes it in /users/track and export. */
export function identifierOf(json: IDataObject): IDataObject {
	switch (json.idKind) {
		case 'user_alias':
			return { user_alias: { alias_name: json.aliasName, alias_label: json.aliasLabel } };
		case 'email':
			return { email: json.email };
		case 'phone':
			return { phone: json.phone };
		case 'service_id':
			return { service_id: json.serviceId };
		case 'device_id':
			return { device_id: json.deviceId };
		default:
			return { external_id: json.externalId };
	}
}

/** The identifier fields of the shared "Identify User By" parameters, each mapped from the item. */
export const identifierParameters = {
	identifyBy: '={{ $json.idKind }}',
	externalId: '={{ $json.externalId }}',
	aliasName: '={{ $json.aliasName }}',
	aliasLabel: '={{ $json.aliasLabel }}',
	email: '={{ $json.email }}',
	phone: '={{ $json.phone }}',
	serviceId: '={{ $json.serviceId }}',
	deviceId: '={{ $json.deviceId }}',
};

/** The object without its undefined fields (the wire has none). */
export function compact(object: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as IDataObject;
}

/**
 * A copy made of this realm's objects. (structuredClone builds them in Node's own realm, whose
 * Object.prototype is not the one of Jest's test context, so deep equality would tell them apart.)
 */
export const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
