/**
 * A failed item on the error branch keeps its input. Forms, tickets and chats carry fields of their own
 * named `message`, `error` or `description` ("I want to cancel my order #1001…"). `error` is the key n8n
 * routes by, so it always says what went wrong in this run, naming the item: a row's own `error` (often
 * what an earlier run's error branch wrote back) is replaced by it. Every other input field arrives
 * unchanged: the node adds `message` (the delivery and what to do) only where the input lacks one, and
 * where the input has its own, `error` says both. So on n8n 2.x (this repository's n8n-core, run for
 * real) and on n8n 1.x (its routing replayed on what the node gave n8n, see `routeAsN8n1`).
 * "Continue (regular output)" keeps the row too, with `error` and the node's words in their own field.
 */
import { WorkflowExecute } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../harness';
import { USER, USER_NODE } from '../support/nodeTypes';
import { DELIVERY_SENTENCE, OUTPUT_FIELD, rowNamed, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

const PARAMETERS: INodeParameters = {
	operation: 'trackEvent',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	eventName: 'ticket_opened',
	time: '2026-11-01T12:00:00Z',
	options: { parallelRequests: 1 },
};

/** Inputs as helpdesk, form and chat nodes give them; `id` is the user's external ID (blank: refused by the node). */
const SHAPES: IDataObject[] = [
	{
		message: 'I want to cancel my order #1001, it arrived broken.',
		error: 'Card declined at checkout',
		description: 'Web form: Contact us',
		ticket: 'T-1',
	},
	{ message: 'Where is my parcel?', channel: 'chat', ticket: 'T-2' },
	{ error: 'Payment gateway timed out', ticket: 'T-3' },
	{ description: 'Phone call, transcribed', ticket: 'T-4', tags: ['vip'] },
];
const invalid = SHAPES.map((shape) => ({ id: '', ...shape }));
const valid = SHAPES.map((shape, index) => ({ id: `crm-${index}`, ...shape }));

/** What the node handed n8n, before n8n routed it, for replaying n8n 1.x's routing. */
let handedOver: { items: INodeExecutionData[]; inputs: INodeExecutionData[] } | undefined;
const routeOnN8n2 = WorkflowExecute.prototype.handleNodeErrorOutput;
let spy: jest.SpyInstance | undefined;
beforeAll(() => {
	spy = jest.spyOn(WorkflowExecute.prototype, 'handleNodeErrorOutput').mockImplementation(function (
		this: WorkflowExecute,
		workflow,
		executionData,
		nodeSuccessData,
		runIndex,
	) {
		const copy = (item: INodeExecutionData) => ({ ...item, json: { ...item.json } });
		handedOver = {
			items: (nodeSuccessData[0] ?? []).map(copy),
			inputs: (executionData.data.main[0] ?? []).map(copy),
		};
		routeOnN8n2.call(this, workflow, executionData, nodeSuccessData, runIndex);
	});
});
afterAll(() => spy?.mockRestore());
beforeEach(() => (handedOver = undefined));

/**
 * n8n 1.x's handleNodeErrorOutput (packages/core/src/execution-engine/workflow-execute.ts, 1.x line)
 * on the node's items, and the normalisation after it: an item carrying n8n's error is routed and its
 * error taken off; a json item is routed only as `error` alone or `error` and `message`, both set; a
 * routed item's json is the paired input's fields, then the item's. An item still carrying an error
 * object afterwards gets json `{error: <its message>}`.
 */
function routeAsN8n1(items: INodeExecutionData[], inputs: INodeExecutionData[]) {
	const success: INodeExecutionData[] = [];
	const error: INodeExecutionData[] = [];
	for (const handed of items) {
		const item = { ...handed };
		let errorData: unknown;
		const keys = Object.keys(item.json);
		if (item.error) {
			errorData = item.error;
			item.error = undefined;
		} else if (item.json.error && keys.length === 1) errorData = item.json.error;
		else if (item.json.error && item.json.message && keys.length === 2) errorData = item.json.error;
		if (errorData) {
			const { item: index } = item.pairedItem as { item: number };
			error.push({ ...item, json: { ...inputs[index].json, ...item.json } });
		} else success.push(item);
	}
	for (const item of [...success, ...error]) if (item.error !== undefined) item.json = { error: item.error.message };
	return { success, error };
}

const run = async (items: IDataObject[], onError: 'continueErrorOutput' | 'continueRegularOutput') =>
	await runNode(USER_NODE, {
		items,
		parameters: PARAMETERS,
		endpoint: sandbox().url,
		apiKey,
		onError,
	});

const pairedIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
const byLine = (result: RunResult) => {
	expect(result.error).toBeUndefined();
	expect(handedOver).toBeDefined();
	return {
		'n8n 2.x': { success: result.output(USER, 0), error: result.output(USER, 1) },
		'n8n 1.x': routeAsN8n1(handedOver!.items, handedOver!.inputs),
	};
};

/** Every input field but `error` as it came, `error` this run's reason, `message` added only where the input lacks one. */
function expectInputKept(item: INodeExecutionData, input: IDataObject, delivery: string): void {
	const index = pairedIndex(item);
	for (const [key, value] of Object.entries(input))
		if (key !== 'error') expect([key, item.json[key]]).toEqual([key, value]);
	const added = Object.keys(item.json).filter((key) => !(key in input));
	expect(added.every((key) => key === 'error' || key === 'message')).toBe(true);
	// $json.error tells what happened in this run, naming the item, whatever the input's own `error` said;
	// with the input's own message it also says the delivery and what to do, else `message` does.
	expect(item.json.error).toMatch(rowNamed(index));
	if ('message' in input)
		expect(item.json.error).toMatch(new RegExp(` — ${DELIVERY_SENTENCE[delivery].source.slice(1)}.* \\S`));
	else expect(item.json.message).toMatch(new RegExp(`${DELIVERY_SENTENCE[delivery].source}.* \\S`));
}

describe('"Continue (using error output)": the error branch keeps the input, `error` saying why', () => {
	test('items the node refuses come out with their message, description and other fields unchanged, and `error` saying why', async () => {
		const items = [...invalid, valid[3]];

		const result = await run(items, 'continueErrorOutput');

		const requests = await client().requests({ path: '/users/track' });
		expect(requests.map(({ body }) => body)).toEqual([
			{ events: [{ external_id: 'crm-3', name: 'ticket_opened', time: '2026-11-01T12:00:00Z' }] },
		]);
		for (const [line, { success, error }] of Object.entries(byLine(result))) {
			expect([line, success.map(pairedIndex)]).toEqual([line, [4]]);
			expect([line, error.map(pairedIndex)]).toEqual([line, [0, 1, 2, 3]]);
			for (const item of error) {
				expect(item.error).toBeUndefined();
				expectInputKept(item, items[pairedIndex(item)], 'invalid');
			}
		}
	});

	test('items of a request the platform refuses (400) come out with every input field but `error` unchanged, `error` saying why', async () => {
		await client().injectFaults([{ method: 'POST', path: '/users/track', times: 1, kind: 'status', status: 400 }]);
		const items = [invalid[1], ...valid];

		const result = await run(items, 'continueErrorOutput');

		const requests = await client().requests({ path: '/users/track' });
		expect(requests.map(({ status }) => status)).toEqual([400]);
		expect((requests[0].body as { events: IDataObject[] }).events.map((event) => event.external_id)).toEqual(
			valid.map(({ id }) => id),
		);
		for (const [line, { success, error }] of Object.entries(byLine(result))) {
			expect([line, success]).toEqual([line, []]);
			expect([line, error.map(pairedIndex)]).toEqual([line, [0, 1, 2, 3, 4]]);
			for (const item of error)
				expectInputKept(item, items[pairedIndex(item)], pairedIndex(item) === 0 ? 'invalid' : 'not_applied');
		}
	});

	test('a ticket with its own message: the message arrives as written, and $json.error says what happened and what to do', async () => {
		const result = await run([valid[0], invalid[1]], 'continueErrorOutput');

		const [ticket] = result.output(USER, 1);
		expect(ticket).toEqual({
			json: {
				id: '',
				message: 'Where is my parcel?',
				channel: 'chat',
				ticket: 'T-2',
				error: expect.stringMatching(
					/^Row 2 \(item 1\): "External ID" .+ — Not sent: the node refused this item's input/,
				),
			},
			pairedItem: { item: 1 },
		});
	});

	test('a row carrying its own error (an earlier run’s, written back): $json.error says this run’s reason instead, $json.message what to do', async () => {
		const result = await run([invalid[2]], 'continueErrorOutput');

		for (const [line, { success, error }] of Object.entries(byLine(result))) {
			expect([line, success]).toEqual([line, []]);
			expect([line, error.map(({ json }) => json)]).toEqual([
				line,
				[
					{
						id: '',
						ticket: 'T-3',
						error: expect.stringMatching(/^Row 1 \(item 0\): "External ID" /),
						message: expect.stringMatching(DELIVERY_SENTENCE.invalid),
					},
				],
			]);
		}
	});

	test('an input with an empty error (null) gets the node’s words there: n8n sends an item down the error branch only by a non-empty error', async () => {
		const input = { id: '', error: null, message: '', ticket: 'T-5' };

		const result = await run([input], 'continueErrorOutput');

		for (const [line, { success, error }] of Object.entries(byLine(result))) {
			expect([line, success]).toEqual([line, []]);
			expect([line, error.map(({ json }) => json)]).toEqual([
				line,
				[
					{
						id: '',
						message: '',
						ticket: 'T-5',
						error: expect.stringMatching(/^Row 1 \(item 0\): .+ — Not sent: the node refused this item's input/),
					},
				],
			]);
		}
	});
});

describe('"Continue (regular output)"', () => {
	test('every answer on the one output; a failed item keeps its row, with `error` saying why and the node’s words in their field', async () => {
		await client().injectFaults([{ method: 'POST', path: '/users/track', times: 1, kind: 'status', status: 400 }]);

		const result = await run([invalid[0], valid[1]], 'continueRegularOutput');

		expect(result.error).toBeUndefined();
		// The row's own message and description stay; its own `error` ("Card declined at checkout") gives way to
		// this run's reason, which the node's field holds too, with the rest of its answer.
		expect(result.output(USER)).toEqual([
			{
				json: {
					...invalid[0],
					error: expect.stringMatching(/^Row 1 \(item 0\): "External ID" /),
					[OUTPUT_FIELD]: {
						status: 'failed',
						error: expect.stringMatching(/^Row 1 \(item 0\): "External ID" /),
						description: expect.any(String),
						delivery: 'invalid',
						field: 'External ID',
					},
				},
				pairedItem: { item: 0 },
			},
			{
				json: {
					...valid[1],
					error: expect.any(String),
					[OUTPUT_FIELD]: {
						status: 'failed',
						error: expect.any(String),
						description: expect.any(String),
						delivery: 'not_applied',
						httpCode: 400,
						response: expect.any(Object),
					},
				},
				pairedItem: { item: 1 },
			},
		]);
		for (const { json } of result.output(USER)) expect(json.error).toBe(wordsOf(json).error);
		expect((await client().requests({ path: '/users/track' })).map(({ status }) => status)).toEqual([400]);
	});
});
