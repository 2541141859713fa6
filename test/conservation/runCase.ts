/**
 * One conservation run: a fresh sandbox seeded so every item is valid, the operation run by n8n's
 * engine with On Error set to continue, then the checks on what went over the wire.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SandboxClient } from '../../sandbox';
import { DEFAULT_RATE_LIMITS } from '../../sandbox';
import { nodeName } from '../support/nodeTypes';
import { runNode } from '../support/runNode';
import { sandboxCredentialsByType } from '../support/sandboxCredentials';
import type { ConservationCase } from './conservationCase';
import { checkConservation } from './conservationChecks';
import { tally } from './tally';

/** Rate limits are the fault suite's subject: here no request waits for a window. */
const NO_RATE_LIMITS = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((group) => [group, null]));

/** The problems of one run, each prefixed with the batch it happened in; empty when conserved. */
export async function runConservation(
	client: SandboxClient,
	url: string,
	testCase: ConservationCase,
	generated: IDataObject[],
	run: number,
): Promise<string[]> {
	await client.reset();
	await client.configure({ ...testCase.config, rateLimits: NO_RATE_LIMITS });
	const seeded = await client.seed(testCase.seed(generated));
	const items = testCase.complete?.(generated, seeded) ?? generated;

	const result = await runNode(testCase.nodeType, {
		items,
		parameters: testCase.parameters,
		continueOnFail: true,
		credentials: sandboxCredentialsByType(url),
	});
	const requests = await client.requests();
	const findings = checkConservation(testCase, items, result.output(nodeName(testCase.nodeType)), requests);

	tally.operations.add(testCase.name);
	tally.runs++;
	tally.items += items.length;
	tally.requests += requests.length;
	tally.lost += findings.lost;
	tally.overLimit += findings.overLimit;
	tally.astray += findings.astray;
	tally.failedItems += findings.failedItems;

	const problems = result.error ? [`the run failed: ${result.error.message}`, ...findings.problems] : findings.problems;
	return problems.map((problem) => `run ${run} (${items.length} items, ${requests.length} requests): ${problem}`);
}
