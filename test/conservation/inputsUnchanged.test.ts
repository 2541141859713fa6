/**
 * No operation changes its input items. A node's input items are shared with every node the upstream
 * node's output reaches, and a dragged field (`{{ $json.properties }}`) hands the node the item's own
 * object, whether the node reads it (fields/parameterSource.ts) or n8n's engine does. For every row of
 * the conservation table, the items are snapshot before the run (structuredClone) and compared after it,
 * nested objects and arrays included, under Continue (using error output):
 * - the row's generated valid items, with the row's parameters (each field dragged in from the item);
 * - a batch of the row's bad-input generator holding items the node refuses, read in part first;
 * - the row's fault-suite items after one the node refuses (every field blank), the first request
 *   refused by the platform (400).
 * Only the inputs are compared, never what the node answers. compiledReading.test.ts checks the same
 * of its runs, with each field also written for n8n's engine alone.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../integration/sandboxLifecycle';
import { nodeName } from '../support/nodeTypes';
import type { OperationRow } from './operationRow';
import { withOperation } from './operationRow';
import { OPERATION_ROWS } from './operationsTable';
import { changesTo, prepareSandbox, runOnSandbox } from './sandboxRun';

const RUNS = Number(process.env.INPUTS_UNCHANGED_RUNS ?? 1);
const SEED = 20_261_205;

const { sandbox, client } = useSandbox();

/**
 * The generated batches, the same on every run (`INPUTS_UNCHANGED_RUNS`, one by default). Sampled rather
 * than asserted as a property: a failure lists the changes, not the whole batch (re-made from the seed).
 */
const batches = <T>(arbitrary: fc.Arbitrary<T>): T[] => fc.sample(arbitrary, { seed: SEED, numRuns: RUNS });

/** The row's operation run on `items` under Continue (using error output); what it changed of them. */
async function changedBy(row: OperationRow, items: IDataObject[], parameters: INodeParameters): Promise<string[]> {
	const before = structuredClone(items);
	const result = await runOnSandbox(
		sandbox().url,
		row.nodeType,
		items,
		withOperation(row, parameters),
		'continueErrorOutput',
	);
	expect(result.error).toBeUndefined();
	expect(result.executionOrder).toContain(nodeName(row.nodeType));
	return changesTo(before, items);
}

describe.each(OPERATION_ROWS)('$name', (row) => {
	test('valid items, each field dragged in: no object of theirs is changed', async () => {
		for (const [run, generated] of batches(row.items).entries()) {
			const items = await prepareSandbox(client(), row, generated);
			expect({ run, changed: await changedBy(row, items, row.parameters) }).toEqual({ run, changed: [] });
		}
	});

	test('a batch with items the node refuses: no object of theirs is changed', async () => {
		const { badInput } = row;
		const withRefusals = badInput.items.filter((items) => items.some((item) => item.verdict === 'refused'));
		for (const [run, generated] of batches(withRefusals).entries()) {
			const json = generated.map((item) => item.json);
			const items = await prepareSandbox(client(), { seed: () => badInput.seed }, json);
			expect({ run, changed: await changedBy(row, items, badInput.parameters) }).toEqual({ run, changed: [] });
		}
	});

	test('an item the node refuses, then a request the platform refuses: no object of theirs is changed', async () => {
		const { underFault } = row;
		const blank = Object.fromEntries(Object.keys(underFault.items[0]).map((key) => [key, '']));
		const items = await prepareSandbox(
			client(),
			{ seed: () => underFault.seed },
			// The row's items are shared with other suites: a copy, by JSON so that its objects are of this realm.
			JSON.parse(JSON.stringify([blank, ...underFault.items])) as IDataObject[],
			[{ ...underFault.firstRequest, times: 1, kind: 'status', status: 400 }],
		);
		expect(await changedBy(row, items, underFault.parameters)).toEqual([]);
		expect((await client().requests()).some((request) => request.status === 400)).toBe(true);
	});
});
