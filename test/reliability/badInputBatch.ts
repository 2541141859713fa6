/**
 * Batches of generated items for the bad-input suite: each item starts valid and may get one
 * mutation that makes it bad in a single, named way, so a refusal can be checked against what
 * was broken.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

/**
 * What the spec says of an item. `either`: the spec leaves it open (a boundary, an odd character),
 * so node and sandbox need only agree with each other.
 */
export type Verdict = 'accepted' | 'refused' | 'either';

export interface GeneratedItem {
	json: IDataObject;
	verdict: Verdict;
	kind: string;
	/** The field a refusal must name (its start: "Event Properties" covers "Event Properties.$x"). */
	field?: string;
}

/** One way of breaking a valid item. `apply` returns undefined where it cannot (the item stays valid). */
export interface Mutation {
	kind: string;
	verdict: Verdict;
	field?: string;
	apply(json: IDataObject, before: GeneratedItem[]): IDataObject | undefined;
}

/** How many items a batch of an operation packing items holds at most: past every per-request limit. */
export const MAX_BAD_ITEMS = 120;

/** A valid item for an index (ids built from the index stay unique within a batch). */
export type ValidItem = (index: number) => IDataObject;

/** A mutation setting one key of the item to a generated value. */
export function setting(
	key: string,
	kind: string,
	field: string | undefined,
	values: fc.Arbitrary<unknown>,
	verdict: Verdict = 'refused',
): fc.Arbitrary<Mutation> {
	return values.map((value): Mutation => ({
		kind,
		verdict,
		field,
		apply: (json) => ({ ...json, [key]: value as IDataObject[string] }),
	}));
}

/** A mutation removing the item's identifier (or another required key). */
export function removing(key: string, kind: string, field: string): fc.Arbitrary<Mutation> {
	return fc.constant({
		kind,
		verdict: 'refused' as const,
		field,
		apply: (json: IDataObject) => {
			const { [key]: _removed, ...rest } = json;
			return rest;
		},
	});
}

/** A mutation repeating the key of the last accepted item before it, where keys must be unique. */
export function duplicating(key: string, field: string): fc.Arbitrary<Mutation> {
	return fc.constant({
		kind: 'duplicate id',
		verdict: 'refused' as const,
		field,
		apply: (json: IDataObject, before: GeneratedItem[]) => {
			const source = [...before].reverse().find((item) => item.verdict === 'accepted');
			return source ? { ...json, [key]: source.json[key] } : undefined;
		},
	});
}

/**
 * Between one and `maxItems` items, about a third of them mutated. `size: 'max'` spreads the
 * lengths over the whole range, so runs go past the per-request limits.
 */
export function batchOf(
	valid: fc.Arbitrary<ValidItem>,
	mutations: Array<fc.Arbitrary<Mutation>>,
	maxItems: number,
): fc.Arbitrary<GeneratedItem[]> {
	const maybeMutation = fc.oneof(
		{ weight: 2, arbitrary: fc.constant(null) },
		{ weight: 1, arbitrary: fc.oneof(...mutations) },
	);
	return fc.array(fc.tuple(valid, maybeMutation), { minLength: 1, maxLength: maxItems, size: 'max' }).map((entries) => {
		const items: GeneratedItem[] = [];
		for (const [makeValid, mutation] of entries) {
			const json = makeValid(items.length);
			const mutated = mutation?.apply(json, items);
			items.push(
				mutation && mutated
					? { json: mutated, verdict: mutation.verdict, kind: mutation.kind, field: mutation.field }
					: { json, verdict: 'accepted', kind: 'valid' },
			);
		}
		return items;
	});
}
