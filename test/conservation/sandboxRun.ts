/**
 * One run of an operation's batch against the sandbox, as the compiled-reading and input-items suites
 * drive every row of the table: the sandbox reset, configured without rate limits and seeded for the
 * batch (with any faults injected), then the node run by n8n's engine on the items, each field read as
 * the parameters map it; and what the run changed of the items it was given.
 */
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type { FaultRule, SandboxClient, SandboxConfigPatch, SeedData, SeedResult } from '../../sandbox';
import { DEFAULT_RATE_LIMITS } from '../../sandbox';
import type { RunResult } from '../harness';
import { runNode } from '../support/runNode';
import { sandboxCredentialsByType } from '../support/sandboxCredentials';

/** Rate limits are the fault suite's subject: here no request waits for a window. */
const NO_RATE_LIMITS = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((group) => [group, null]));

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

/** How many changes `changesTo` lists: the first names the fault, the rest are usually its echoes. */
const SHOWN = 8;

/**
 * Where `after` differs from `before` (a snapshot taken before the run), each as its path and both
 * values, nested objects and arrays included; empty when equal. A key added with the value undefined is
 * a change. Prototypes are not compared: a snapshot by structuredClone has another realm's under jest.
 */
export function changesTo(before: unknown, after: unknown): string[] {
	const found: string[] = [];
	compare(before, after, '', found);
	return found.length > SHOWN ? [...found.slice(0, SHOWN), `… and ${found.length - SHOWN} more`] : found;
}

function compare(before: unknown, after: unknown, path: string, found: string[]): void {
	if (Object.is(before, after)) return;
	const at = path || '(the items)';
	if (!isObject(before) || !isObject(after) || Array.isArray(before) !== Array.isArray(after)) {
		found.push(`${at}: ${shown(before)} became ${shown(after)}`);
		return;
	}
	if (isDate(before) || isDate(after)) {
		if (!isDate(before) || !isDate(after) || Date.prototype.getTime.call(before) !== Date.prototype.getTime.call(after))
			found.push(`${at}: ${shown(before)} became ${shown(after)}`);
		return;
	}
	const beforeKeys = Object.keys(before);
	const afterKeys = new Set(Object.keys(after));
	for (const key of beforeKeys) {
		const inner = Array.isArray(before) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
		if (!afterKeys.delete(key)) found.push(`${inner}: removed (was ${shown(before[key])})`);
		else compare(before[key], after[key], inner, found);
	}
	for (const key of afterKeys) {
		const inner = Array.isArray(after) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
		found.push(`${inner}: added (${shown(after[key])})`);
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object';
}

function isDate(value: unknown): boolean {
	return Object.prototype.toString.call(value) === '[object Date]';
}

function shown(value: unknown): string {
	if (value === undefined) return 'undefined';
	if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
	try {
		const text = JSON.stringify(value);
		return text.length > 80 ? `${text.slice(0, 80)}…` : text;
	} catch {
		return String(value);
	}
}
