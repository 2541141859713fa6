/**
 * Every operation under every fault the sandbox can inject on its first request, run by n8n's
 * engine with Continue On Fail on, asserting item by item: nothing lost, nothing stored twice,
 * resent only where docs/delivery.md (Retries and pacing) allows, an unclear outcome reported as such, no secret anywhere.
 * Each case has its own sandbox and its own made-up key, so cases run side by side.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { FaultRule, Sandbox } from '../../sandbox';
import { SandboxClient, startSandbox } from '../../sandbox';
import type { RunResult } from '../harness';
import { nodeName } from '../support/nodeTypes';
import { rowNamed, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import type { FaultKind } from './faultKinds';
import { FAULT_KINDS } from './faultKinds';
import type { OperationUnderFault } from './operationsUnderFault';
import { OPERATIONS_UNDER_FAULT } from './operationsUnderFault';
import { freshSecret, leakedSecrets } from './secrets';

const SCIM_ORIGIN = 'faults.example.com';
const tally = { runs: 0, items: 0, lost: 0, duplicated: 0, leaked: 0, resends: 0, maybeApplied: 0 };

afterAll(() => {
	// eslint-disable-next-line no-console
	console.log(
		`fault injection: ${FAULT_KINDS.length} faults × ${OPERATIONS_UNDER_FAULT.length} operations with Continue On Fail, 401 and 503 without it: ${tally.runs} runs, ${tally.items} items; ` +
			`lost ${tally.lost}, stored twice ${tally.duplicated}, secrets leaked ${tally.leaked}; ` +
			`${tally.resends} requests resent, ${tally.maybeApplied} items reported "may or may not have been applied"`,
	);
});

describe.each(OPERATIONS_UNDER_FAULT)('$name', (operation) => {
	test.concurrent.each(FAULT_KINDS)(
		'$name',
		async (fault) => await withSandbox(async (sandbox) => await runUnderFault(sandbox, operation, fault)),
	);
});

/**
 * With Continue On Fail off the node throws, and what it throws holds no secret: a refused key once for
 * the run (no item named), a server error on the faulted request's first item (named in its context).
 */
describe.each(OPERATIONS_UNDER_FAULT)('$name, Continue On Fail off', (operation) => {
	test.concurrent.each([401, 503])(
		'%i',
		async (status) => await withSandbox(async (sandbox) => await throwUnderFault(sandbox, operation, status)),
	);
});

async function withSandbox(work: (sandbox: Sandbox) => Promise<void>): Promise<void> {
	const sandbox = await startSandbox();
	try {
		await work(sandbox);
	} finally {
		await sandbox.close();
	}
}

/** A sandbox holding the operation's seed, with a key or token of its own, the fault waiting for the first request. */
async function prepare(
	sandbox: Sandbox,
	operation: OperationUnderFault,
	rules: FaultRule[],
): Promise<{ client: SandboxClient; secret: string; before: number }> {
	const client = new SandboxClient(sandbox.url);
	const secret = freshSecret(operation.credential === 'api' ? 'key' : 'scim');
	if (operation.credential === 'api') await client.addApiKey(secret, '*');
	else await client.addScimToken(secret, SCIM_ORIGIN);
	await client.seed(operation.seed);
	const before = operation.applied?.(await client.state()) ?? 0;
	await client.injectFaults(rules);
	return { client, secret, before };
}

async function throwUnderFault(sandbox: Sandbox, operation: OperationUnderFault, status: number): Promise<void> {
	const { secret } = await prepare(sandbox, operation, [
		{ ...operation.firstRequest, times: 1, kind: 'status', status },
	]);

	const result = await run(sandbox.url, secret, operation, { timeoutSeconds: undefined }, false);

	tally.runs++;
	const leaked = leakedSecrets(result, [secret]);
	tally.leaked += leaked.length;
	expect(leaked).toEqual([]);
	if (status === 503 && operation.resendsAfterServerError) {
		expect(result.error).toBeUndefined();
		return;
	}
	expect(result.error?.name).toBe('NodeApiError');
	const error = result.error as Error & { context?: { itemIndex?: unknown }; description?: string };
	// An item's error names its row and n8n's item number; the run's (a refused key) names none.
	if (typeof error.context?.itemIndex === 'number') expect(error.message).toMatch(rowNamed(error.context.itemIndex));
	else expect(error.message).not.toMatch(/^Row \d+/);
	expect(error.description).toContain(`${operation.items.length} items → `);
	if (status === 401) {
		// A refused key is the run's failure, said once: no item blamed, no advice to go on past failed items.
		expect(error.context?.itemIndex).toBeUndefined();
		expect(error.description).not.toMatch(/On Error|Continue On Fail/);
		return;
	}
	// A server error is the faulted request's: its first item (item 0, per item or batched) is named.
	expect(error.context?.itemIndex).toBe(0);
	expect(error.message).toMatch(/may or may not have been applied/);
	expect(error.description).toContain(ON_ERROR_CONTINUE);
	expect(error.description).not.toContain('Continue On Fail');
}

const ON_ERROR_CONTINUE = 'Settings → On Error → "Continue (using error output)"';

async function runUnderFault(sandbox: Sandbox, operation: OperationUnderFault, fault: FaultKind): Promise<void> {
	const { client, secret, before } = await prepare(sandbox, operation, fault.rules(operation.firstRequest));

	const result = await run(sandbox.url, secret, operation, fault);
	const output = result.output(nodeName(operation.nodeType));
	const state = await client.state();
	const requests = await client.requests();
	const itemCount = operation.items.length;

	tally.runs++;
	tally.items += itemCount;
	const answered = new Set(output.map((item) => (item.pairedItem as { item: number }).item));
	tally.lost += itemCount - answered.size;
	const applied = (operation.applied?.(state) ?? 0) - before;
	tally.duplicated += Math.max(0, applied - itemCount);
	const leaked = leakedSecrets(result, [secret]);
	tally.leaked += leaked.length;

	expect(requests[0]).toMatchObject(operation.firstRequest);
	expect(result.error).toBeUndefined();
	expect([...answered].sort()).toEqual(operation.items.map((_, index) => index));
	expect(leaked).toEqual([]);
	expect(applied).toBeLessThanOrEqual(itemCount);

	const planned = operation.requestPerItem ? itemCount : 1;
	tally.resends += requests.length - planned;
	const faulted = operation.requestPerItem ? [0] : operation.items.map((_, index) => index);

	if (fault.rateLimited || operation.resendsAfterServerError) {
		// Waited out or resent: every item succeeds, the faulted request was sent once more per fault.
		const extra = fault.rateLimited ? 2 : 1;
		expect(requests).toHaveLength(planned + extra);
		expect(errorsOf(output)).toEqual([]);
		if (operation.applied) expect(applied).toBe(itemCount);
		return;
	}

	// Not resendable: sent once, and the faulted items say their outcome is unknown.
	expect(requests).toHaveLength(planned);
	const errors = errorsOf(output);
	expect(errors.map(({ index }) => index)).toEqual(faulted);
	for (const { json } of errors) {
		expect(wordsOf(json)).toMatchObject({
			delivery: 'maybe_applied',
			error: expect.stringMatching(/may or may not have been applied/),
		});
		// The reason at the top too, as n8n's own nodes give it on the regular output.
		expect(json.error).toBe(wordsOf(json).error);
	}
	tally.maybeApplied += errors.length;
	if (operation.applied) expect(applied).toBe(fault.processed ? itemCount : itemCount - faulted.length);
}

async function run(
	url: string,
	secret: string,
	operation: OperationUnderFault,
	fault: Pick<FaultKind, 'timeoutSeconds'>,
	continueOnFail = true,
): Promise<RunResult> {
	const options: INodeParameters = {
		parallelRequests: 1,
		...(fault.timeoutSeconds && { timeoutSeconds: fault.timeoutSeconds }),
	};
	const credentials: Record<string, ICredentialDataDecryptedObject> =
		operation.credential === 'api'
			? { engagementPlatformApi: { restEndpoint: url, apiKey: secret } }
			: { engagementPlatformScimApi: { scimEndpoint: url, scimToken: secret, requestOrigin: SCIM_ORIGIN } };
	return await runNode(operation.nodeType, {
		items: operation.items,
		parameters: { ...operation.parameters, options },
		continueOnFail,
		credentials,
	});
}

/** The failed items on the regular output: the node's words say `failed`, and `error` is at the top. */
function errorsOf(output: INodeExecutionData[]): Array<{ index: number; json: IDataObject }> {
	return output
		.filter((item) => statusOf(item.json) === 'failed' || item.json.error !== undefined)
		.map((item) => ({ index: (item.pairedItem as { item: number }).item, json: item.json }));
}
