/**
 * One property run of the bad-input suite: a generated batch through one operation, once with
 * Continue On Fail off (it must stop with an n8n error and send nothing) and once with it on
 * (every item answered, refusals naming their field, nothing the node sent refused by the
 * sandbox, every accepted item's data received).
 */
import type fc from 'fast-check';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

import type { RecordedRequest, SandboxClient, SeedData } from '../../sandbox';
import type { RunResult } from '../harness';
import { nodeName } from '../support/nodeTypes';
import { rowNamed, rowOf, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { sandboxCredentialsByType } from '../support/sandboxCredentials';
import { answersWithWords } from '../support/successWords';
import type { GeneratedItem } from './badInputBatch';

export interface BadInputCase {
	name: string;
	nodeType: string;
	/** Item fields mapped with expressions, as users map them. */
	parameters: INodeParameters;
	seed: SeedData;
	items: fc.Arbitrary<GeneratedItem[]>;
	/** Fewer runs for operations sending one request per item. */
	numRuns?: number;
	/** How many pieces of item data the sandbox took in answered (2xx) requests. */
	received(answered: RecordedRequest[]): number;
	/** How many pieces the items the node accepted make; one each unless said otherwise. */
	expected?(accepted: IDataObject[]): number;
}

export const tally = { runs: 0, items: 0, bad: 0, refusedByNode: 0, sent: 0, disagreements: 0 };

const N8N_ERRORS = ['NodeOperationError', 'NodeApiError'];
const ON_ERROR_CONTINUE = 'Settings → On Error → "Continue (using error output)"';

export async function checkBadInput(
	client: SandboxClient,
	url: string,
	testCase: BadInputCase,
	items: GeneratedItem[],
): Promise<void> {
	await client.reset();
	await client.seed(testCase.seed);
	tally.runs++;
	tally.items += items.length;
	tally.bad += items.filter((item) => item.kind !== 'valid').length;

	const firstRefused = items.findIndex((item) => item.verdict === 'refused');
	if (firstRefused >= 0) {
		const stopped = await run(url, testCase, items, false);
		expect(N8N_ERRORS).toContain(stopped.error?.name);
		// The error names its item in its context for n8n's editor, and its row and item number in its message.
		const error = stopped.error as (Error & { context?: { itemIndex?: unknown }; description?: string }) | undefined;
		const named = error?.context?.itemIndex;
		expect(typeof named).toBe('number');
		expect(named).toBeGreaterThanOrEqual(0);
		expect(named).toBeLessThanOrEqual(firstRefused);
		expect(error?.message).toMatch(rowNamed(named as number));
		// Going on past the invalid items is n8n's On Error setting, by its name.
		expect(error?.description).toContain(ON_ERROR_CONTINUE);
		expect(error?.description).not.toContain('Continue On Fail');
		expect(await client.requests()).toEqual([]);
	}

	const result = await run(url, testCase, items, true);
	expect(result.error).toBeUndefined();
	const output = result.output(nodeName(testCase.nodeType));
	const problems = answerProblems(
		output,
		items,
		answersWithWords(testCase.nodeType, String(testCase.parameters.operation)),
	);
	tally.disagreements += problems.length;
	expect(problems).toEqual([]);

	const answered = (await client.requests()).filter((request) => request.status >= 200 && request.status < 300);
	const accepted = acceptedInputs(output, items);
	tally.refusedByNode += items.length - accepted.length;
	tally.sent += accepted.length;
	expect(testCase.received(answered)).toBe(testCase.expected?.(accepted) ?? accepted.length);
}

async function run(
	url: string,
	testCase: BadInputCase,
	items: GeneratedItem[],
	continueOnFail: boolean,
): Promise<RunResult> {
	return await runNode(testCase.nodeType, {
		items: items.map((item) => item.json),
		parameters: testCase.parameters,
		continueOnFail,
		credentials: sandboxCredentialsByType(url),
	});
}

/** A failed item on the regular output: `failed` in the node's words (and the reason at the top). */
const isFailed = (answer: IDataObject): boolean => statusOf(answer) === 'failed';

/** Every item answered, and each answer what its input deserves; one line per item that is not. */
function answerProblems(output: INodeExecutionData[], items: GeneratedItem[], withWords: boolean): string[] {
	const byItem = answersByItem(output);
	const problems: string[] = [];
	for (const [index, item] of items.entries()) {
		const answers = byItem.get(index) ?? [];
		const what = `item ${index} (${item.kind})`;
		if (answers.length === 0) {
			problems.push(`${what} got no answer`);
			continue;
		}
		// Each answer carries the row exactly as it came, a failed one with `error` beside it (the reason
		// its words give); an operation answering with the platform's records gives those alone.
		const rowNotKept = (answer: IDataObject) =>
			isFailed(answer)
				? !isDeepStrictEqual(rowOf(answer), { ...item.json, error: wordsOf(answer).error })
				: withWords && !isDeepStrictEqual(rowOf(answer), item.json);
		if (answers.some(rowNotKept)) problems.push(`${what} does not carry its row as it came`);
		const failed = answers.find(isFailed);
		if (!failed) {
			if (item.verdict === 'refused') problems.push(`${what} was accepted by the node`);
			continue;
		}
		const error = wordsOf(failed);
		if (failed.error !== error.error) problems.push(`${what} failed without its reason at the top`);
		if (error.delivery !== 'invalid') {
			problems.push(
				`${what} was sent and failed (${String(error.delivery)}, ${String(error.httpCode)}): ${String(error.error)}`,
			);
		} else if (typeof error.field !== 'string' || error.field === '') {
			problems.push(`${what} was refused without naming a field: ${String(error.error)}`);
		} else if (item.verdict === 'accepted') {
			problems.push(`${what} is valid and was refused: ${String(error.error)}`);
		} else if (item.field && !error.field.startsWith(item.field)) {
			problems.push(`${what} was refused naming "${error.field}", not "${item.field}": ${String(error.error)}`);
		}
	}
	const unpaired = output.filter((answer) => !items[pairedIndex(answer)]);
	if (unpaired.length > 0) problems.push(`${unpaired.length} output items are paired with no input item`);
	return problems;
}

function acceptedInputs(output: INodeExecutionData[], items: GeneratedItem[]): IDataObject[] {
	const byItem = answersByItem(output);
	return items
		.filter((_, index) => (byItem.get(index) ?? []).every((answer) => !isFailed(answer)))
		.map((item) => item.json);
}

function answersByItem(output: INodeExecutionData[]): Map<number, IDataObject[]> {
	const byItem = new Map<number, IDataObject[]>();
	for (const answer of output) {
		const index = pairedIndex(answer);
		byItem.set(index, [...(byItem.get(index) ?? []), answer.json]);
	}
	return byItem;
}

function pairedIndex(answer: INodeExecutionData): number {
	const paired = answer.pairedItem;
	return typeof paired === 'object' && paired !== null && !Array.isArray(paired) ? paired.item : -1;
}

/** The summed length of one array of the body over answered requests, e.g. `events` of /users/track. */
export function bodyArrayLength(answered: RecordedRequest[], key: string): number {
	return answered.reduce((sum, request) => {
		const value = (request.body as IDataObject | undefined)?.[key];
		return sum + (Array.isArray(value) ? value.length : 0);
	}, 0);
}

/** One piece of item data per answered request, for operations sending one request per item. */
export const answeredCount = (answered: RecordedRequest[]): number => answered.length;
