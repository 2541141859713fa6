/**
 * What the rows of a sequence's runs carry besides what the operation reads, as real rows do: their own
 * `error` column (an import's, or what an earlier run's error branch wrote back), and columns named like
 * the node's words (`status`, `id`, `message`, and `engagementPlatform` where Options → Output Field
 * Name puts the node's words under another key). n8n 1.x tries a run again whose first output item
 * holds any `error` but undefined; 2.x any but undefined, null or false. The node keeps every column as
 * it came.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { OUTPUT_FIELD } from '../support/nodeWords';

const ROW_ERRORS = ['absent', 'null', 'false', 'empty', 'text'] as const;
type RowError = (typeof ROW_ERRORS)[number];
const ROW_ERROR_VALUES: Record<RowError, IDataObject[string]> = {
	absent: undefined,
	null: null,
	false: false,
	empty: '',
	text: 'Card declined at the first attempt (from the shop)',
};

export interface RowPlan {
	error: RowError;
	/** The row's own `status` and `message` (and `id`, where it has none already). */
	wordsColumns: boolean;
	/** Options → Output Field Name set to this: the row has an `engagementPlatform` column of its own. */
	outputField?: string;
}

export const PLAIN_ROWS: RowPlan = { error: 'absent', wordsColumns: false };

/** Plain rows three times in five (shrinking to them), else any `error` and columns. */
export const rowPlan = (withOutputField = true): fc.Arbitrary<RowPlan> =>
	fc.oneof(
		{ weight: 3, arbitrary: fc.constant(PLAIN_ROWS) },
		{
			weight: 2,
			arbitrary: fc.record({
				error: fc.constantFrom(...ROW_ERRORS),
				wordsColumns: fc.boolean(),
				outputField: withOutputField
					? fc.option(fc.constant('platformAnswer'), { nil: undefined, freq: 2 })
					: fc.constant(undefined),
			}),
		},
	);

/** Where the node's words are on an output item. */
export const wordsField = (rows: RowPlan | undefined): string => rows?.outputField ?? OUTPUT_FIELD;

/** The row with the plan's columns (its own `error` last, as an import appends it). */
export function withRowColumns(json: IDataObject, rows: RowPlan | undefined): IDataObject {
	if (!rows) return json;
	const row: IDataObject = { ...json };
	if (rows.wordsColumns) {
		row.status = 'vip';
		row.message = 'Thank you for shopping with us';
		row.id ??= 'crm-1017';
	}
	if (rows.outputField !== undefined) row[OUTPUT_FIELD] = { status: 'imported', note: 'from last month’s export' };
	if (rows.error !== 'absent') row.error = ROW_ERROR_VALUES[rows.error];
	return row;
}

/** The columns, for a sequence's log: "" for plain rows. */
export function describeRows(rows: RowPlan | undefined): string {
	if (!rows) return '';
	const columns = [
		...(rows.error !== 'absent' ? [`error ${rows.error}`] : []),
		...(rows.wordsColumns ? ['status', 'message', 'id'] : []),
		...(rows.outputField !== undefined ? [`engagementPlatform (words in ${rows.outputField})`] : []),
	];
	return columns.length > 0 ? `rows with ${columns.join(', ')}` : '';
}

/** Counts a run's rows into a tally: by the kind of their `error`, their columns named like words. */
export function tallyRows(counts: Record<string, number>, rows: RowPlan | undefined): void {
	const bump = (key: string) => (counts[key] = (counts[key] ?? 0) + 1);
	if (!rows) return;
	if (rows.error !== 'absent') bump(`error ${rows.error}`);
	if (rows.wordsColumns) bump('status, id, message columns');
	if (rows.outputField !== undefined) bump('engagementPlatform column, words elsewhere');
}
