/** Every operation as the bad-input suite drives it: the `badInput` part of each operation's row. */
import { OPERATION_ROWS } from '../conservation/operationsTable';
import { withOperation } from '../conservation/operationRow';
import type { BadInputCase } from './badInputRun';

export const BAD_INPUT_CASES: BadInputCase[] = OPERATION_ROWS.map((row) => ({
	...row.badInput,
	name: row.name,
	nodeType: row.nodeType,
	parameters: withOperation(row, row.badInput.parameters),
}));
