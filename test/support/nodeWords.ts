/**
 * Where an output item of ours holds the node's words: one field beside the input item's own fields
 * (Options → Output Field Name, `engagementPlatform` unless set), so that no column of the row is
 * overwritten. Failed items on the regular output also carry `error` at the top, as n8n's nodes do.
 *
 *   expect(wordsOf(item.json).status).toBe('tracked');
 */
import type { IDataObject } from 'n8n-workflow';

export const OUTPUT_FIELD = 'engagementPlatform';

/** The node's words on an output item; `{}` where the item has none (a platform record, an error-branch item). */
export function wordsOf(json: IDataObject | undefined, field = OUTPUT_FIELD): IDataObject {
	const words = json?.[field];
	return words !== null && typeof words === 'object' && !Array.isArray(words) ? (words as IDataObject) : {};
}

/** The `status` the node gave an output item. */
export function statusOf(json: IDataObject | undefined, field = OUTPUT_FIELD): unknown {
	return wordsOf(json, field).status;
}

/**
 * The input row's fields as an output item carries them: every key but the node's field. A succeeded
 * item's row is exactly the input item's json; a failed item on the regular output has `error` beside it.
 *
 *   expect(rowOf(item.json)).toEqual(input);
 */
export function rowOf(json: IDataObject, field = OUTPUT_FIELD): IDataObject {
	// fromEntries keeps an own `__proto__` key a key, as the node's copy of the row does.
	return Object.fromEntries(Object.entries(json).filter(([key]) => key !== field)) as IDataObject;
}

/**
 * How a failed item's error starts: the row as a sheet counts it (from 1) and n8n's item number (from 0),
 * then, where the node maps one from a column, the row's identifying value: `Row 2 (item 1, order_id 'B-2002'): `.
 *
 *   expect(json.error).toMatch(rowNamed(1));
 */
export function rowNamed(itemIndex: number): RegExp {
	return new RegExp(`^Row ${itemIndex + 1} \\(item ${itemIndex}(, .*)?\\): `);
}

/** How an error item's `message` starts for each `delivery`: a sentence saying what happened to the item. */
export const DELIVERY_SENTENCE: Record<string, RegExp> = {
	invalid: /^Not sent: the node refused this item's input\b/,
	not_sent: /^Not sent: the run stopped before this item\b/,
	not_applied: /^Not applied: the platform refused it\b/,
	maybe_applied: /^Maybe applied: /,
};
