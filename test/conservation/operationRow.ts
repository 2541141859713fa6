/**
 * One row per operation (CONTRIBUTING.md, Adding an operation): its conservation case, the endpoints
 * it calls, its batch limit, and the parts the fault and bad-input suites drive it with. Every guard
 * suite's table is derived from the rows (operationsTable.ts, wirePieces.ts, wireLimits.ts,
 * test/reliability/operationsUnderFault.ts and badInputCases.ts, test/integration/runOptions.test.ts).
 *
 * A row names its operation once: the parameters of the row and of its parts leave `operation` out,
 * and each derived table adds it.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { BadInputCase } from '../reliability/badInputRun';
import type { OperationUnderFault } from '../reliability/faultCase';
import type { ConservationCase } from './conservationCase';
import type { Endpoint } from './endpoints';

/** A suite's case without what the row already says: its name and node. */
type Part<Case> = Omit<Case, 'name' | 'nodeType'>;

export interface OperationRow extends Omit<ConservationCase, 'parameters'> {
	/** Every per-item field as an expression on the item. */
	parameters: INodeParameters;
	/** The spec's endpoints the operation calls, with the alternate paths the spec allows for them. */
	endpoints: Endpoint[];
	/**
	 * The spec's per-request limit that Batch Size defaults to and stops at; null where requests do
	 * not pack several items and the operation has no Batch Size. Written from the spec, not the nodes.
	 */
	batchLimit: number | null;
	underFault: Part<OperationUnderFault>;
	badInput: Part<BadInputCase>;
}

/** The parameters with the row's operation, as a suite runs them. */
export const withOperation = (row: Pick<OperationRow, 'operation'>, parameters: INodeParameters): INodeParameters => ({
	operation: row.operation,
	...parameters,
});
