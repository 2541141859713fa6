/**
 * One row per operation (CONTRIBUTING.md, Adding an operation): these tests fail when an action node
 * has an operation without a row, or with two, when a row names an operation no node has, and when a
 * row lacks a part one of the suites derives its table from. The trigger has no operations and is
 * skipped.
 */
import type { NodeOperation } from './nodeOperations';
import { operationId, packageNodes } from './nodeOperations';
import type { OperationRow } from './operationRow';
import { endpointName, matchEndpoint } from './endpoints';
import { ENDPOINTS, OPERATION_ROWS } from './operationsTable';

const nodes = packageNodes();
const everyOperation = nodes.operations.map(operationId).sort();
const rowIds = OPERATION_ROWS.map(({ nodeType, operation }: NodeOperation) => operationId({ nodeType, operation }));

const isFunction = (value: unknown): boolean => typeof value === 'function';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Each part of a row, what it is for, and whether the row has it in full. */
const PARTS: Array<{ part: string; for: string; present(row: OperationRow): boolean }> = [
	{
		part: 'items, seed and expected',
		for: 'the conservation suite',
		present: (row) => isObject(row.items) && isFunction(row.seed) && isFunction(row.expected),
	},
	{
		part: 'endpoints',
		for: 'the wire checks: each endpoint it calls, with how its requests hold pieces (read) and its per-request limits',
		present: (row) =>
			Array.isArray(row.endpoints) &&
			row.endpoints.length > 0 &&
			row.endpoints.every((endpoint) => isFunction(endpoint?.read) && Array.isArray(endpoint?.limits)),
	},
	{
		part: 'batchLimit',
		for: "the Batch Size option's test: the spec's per-request limit, or null without Batch Size",
		present: (row) => row.batchLimit === null || (Number.isInteger(row.batchLimit) && row.batchLimit > 0),
	},
	{
		part: 'underFault',
		for: 'the fault suite: three items, seed, credential, firstRequest, requestPerItem, resendsAfterServerError',
		present: (row) =>
			isObject(row.underFault) &&
			(row.underFault.credential === 'api' || row.underFault.credential === 'scim') &&
			Array.isArray(row.underFault.items) &&
			isObject(row.underFault.seed) &&
			isObject(row.underFault.firstRequest) &&
			typeof row.underFault.requestPerItem === 'boolean' &&
			typeof row.underFault.resendsAfterServerError === 'boolean',
	},
	{
		part: 'badInput',
		for: 'the bad-input suite: seed, generated items and how many pieces the sandbox received',
		present: (row) =>
			isObject(row.badInput) &&
			isObject(row.badInput.seed) &&
			isObject(row.badInput.items) &&
			isFunction(row.badInput.received),
	},
];

describe('operation guard', () => {
	test('the package has action nodes with operations, and only triggers without', () => {
		expect(everyOperation.length).toBeGreaterThan(0);
		expect(nodes.withoutOperations.filter((node) => !node.trigger).map((node) => node.nodeType)).toEqual([]);
	});

	test('every operation of every action node has a row', () => {
		const missing = everyOperation.filter((id) => !rowIds.includes(id));
		expect(missing.map((id) => `${id}: no row in test/conservation/<node>Cases.ts`)).toEqual([]);
	});

	test('no operation has two rows', () => {
		const twice = rowIds.filter((id, index) => rowIds.indexOf(id) !== index);
		expect(twice.map((id) => `${id}: more than one row`)).toEqual([]);
	});

	test('no row names an operation no node has', () => {
		expect(rowIds.filter((id) => !everyOperation.includes(id)).map((id) => `${id}: no node has it`)).toEqual([]);
	});

	test('each endpoint is declared once (one method and path, one reader and one set of limits)', () => {
		const names = ENDPOINTS.map(endpointName);
		expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
	});

	describe.each(OPERATION_ROWS)('$name', (row) => {
		test('has every part', () => {
			const missing = PARTS.filter(({ present }) => !present(row));
			expect(missing.map((part) => `${row.name}: no ${part.part} (for ${part.for})`)).toEqual([]);
		});

		test("the fault suite's first request is to one of its endpoints", () => {
			const { firstRequest } = row.underFault;
			expect(matchEndpoint(row.endpoints, firstRequest)?.entry).toBeDefined();
		});
	});
});
