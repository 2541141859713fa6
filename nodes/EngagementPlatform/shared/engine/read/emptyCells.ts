import type { IDataObject } from 'n8n-workflow';

import type { InputProblem } from './itemInputError';
import { isBlank } from '../../schemas/textValues';

/** The column of a dragged field's expression: `price` of `$json.price` or `$json["First Name"]`. */
function columnOf(expression: string | undefined): string | undefined {
	const match =
		expression && /^\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*"([^"\\]*)"\s*\]|\[\s*'([^'\\]*)'\s*\])$/.exec(expression);
	return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/** How an expression reads a column, as n8n's editor writes it when the column is dragged in. */
export function columnExpression(column: string): string {
	return /^[A-Za-z_$][\w$]*$/.test(column) ? `$json.${column}` : `$json["${column.replace(/"/g, '\\"')}"]`;
}

/** A problem whose field was mapped from a column that is empty for this item: what the fix says is that. */
export interface EmptyCellProblem extends InputProblem {
	emptyColumn: string;
}

/**
 * The problem as it is true of the item: a field mapped from one column that is empty (or blank) for this
 * item breaks its rule because the cell is empty, whatever the rule's own words ("is required", "expects a
 * number"), so the fix names the column and what to do, not "map a value of the right type".
 */
export function withEmptyCellNamed(
	problem: InputProblem,
	expression: string | undefined,
	input: IDataObject,
): InputProblem | EmptyCellProblem {
	const column = columnOf(expression);
	if (column === undefined) return problem;
	const value = input[column];
	if (value !== undefined && value !== null && value !== '' && !isBlank(value)) return problem;
	return {
		...problem,
		emptyColumn: column,
		fix: `The cell mapped from the column "${column}" ({{ ${expression} }}) is empty for this item: fill it in at the source, or leave rows without it out before this node (e.g. with a Filter node).`,
	};
}

/** The fix for every item whose cell of `column` is empty, said once for the run. */
export function emptyInEveryItemFix(field: string, column: string): string {
	return `The column "${column}" ({{ ${columnExpression(column)} }}) has no value in any item: check that the input has a column named so (the input panel shows its fields), or map another column into ${field}.`;
}
