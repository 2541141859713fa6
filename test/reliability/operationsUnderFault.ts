/** Every operation as the fault suite drives it: the `underFault` part of each operation's row. */
import { OPERATION_ROWS } from '../conservation/operationsTable';
import { withOperation } from '../conservation/operationRow';
import type { OperationUnderFault } from './faultCase';

export type { OperationUnderFault } from './faultCase';

export const OPERATIONS_UNDER_FAULT: OperationUnderFault[] = OPERATION_ROWS.map((row) => ({
	...row.underFault,
	name: row.name,
	nodeType: row.nodeType,
	parameters: withOperation(row, row.underFault.parameters),
}));
