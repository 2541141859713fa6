/**
 * n8n's error output, for every operation: with "Continue (using error output)" the failed items,
 * and only they, go down the error branch, paired to their input, both when the node refuses an item
 * and when the platform refuses a request. They carry the error as json, which n8n lays over the
 * input item's fields, each arriving as it came, `error` always this run's reason. "Continue (regular
 * output)" keeps every answer on one output: each item the input row as it came and the node's words in
 * `engagementPlatform`, a failed item with `error` beside the row and its full error there.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { SandboxClient, startSandbox } from '../../sandbox';
import type { RunResult } from '../harness';
import { nodeName } from '../support/nodeTypes';
import { DELIVERY_SENTENCE, rowNamed, rowOf, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { answersWithWords } from '../support/successWords';
import type { OperationUnderFault } from './operationsUnderFault';
import { OPERATIONS_UNDER_FAULT } from './operationsUnderFault';

const SCIM_ORIGIN = 'errors.example.com';
const SECRET = 'error-output-key';
const tally = { operations: 0, runs: 0, items: 0, toErrorBranch: 0, misrouted: 0 };

afterAll(() => {
	// eslint-disable-next-line no-console
	console.log(
		`error output: ${tally.operations} operations, ${tally.runs} runs, ${tally.items} items; ${tally.toErrorBranch} sent down the error branch, ${tally.misrouted} on the wrong output`,
	);
});

/** The operation's first item with every field blank: refused by the node before anything is sent. */
const blankOf = (operation: OperationUnderFault) =>
	Object.fromEntries(Object.keys(operation.items[0]).map((key) => [key, '']));
const pairedIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
const indicesOf = (items: INodeExecutionData[]) => [...new Set(items.map(pairedIndex))].sort((a, b) => a - b);

describe.each(OPERATIONS_UNDER_FAULT)('$name', (operation) => {
	const items = [blankOf(operation), ...operation.items];
	const valid = operation.items.map((_, index) => index + 1);

	test.concurrent(
		'an item the node refuses goes down the error branch, the others down the success branch',
		async () => {
			await withSandbox(operation, [], async (sandbox) => {
				const result = await run(sandbox, operation, items, 'continueErrorOutput');
				const node = nodeName(operation.nodeType);

				expectRouted(result, node, { success: valid, error: [0] });
				const [refused] = result.output(node, 1);
				expect(refused.json.error).toMatch(new RegExp(`${rowNamed(0).source}"`));
				expectInputKept(refused.json, items[0], 'invalid');
			});
		},
	);

	test.concurrent('items of a request the platform refuses go down the error branch', async () => {
		const refusedByPlatform = operation.requestPerItem ? [1] : valid;
		await withSandbox(
			operation,
			[{ ...operation.firstRequest, times: 1, kind: 'status', status: 400 }],
			async (sandbox) => {
				const result = await run(sandbox, operation, items, 'continueErrorOutput');
				const node = nodeName(operation.nodeType);

				expectRouted(result, node, {
					success: valid.filter((index) => !refusedByPlatform.includes(index)),
					error: [0, ...refusedByPlatform],
				});
				for (const item of result.output(node, 1).filter((entry) => pairedIndex(entry) > 0))
					expectInputKept(item.json, items[pairedIndex(item)], 'not_applied');
			},
		);
	});

	test.concurrent(
		'"Continue (regular output)" keeps every answer on one output, each with its row, errors with their full json',
		async () => {
			await withSandbox(operation, [], async (sandbox) => {
				const result = await run(sandbox, operation, items, 'continueRegularOutput');

				expect(result.error).toBeUndefined();
				const output = result.output(nodeName(operation.nodeType));
				expect(indicesOf(output)).toEqual([0, ...valid]);
				const refused = output.filter((item) => pairedIndex(item) === 0);
				expect(refused).toHaveLength(1);
				// The row as it came, the reason beside it, the full error in the node's words.
				expect(wordsOf(refused[0].json)).toMatchObject({
					status: 'failed',
					error: expect.stringMatching(rowNamed(0)),
					delivery: 'invalid',
					field: expect.any(String),
					description: expect.any(String),
				});
				expect(rowOf(refused[0].json)).toEqual({ ...items[0], error: wordsOf(refused[0].json).error });
				expect(refused[0].error).toBeUndefined();

				const succeeded = output.filter((item) => pairedIndex(item) > 0);
				expect(succeeded.filter((item) => item.json.error !== undefined || statusOf(item.json) === 'failed')).toEqual(
					[],
				);
				// An operation answering in its words keeps each row exactly as it came; one answering with
				// the platform's records gives the records alone.
				if (answersWithWords(operation.nodeType, String(operation.parameters.operation)))
					for (const item of succeeded) {
						expect(rowOf(item.json)).toEqual(items[pairedIndex(item)]);
						expect(statusOf(item.json)).toEqual(expect.any(String));
					}
			});
		},
	);
});

/**
 * An error item: the input item's fields exactly as they came, and the node's words only under the
 * keys n8n 1.x routes a json item by (`error` alone or `error` and `message`; 2.x also takes `details`):
 * `error` always (this run's reason, whatever the input's own `error` was), `message` where the input
 * lacks one. An input with a `message` of its own (a translation's message variation) has the delivery
 * and what to do in `error`, after what happened.
 */
function expectInputKept(json: IDataObject, input: IDataObject, delivery: string): void {
	const { error: _inputError, ...row } = input;
	const added = 'message' in input ? ['error'] : ['error', 'message'];
	const kept = Object.fromEntries(Object.entries(json).filter(([key]) => !added.includes(key)));
	expect(kept).toEqual(row);
	expect(
		Object.keys(json)
			.filter((key) => !(key in row))
			.sort(),
	).toEqual(added);
	const sentence = DELIVERY_SENTENCE[delivery].source.slice(1);
	if ('message' in input) expect(json.error).toMatch(new RegExp(` — ${sentence}`));
	else expect(json.message).toMatch(DELIVERY_SENTENCE[delivery]);
}

function expectRouted(result: RunResult, node: string, expected: { success: number[]; error: number[] }): void {
	expect(result.error).toBeUndefined();
	const success = result.output(node, 0);
	const errors = result.output(node, 1);
	tally.runs++;
	tally.items += expected.success.length + expected.error.length;
	tally.toErrorBranch += errors.length;
	const failed = (item: INodeExecutionData) => item.json.error !== undefined || statusOf(item.json) === 'failed';
	tally.misrouted += success.filter(failed).length + errors.filter((item) => item.json.error === undefined).length;
	expect({ success: indicesOf(success), error: indicesOf(errors) }).toEqual(expected);
	expect(success.filter(failed)).toEqual([]);
	// One error item per failed input item, naming the item in its json's error.
	expect(errors.map(pairedIndex)).toEqual(expected.error);
	for (const item of errors) expect(item.json.error).toMatch(rowNamed(pairedIndex(item)));
}

async function withSandbox(
	operation: OperationUnderFault,
	faults: Parameters<SandboxClient['injectFaults']>[0],
	work: (sandbox: Sandbox) => Promise<void>,
): Promise<void> {
	const sandbox = await startSandbox();
	try {
		const client = new SandboxClient(sandbox.url);
		if (operation.credential === 'api') await client.addApiKey(SECRET, '*');
		else await client.addScimToken(SECRET, SCIM_ORIGIN);
		await client.seed(operation.seed);
		await client.injectFaults(faults);
		await work(sandbox);
	} finally {
		await sandbox.close();
	}
}

async function run(
	sandbox: Sandbox,
	operation: OperationUnderFault,
	items: OperationUnderFault['items'],
	onError: INode['onError'],
): Promise<RunResult> {
	const credentials: Record<string, ICredentialDataDecryptedObject> =
		operation.credential === 'api'
			? { engagementPlatformApi: { restEndpoint: sandbox.url, apiKey: SECRET } }
			: { engagementPlatformScimApi: { scimEndpoint: sandbox.url, scimToken: SECRET, requestOrigin: SCIM_ORIGIN } };
	tally.operations = OPERATIONS_UNDER_FAULT.length;
	return await runNode(operation.nodeType, {
		items,
		parameters: { ...operation.parameters, options: { parallelRequests: 1 } },
		onError,
		credentials,
	});
}
