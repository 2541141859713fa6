/**
 * One table lists every operation (CONTRIBUTING.md, Adding an operation): these tests fail when any action node has an
 * operation that the conservation table, the fault table or the bad-input tables lack, or when a
 * table names an operation no node has. The trigger has no operations and is skipped.
 */
import { BAD_INPUT_CASES } from '../reliability/badInputCases';
import { OPERATIONS_UNDER_FAULT } from '../reliability/operationsUnderFault';
import { CONSERVATION_OPERATIONS } from './operationsTable';
import type { NodeOperation } from './nodeOperations';
import { operationId, packageNodes } from './nodeOperations';
import { WIRE_LIMITS } from './wireLimits';
import { PIECE_ENDPOINTS } from './wirePieces';
import { endpointName } from './endpoints';

const nodes = packageNodes();
const everyOperation = nodes.operations.map(operationId).sort();

const TABLES: Array<{ name: string; operations: NodeOperation[] }> = [
	{
		name: 'the conservation table (test/conservation/operationsTable.ts)',
		operations: CONSERVATION_OPERATIONS.map(({ nodeType, operation }) => ({ nodeType, operation })),
	},
	{
		name: 'the fault table (test/reliability/operationsUnderFault.ts)',
		operations: OPERATIONS_UNDER_FAULT.map(({ nodeType, parameters }) => ({
			nodeType,
			operation: String(parameters.operation),
		})),
	},
	{
		name: 'the bad-input tables (test/reliability/badInput*Cases.ts)',
		operations: BAD_INPUT_CASES.map(({ nodeType, parameters }) => ({
			nodeType,
			operation: String(parameters.operation),
		})),
	},
];

describe('operation guard', () => {
	test('the package has action nodes with operations, and only triggers without', () => {
		expect(everyOperation.length).toBeGreaterThan(0);
		expect(nodes.withoutOperations.filter((node) => !node.trigger).map((node) => node.nodeType)).toEqual([]);
	});

	describe.each(TABLES)('$name', ({ operations }) => {
		const listed = new Set(operations.map(operationId));

		test('lists every operation of every action node', () => {
			expect(everyOperation.filter((id) => !listed.has(id))).toEqual([]);
		});

		test('lists no operation that no node has', () => {
			expect([...listed].filter((id) => !everyOperation.includes(id)).sort()).toEqual([]);
		});
	});

	test('the conservation table lists each operation once', () => {
		const ids = CONSERVATION_OPERATIONS.map(operationId);
		expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
	});

	test('every endpoint whose limits are listed has its pieces read, and the other way round', () => {
		const limited = WIRE_LIMITS.map(endpointName).sort();
		const read = PIECE_ENDPOINTS.map(endpointName).sort();
		expect(read).toEqual(limited);
	});
});
