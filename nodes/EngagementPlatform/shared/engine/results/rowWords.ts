import type { INodeExecutionData } from 'n8n-workflow';

import { shown } from '../../schemas/shown';

/**
 * An item as a marketer finds it again: the row (counted from 1, as a sheet counts), n8n's item number
 * (counted from 0, as n8n's "Item Index" and its own errors count: the editor adds "[item 1]" to an
 * error's message that does not say "item 1" already) and the row's value in its identifying column
 * (read/identifyingColumn.ts), where it has one: `row 2 (item 1, order_id 'B-2002')`.
 */
export function rowNamer(
	inputs: readonly INodeExecutionData[],
	column: string | undefined,
): (itemIndex: number) => string {
	return (itemIndex) => {
		const value = column === undefined ? undefined : inputs[itemIndex]?.json?.[column];
		// On one line, whatever spaces the cell holds; a blank cell tells no row apart.
		const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
		const named = text === '' ? '' : `, ${column} ${shown(text.replace(/\s+/g, ' '))}`;
		return `row ${itemIndex + 1} (item ${itemIndex}${named})`;
	};
}

/** The words at the start of a sentence. */
export function capitalized(words: string): string {
	return words.charAt(0).toUpperCase() + words.slice(1);
}
