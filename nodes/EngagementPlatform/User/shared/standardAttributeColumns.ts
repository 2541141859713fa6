import type { NodeExecutionHint } from 'n8n-workflow';

import type { KeptForRun } from '../../shared/engine';

/** A column's name or an attribute's as matched: lower case, without spaces, hyphens or underscores. */
const squeezed = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * "Map Automatically" for the standard attributes: which attribute a column of the input goes as. A
 * column matches an attribute by its ID or by the label the panel's list shows, with or without the
 * label's note in brackets, whatever the case, spaces, hyphens or underscores: `First Name`,
 * `first name`, `FIRST_NAME` and `first-name` are first_name; `Country` and `Date of Birth` match
 * "Country (ISO 3166 Code, e.g. DE)" and "Date of Birth (YYYY-MM-DD)".
 */
export function columnMatcher(attributes: ReadonlyArray<{ id: string; displayName: string }>) {
	const byName = new Map<string, string>();
	for (const { id, displayName } of attributes)
		for (const name of [id, displayName, displayName.replace(/\s*\(.*\)\s*$/, '')]) byName.set(squeezed(name), id);
	return (column: string): string | undefined => byName.get(squeezed(column));
}

/** Why a column of the item was not sent as a standard attribute. */
export type NotSent = 'matches no standard attribute' | 'is empty' | { mappedTo: string };

/**
 * How the run's columns went, for the run's one hint: which column went as which attribute, and which
 * were not sent (a column another field is mapped from is that field's, not "not sent"). And the reading
 * of the current item, which an item with nothing to update names.
 */
export class ColumnTally implements KeptForRun {
	private readonly went = new Map<string, string>();
	private readonly unmatched = new Set<string>();
	/** The item these columns are of, and why each of them was not sent. */
	itemIndex = -1;
	readonly itemNotSent: Array<[string, NotSent]> = [];

	/** Each column's attribute, matched once for the run: the rows of a sheet repeat their columns. */
	private readonly matched = new Map<string, string | null>();

	constructor(
		private readonly match: (column: string) => string | undefined,
		private readonly mappedElsewhere: ReadonlyMap<string, string>,
	) {}

	attributeOf(column: string): string | undefined {
		let id = this.matched.get(column);
		if (id === undefined) this.matched.set(column, (id = this.match(column) ?? null));
		return id ?? undefined;
	}

	startItem(itemIndex: number): void {
		this.itemIndex = itemIndex;
		this.itemNotSent.length = 0;
	}

	sent(column: string, id: string): void {
		if (!this.went.has(column)) this.went.set(column, id);
	}

	notSent(column: string, why: 'matches no standard attribute' | 'is empty'): void {
		const mappedTo = this.mappedElsewhere.get(column);
		this.itemNotSent.push([column, mappedTo !== undefined && why !== 'is empty' ? { mappedTo } : why]);
		if (why !== 'is empty' && mappedTo === undefined) this.unmatched.add(column);
	}

	/** This item's columns not sent and why, in words; undefined when the item's columns were not read (another mode). */
	notSentWords(itemIndex: number): string | undefined {
		if (itemIndex !== this.itemIndex) return undefined;
		if (this.itemNotSent.length === 0) return 'the item has no columns';
		return this.itemNotSent
			.map(([column, why]) => `"${column}" ${typeof why === 'string' ? why : `is mapped to ${why.mappedTo}`}`)
			.join(', ');
	}

	hint(): NodeExecutionHint | undefined {
		if (this.went.size === 0 && this.unmatched.size === 0) return undefined;
		const went =
			this.went.size > 0
				? `Map Automatically sent ${[...this.went].map(([column, id]) => `"${column}" as ${id}`).join(', ')} (standard attributes).`
				: 'Map Automatically sent no column as a standard attribute.';
		const dropped =
			this.unmatched.size > 0
				? ` Not sent: ${[...this.unmatched].map((column) => `"${column}"`).join(', ')}, as no standard attribute has that name or label. To send them, add them under Custom Attributes, or switch Mapping Column Mode to Map Each Column Below and map each to a standard attribute.`
				: '';
		return { message: `${went}${dropped}`, type: 'info', location: 'outputPane' };
	}
}
