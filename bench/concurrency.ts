/**
 * Section 5: 1, 2, 4 and 8 executions at once, each in a process of its own (so nothing but the
 * platform's answers can pass between them) tracking 20,000 events, against the sandbox enforcing a
 * scaled-down /users/track limit. A row's executions are all loaded and warmed up, then released together.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SandboxClient, StoredEvent } from '../sandbox';
import { acceptedPerWindow } from './acceptedPerWindow';
import type { ExecutionFigures } from './concurrentExecution';
import { orderIdOf, TRACKED } from './concurrentItems';
import { startHeldExecution } from './heldExecution';
import { TRACK_EVENTS } from './operations';
import type { RateLimits } from './prepareSandbox';
import { prepareSandbox } from './prepareSandbox';

const EXECUTIONS = [1, 2, 4, 8];
const ITEMS_PER_EXECUTION = 20_000;
/** Low enough that one execution alone is held by it: its 267 requests are almost three windows' worth. */
const CONCURRENCY_LIMIT = { limit: 100, windowMs: 3000 };
const TRACK_EVENTS_PATH = '/users/track';
const TARGET = { executions: 8, largest429Share: 0.1, leastLimitUse: 0.9 };

export async function concurrentExecutions(
	client: SandboxClient,
	sandboxUrl: string,
	latencyMs: number,
	open: RateLimits,
): Promise<IDataObject[]> {
	console.log(
		`\n5. Concurrent executions, each its own process tracking ${ITEMS_PER_EXECUTION.toLocaleString('en')} events, all started together; ` +
			`the sandbox enforcing /users/track at ${CONCURRENCY_LIMIT.limit} requests per ${CONCURRENCY_LIMIT.windowMs / 1000} s, ${latencyMs} ms latency\n`,
	);
	const rows: IDataObject[] = [];
	for (const executions of EXECUTIONS) {
		await prepareSandbox(client, latencyMs, { ...open, 'users.track': CONCURRENCY_LIMIT });
		const figures = await runTogether(executions, sandboxUrl);
		rows.push(await concurrencyRow(client, executions, figures));
	}
	console.table(rows.map(({ perExecution: _perExecution, ...shown }) => shown));
	printTarget(rows.find((row) => row.executions === TARGET.executions));
	return rows;
}

async function runTogether(executions: number, sandboxUrl: string): Promise<ExecutionFigures[]> {
	const held = Array.from({ length: executions }, (_, execution) =>
		startHeldExecution(execution, ITEMS_PER_EXECUTION, sandboxUrl),
	);
	try {
		await Promise.all(held.map((execution) => execution.ready));
		for (const execution of held) execution.release();
		return await Promise.all(held.map((execution) => execution.finished));
	} finally {
		for (const execution of held) execution.stop();
	}
}

async function concurrencyRow(
	client: SandboxClient,
	executions: number,
	figures: ExecutionFigures[],
): Promise<IDataObject> {
	const requests = await client.requests({ path: TRACK_EVENTS_PATH });
	const stats = await client.stats();
	if (stats.requests !== requests.length)
		throw new Error(
			`the sandbox received ${stats.requests} requests, ${requests.length} of them logged for ${TRACK_EVENTS_PATH}`,
		);
	const accepted = requests.filter((request) => request.status >= 200 && request.status < 300).length;
	const refused = requests.filter((request) => request.status === 429).length;
	const stored = storedOnce(executions, (await client.state()).events);
	const windows = acceptedPerWindow(requests, CONCURRENCY_LIMIT.windowMs);
	const items = executions * ITEMS_PER_EXECUTION;
	const startedAt = Math.min(...figures.map((figure) => figure.startedAt));
	const lastStartedAt = Math.max(...figures.map((figure) => figure.startedAt));
	const endedAt = Math.max(...figures.map((figure) => figure.endedAt));
	if (lastStartedAt >= Math.min(...figures.map((figure) => figure.endedAt)))
		console.log(`   (${executions} executions: one ended before the last started; they did not all overlap)`);
	const percentOfLimit = (count: number | undefined) =>
		count === undefined ? null : +((count / CONCURRENCY_LIMIT.limit) * 100).toFixed(1);
	return {
		executions,
		items,
		requests: requests.length,
		fewest: executions * TRACK_EVENTS.fewest(ITEMS_PER_EXECUTION),
		'429s': refused,
		'extra %': +(((requests.length - accepted) / accepted) * 100).toFixed(1),
		itemsLost: stored.missing,
		storedTwice: stored.duplicated,
		notTracked: items - figures.reduce((sum, figure) => sum + figure.trackedItems, 0),
		wallMs: endedAt - startedAt,
		'limit used % (mean)': percentOfLimit(windows?.meanAccepted),
		'limit used % (min)': percentOfLimit(windows?.minAccepted),
		fullWindows: windows?.fullWindows ?? 0,
		startSpreadMs: lastStartedAt - startedAt,
		perExecution: figures.map((figure) => ({
			wallMs: figure.endedAt - figure.startedAt,
			outputItems: figure.outputItems,
			trackedItems: figure.trackedItems,
		})),
	};
}

/** How many of the executions' items the sandbox holds no event for, and how many events it holds beyond one per item. */
function storedOnce(executions: number, events: StoredEvent[]): { missing: number; duplicated: number } {
	const timesStored = new Map<string, number>();
	for (const event of events) {
		const orderId = String(event.properties?.order_id);
		timesStored.set(orderId, (timesStored.get(orderId) ?? 0) + 1);
	}
	let missing = 0;
	let duplicated = 0;
	for (let execution = 0; execution < executions; execution++) {
		for (let index = 0; index < ITEMS_PER_EXECUTION; index++) {
			const times = timesStored.get(orderIdOf(execution, index)) ?? 0;
			if (times === 0) missing++;
			else duplicated += times - 1;
		}
	}
	return { missing, duplicated };
}

function printTarget(row: IDataObject | undefined): void {
	if (!row) return;
	const share429 = Number(row['429s']) / Number(row.requests);
	const limitUse = Number(row['limit used % (mean)']) / 100;
	const noneLost = row.itemsLost === 0 && row.storedTwice === 0 && row.notTracked === 0;
	const checks = [
		`429s ${(share429 * 100).toFixed(1)}% of requests (at most ${TARGET.largest429Share * 100}%) ${share429 <= TARGET.largest429Share ? 'met' : 'NOT met'}`,
		`${Number(row.itemsLost)} lost, ${Number(row.storedTwice)} stored twice, ${Number(row.notTracked)} not answered '${TRACKED}' (0 each) ${noneLost ? 'met' : 'NOT met'}`,
		`limit used ${(limitUse * 100).toFixed(1)}% on average per full window (at least ${TARGET.leastLimitUse * 100}%) ${limitUse >= TARGET.leastLimitUse ? 'met' : 'NOT met'}`,
	];
	const met = share429 <= TARGET.largest429Share && noneLost && limitUse >= TARGET.leastLimitUse;
	console.log(
		`   target at ${TARGET.executions} concurrent executions: ${met ? 'MET' : 'NOT MET'}\n   - ${checks.join('\n   - ')}`,
	);
}
