/**
 * Every operation of every action node, one row each (CONTRIBUTING.md, Adding an operation), and the
 * tables derived from the rows for the conservation suite and the wire checks. The guard test fails
 * when a node has an operation without a row, or a row lacks a part.
 */
import type { ConservationCase } from './conservationCase';
import { DASHBOARD_CASES } from './dashboardCases';
import type { Endpoint } from './endpoints';
import { MESSAGE_CASES } from './messageCases';
import type { OperationRow } from './operationRow';
import { withOperation } from './operationRow';
import { RESOURCE_CASES } from './resourceCases';
import { USER_CASES } from './userCases';

export const OPERATION_ROWS: OperationRow[] = [...USER_CASES, ...MESSAGE_CASES, ...RESOURCE_CASES, ...DASHBOARD_CASES];

export const CONSERVATION_OPERATIONS: ConservationCase[] = OPERATION_ROWS.map(
	({ endpoints: _endpoints, batchLimit: _batchLimit, underFault: _underFault, badInput: _badInput, ...row }) => ({
		...row,
		parameters: withOperation(row, row.parameters),
	}),
);

/** Every endpoint the rows call, each once. */
export const ENDPOINTS: Endpoint[] = [...new Set(OPERATION_ROWS.flatMap((row) => row.endpoints))];
