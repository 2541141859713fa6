/**
 * One run of an operation's batch against the sandbox, as the compiled-reading and input-items suites
 * drive every row of the table: the sandbox reset, configured without rate limits and seeded for the
 * batch (with any faults injected), then the node run by n8n's engine on the items, each field read as
 * the parameters map it.
 */
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type { FaultRule, SandboxClient, SandboxConfigPatch, SeedData, SeedResult } from '../../sandbox';
import { DEFAULT_RATE_LIMITS } from '../../sandbox';
import type { RunResult } from '../harness';
import { runNode } from '../support/runNode';
import { sandboxCredentialsByType } from '../support/sandboxCredentials';

/** Rate limits are the fault suite's subject: here no request waits for a window. */
export const NO_RATE_LIMITS = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((group) => [group, null]));

/** What a batch needs of the sandbox: a row's conservation case, or one of its parts with a seed of its own. */
export interface SandboxBatch {
	config?: SandboxConfigPatch;
	seed(items: IDataObject[]): SeedData;
	/** Fills in what only the seeded sandbox knows (e.g. service IDs), after seeding. */
	complete?(items: IDataObject[], seeded: SeedResult): IDataObject[];
}

/** The sandbox reset and seeded for the batch, `faults` injected; the items as the seeded sandbox completes them. */
export async function prepareSandbox(
	client: SandboxClient,
	batch: SandboxBatch,
	generated: IDataObject[],
	faults: FaultRule[] = [],
): Promise<IDataObject[]> {
	await client.reset();
	await client.configure({ ...batch.config, rateLimits: NO_RATE_LIMITS });
	const seeded = await client.seed(batch.seed(generated));
	if (faults.length > 0) await client.injectFaults(faults);
	return batch.complete?.(generated, seeded) ?? generated;
}

/** n8n's On Error setting for the run: Continue (regular output) unless said otherwise. */
export type OnError = NonNullable<INode['onError']>;

/** The node run on `items` (handed to n8n as they are) with the sandbox's credentials. */
export async function runOnSandbox(
	url: string,
	nodeType: string,
	items: IDataObject[],
	parameters: INodeParameters,
	onError: OnError = 'continueRegularOutput',
): Promise<RunResult> {
	return await runNode(nodeType, {
		items,
		parameters,
		...(onError === 'continueRegularOutput' ? { continueOnFail: true } : { onError }),
		credentials: sandboxCredentialsByType(url),
	});
}
