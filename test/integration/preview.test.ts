/**
 * Preview (Options → Preview): the run reads, checks and plans as always, then sends nothing and
 * remembers nothing. For every operation of every action node (the rows of the conservation table,
 * which the guard below holds to the node descriptions), seeded batches run twice on a fresh sandbox:
 * once with Preview, which must reach the platform not once (so the sandbox is still fresh) and leave
 * n8n's node context and deduplication store as they were, and then for real; what the preview says each item would send, and
 * in which request, must be what the real run sent, request by request, read by the spec's own reader
 * of each endpoint (test/conservation/wirePieces.ts). PREVIEW_RUNS sets how many batches per operation.
 */
import { createHash } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RecordedRequest } from '../../sandbox';
import { packageNodes, operationId } from '../conservation/nodeOperations';
import type { OperationRow } from '../conservation/operationRow';
import { withOperation } from '../conservation/operationRow';
import { OPERATION_ROWS } from '../conservation/operationsTable';
import { limitViolations } from '../conservation/wireLimits';
import { wirePieces } from '../conservation/wirePieces';
import { prepareSandbox } from '../conservation/sandboxRun';
import { deduplicationStore } from '../harness/deduplicationStore';
import type { RunResult } from '../harness';
import { canonicalValue } from '../../nodes/EngagementPlatform/shared/engine/operation';
import { USER, USER_NODE } from '../support/nodeTypes';
import { nodeName } from '../support/nodeTypes';
import { runNode } from '../support/runNode';
import { sandboxCredentialsByType } from '../support/sandboxCredentials';
import { useSandbox } from './sandboxLifecycle';

const RUNS = Number(process.env.PREVIEW_RUNS ?? 4);
const SEED = 20_261_127;
const seedOf = (name: string) => [...name].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) | 0, SEED);
const FIELD = 'engagementPlatform';

const { sandbox, client } = useSandbox();

/** One request the preview announces, with what each item says it would put in it. */
interface AnnouncedRequest {
	number: number;
	of: number;
	method: string;
	path: string;
	sends?: IDataObject;
	query?: IDataObject;
}

function withPreview(parameters: INodeParameters, preview: boolean): INodeParameters {
	const options = (parameters.options ?? {}) as IDataObject;
	return preview ? { ...parameters, options: { ...options, preview: true } } : parameters;
}

/** Every request an item's preview names: `request` with `sends`, or `requests` when its parts travel apart. */
function announced(words: IDataObject): AnnouncedRequest[] {
	if (Array.isArray(words.requests)) return words.requests as unknown as AnnouncedRequest[];
	if (words.request === undefined || words.request === null) return [];
	return [
		{
			...(words.request as unknown as AnnouncedRequest),
			sends: words.sends as IDataObject,
			query: words.query as IDataObject,
		},
	];
}

/** A request's pieces as the spec's reader of its endpoint finds them, in one order, with its method and path. */
function requestKey(method: string, path: string, pieces: Array<{ key: string; value: unknown }>): string {
	const sorted = pieces.map((piece) => canonicalValue(piece)).sort();
	return `${method.toUpperCase()} ${path} ${sorted.join(' ')}`;
}

/** What the preview says goes in each request: each item's part read by the same reader as the wire. */
function previewedRequests(output: INodeExecutionData[]): { keys: string[]; problems: string[] } {
	const byNumber = new Map<
		number,
		{ method: string; path: string; of: number; pieces: Array<{ key: string; value: unknown }> }
	>();
	const problems: string[] = [];
	for (const item of output) {
		const words = item.json[FIELD] as IDataObject | undefined;
		if (!words || words.status !== 'preview') continue;
		for (const request of announced(words)) {
			const part = {
				method: request.method,
				path: request.path,
				query: Object.fromEntries(Object.entries(request.query ?? {}).map(([key, value]) => [key, String(value)])),
				body: request.sends,
			} as unknown as RecordedRequest;
			const entry = byNumber.get(request.number) ?? {
				method: request.method,
				path: request.path,
				of: request.of,
				pieces: [],
			};
			if (entry.method !== request.method || entry.path !== request.path || entry.of !== request.of)
				problems.push(
					`request ${request.number} is named ${request.method} ${request.path} and ${entry.method} ${entry.path}`,
				);
			entry.pieces.push(...wirePieces(part));
			byNumber.set(request.number, entry);
		}
	}
	const numbers = [...byNumber.keys()].sort((a, b) => a - b);
	const of = byNumber.size;
	numbers.forEach((number, index) => {
		if (number !== index + 1 || byNumber.get(number)!.of !== of)
			problems.push(`request numbers run 1..${of}: got ${number} of ${byNumber.get(number)!.of}`);
	});
	return {
		keys: [...byNumber.values()].map(({ method, path, pieces }) => requestKey(method, path, pieces)).sort(),
		problems,
	};
}

function nodeContextOf(result: RunResult, name: string): unknown {
	const contextData = result.run.data.executionData?.contextData ?? {};
	return (contextData as Record<string, unknown>)[`node:${name}`];
}

const WRITES = new Set(['checkProcessedAndRecord', 'removeProcessed', 'clearAllProcessedItems']);

/** The deduplication store's entries and the writes made to it, to compare before and after a run. */
function storeState(): { records: string; writes: number } {
	const store = deduplicationStore();
	return {
		records: createHash('sha256')
			.update(JSON.stringify([...store.records.entries()].sort(([a], [b]) => (a < b ? -1 : 1))))
			.digest('base64url'),
		writes: store.calls.filter(({ method }) => WRITES.has(method)).length,
	};
}

let savedRuns = 0;

async function runSaved(
	row: OperationRow,
	items: IDataObject[],
	parameters: INodeParameters,
	saved: { workflowId: string; nodeId: string },
): Promise<RunResult> {
	return await runNode(row.nodeType, {
		items,
		parameters,
		continueOnFail: true,
		credentials: sandboxCredentialsByType(sandbox().url),
		...saved,
	});
}

async function previewThenSend(row: OperationRow, generated: IDataObject[]): Promise<string[]> {
	const problems: string[] = [];
	const name = nodeName(row.nodeType);
	const parameters = withOperation(row, row.parameters);

	const items = await prepareSandbox(client(), row, generated);
	const before = storeState();
	// One saved workflow and node for both runs, as a marketer previews and then sends: a transactional
	// email's derived External Send ID is the workflow's and the node's.
	const saved = { workflowId: `preview-${++savedRuns}`, nodeId: `node-${savedRuns}` };
	const preview = await runSaved(row, items, withPreview(parameters, true), saved);
	if (preview.error) problems.push(`the preview failed: ${preview.error.message}`);
	const reached = await client().requests();
	if (reached.length > 0)
		problems.push(
			`the preview reached the platform ${reached.length} times: ${reached.map((r) => `${r.method} ${r.path}`).join(', ')}`,
		);
	const after = storeState();
	if (after.writes !== before.writes)
		problems.push(`the preview wrote n8n's deduplication store ${after.writes - before.writes} times`);
	if (after.records !== before.records) problems.push("the preview changed n8n's deduplication store");
	const context = nodeContextOf(preview, name);
	if (context !== undefined && Object.keys(context as object).length > 0)
		problems.push(`the preview wrote the node's context: ${JSON.stringify(context).slice(0, 200)}`);
	const previewOutput = preview.output(name);
	if (previewOutput.length !== items.length)
		problems.push(`${items.length} items in, ${previewOutput.length} out of the preview`);
	previewOutput.forEach((item, index) => {
		const { [FIELD]: words, ...row } = item.json;
		if (canonicalValue(row) !== canonicalValue(items[index]))
			problems.push(`item ${index}: the row did not come out as it went in`);
		if ((item.pairedItem as { item: number } | undefined)?.item !== index)
			problems.push(`item ${index}: paired to another item`);
		if ((words as IDataObject | undefined)?.status !== 'preview')
			problems.push(`item ${index}: answered ${JSON.stringify(words)}`);
	});
	const previewed = previewedRequests(previewOutput);
	problems.push(...previewed.problems);

	// The preview reached nothing (above), so the sandbox is as fresh as before it: the real run goes
	// to it with the same items (those the seeded sandbox completed, its service IDs among them).
	const real = await runSaved(row, items, parameters, saved);
	if (real.error) problems.push(`the real run failed: ${real.error.message}`);
	const sent = await client().requests();
	for (const request of sent) problems.push(...limitViolations(request));
	const sentKeys = sent.map((request) => requestKey(request.method, request.path, wirePieces(request))).sort();
	if (canonicalValue(previewed.keys) !== canonicalValue(sentKeys)) {
		problems.push(
			`the preview announced ${previewed.keys.length} requests, the real run sent ${sentKeys.length}, not the same:\n` +
				`  previewed: ${previewed.keys.slice(0, 3).join('\n             ')}\n  sent:      ${sentKeys.slice(0, 3).join('\n             ')}`,
		);
	}
	return problems;
}

test('every operation of every action node has a row to preview it with', () => {
	const rows = new Set(OPERATION_ROWS.map((row) => operationId(row)));
	const missing = packageNodes().operations.filter((operation) => !rows.has(operationId(operation)));
	expect(missing.map(operationId)).toEqual([]);
});

describe.each(OPERATION_ROWS.map((row) => ({ ...row, label: `${row.nodeType.split('.').pop()} / ${row.operation}` })))(
	'$label',
	(row) => {
		test('Preview sends nothing, remembers nothing, and announces exactly the requests the real run sends', async () => {
			const problems: string[] = [];
			let run = 0;
			await fc.assert(
				fc.asyncProperty(row.items, async (generated: IDataObject[]) => {
					const found = await previewThenSend(row, generated);
					problems.push(...found.map((problem) => `run ${run} (${generated.length} items): ${problem}`));
					run++;
				}),
				{ seed: seedOf(row.operation + row.nodeType), numRuns: RUNS, endOnFailure: true },
			);
			expect(problems.slice(0, 6)).toEqual([]);
		});
	},
);

describe("Preview, in a marketer's run", () => {
	const contacts = (count: number, tier = 'gold') =>
		Array.from({ length: count }, (_, index) => ({ crm_id: `c-${index}`, tier, status: 'active' }));
	const updateAttributes = (options: IDataObject): INodeParameters => ({
		operation: 'updateAttributes',
		identifyBy: 'external_id',
		externalId: '={{ $json.crm_id }}',
		attributesInput: 'json',
		attributesJson: '={{ { tier: $json.tier } }}',
		options: { resendEveryDays: 0, ...options },
	});

	test('200 contacts: the hint names the requests, their path and the time, and how to send for real', async () => {
		const result = await runNode(USER_NODE, {
			items: contacts(200),
			parameters: updateAttributes({ preview: true }),
			credentials: sandboxCredentialsByType(sandbox().url),
		});
		expect(result.error).toBeUndefined();
		expect(await client().requests()).toEqual([]);
		const output = result.output(USER);
		expect(output[0].json).toMatchObject({
			crm_id: 'c-0',
			status: 'active',
			[FIELD]: { status: 'preview', request: { number: 1, of: 3, method: 'POST', path: '/users/track' } },
		});
		expect(output[199].json[FIELD]).toMatchObject({ request: { number: 3, of: 3 } });
		const hints = JSON.stringify(result.run.data.resultData.runData[USER][0].hints);
		expect(hints).toContain('Preview: nothing was sent. 200 items → 3 requests to POST /users/track');
		expect(hints).toContain('turn off Options → Preview');
	});

	test('a later item setting the same contact: the earlier one says it would not be sent, and which item replaces it', async () => {
		const result = await runNode(USER_NODE, {
			items: [...contacts(1, 'silver'), ...contacts(1, 'gold')],
			parameters: updateAttributes({ preview: true }),
			credentials: sandboxCredentialsByType(sandbox().url),
		});
		const [first, second] = result.output(USER).map((item) => item.json[FIELD] as IDataObject);
		expect(first).toMatchObject({ status: 'preview', wouldSend: false, replacedBy: 1 });
		expect(second).toMatchObject({ status: 'preview', wouldSend: true, request: { number: 1, of: 1 } });
		expect(second.sends).toMatchObject({ attributes: [{ external_id: 'c-0', tier: 'gold' }] });
	});

	test('Send Only Changes after a real run: the preview reads nothing it would have to write, and says which items the real run decides', async () => {
		const workflowId = 'preview-send-only-changes';
		const run = async (options: IDataObject) =>
			await runNode(USER_NODE, {
				workflowId,
				items: contacts(3),
				parameters: updateAttributes({ sendOnlyChanges: true, ...options }),
				credentials: sandboxCredentialsByType(sandbox().url),
			});
		await run({});
		await client().reset();
		const before = storeState();
		const preview = await run({ preview: true });
		expect(await client().requests()).toEqual([]);
		expect(storeState()).toEqual(before);
		const words = preview.output(USER).map((item) => item.json[FIELD] as IDataObject);
		expect(words[0]).toMatchObject({ status: 'preview', wouldSend: true, ifChanged: true });
	});
});
