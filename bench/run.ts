/**
 * npm run bench: every batched operation through n8n's engine against the sandbox in another
 * process, each run in a fresh process of its own; the HTTP Request node as the peer; and the
 * sandbox enforcing /users/track's rate limit, on one execution and on several at once. Prints
 * tables and writes bench/results/<time>.json.
 *
 *   npm run bench                          N = 1,000, 10,000, 100,000; 20 ms latency per request
 *   npm run bench -- --n 1000,10000 --latency 5
 *   npm run bench -- --pairs 11              section 2's alternating pairs of fresh processes (7 by default)
 *   npm run bench -- --full                 also the runs the spec's limits make slow, and the peer at 100,000
 *   npm run bench -- --only rename          only the operations whose name holds "rename" (section 1 alone)
 *   npm run bench -- --only concurrency     section 5 alone: 1, 2, 4 and 8 executions at once against a 100-per-3 s limit
 *   npm run bench -- --only changes         section 6 alone: Send Only Changes on a 100,000-contact sync run twice
 *   npm run bench -- --only overhead        track events, the peer and the bare node (sections 1 to 3 for track events alone, with 2b)
 *   npm run bench -- --only sheet           section 1b alone: the sheet sync (Update Attributes) beside Track Event, in one run
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { SandboxClient } from '../sandbox';
import { concurrentExecutions } from './concurrency';
import { measureInChild } from './childMeasurement';
import { freshPairs } from './freshPairs';
import { longRunningProcess } from './longRunning';
import type { RunFigures } from './measureOne';
import type { BenchOperation } from './operations';
import { BENCH_OPERATIONS, SHEET_SYNC, TRACK_EVENTS } from './operations';
import type { RateLimits } from './prepareSandbox';
import { noLimits, prepareSandbox } from './prepareSandbox';
import type { SandboxProcess } from './sandboxProcess';
import { startSandboxProcess } from './sandboxProcess';
import { sendOnlyChanges } from './sendOnlyChanges';

const argument = (name: string, fallback: string) => {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? process.argv[index + 1] : fallback;
};
const sizes = argument('n', '1000,10000,100000').split(',').map(Number);
const latencyMs = Number(argument('latency', '20'));
const full = process.argv.includes('--full');
const only = argument('only', '');
/** `--only concurrency` and `--only changes` name sections 5 and 6, not operations (no operation's name holds them). */
const CONCURRENCY_SECTION = 'concurrency';
const CHANGES_SECTION = 'changes';
/** `--only sheet`: section 1b alone (the sheet sync beside Track Event). */
const SHEET_SECTION = 'sheet';
const SECTIONS = [CONCURRENCY_SECTION, CHANGES_SECTION, SHEET_SECTION];
/** `--only overhead`: track events against the peer and the bare node, our own CPU per item; no other operation. */
const OVERHEAD_SECTION = 'overhead';

/** The spec's /users/track limit (3,000 per 3 s) scaled down 10×, so one machine's run can exceed it. */
const ENFORCED_LIMIT = { limit: 300, windowMs: 3000 };
const PEER_SIZES = full ? sizes : sizes.filter((size) => size <= 10_000);
/** Section 2's alternating pairs of fresh processes, ours and the bare node (bench/freshPairs.ts). */
const PAIRS = Number(argument('pairs', '7'));

/** Runs one measurement in a child process of its own. */
const measureOne = (name: string, count: number, sandboxUrl: string) =>
	measureInChild<RunFigures>('measureOne.ts', [name, String(count), sandboxUrl]);

const prepare = (client: SandboxClient, operation: BenchOperation, count: number, rateLimits: RateLimits) =>
	prepareSandbox(client, latencyMs, rateLimits, operation.seed?.(count));

async function row(
	client: SandboxClient,
	sandbox: SandboxProcess,
	operation: BenchOperation,
	count: number,
	name = operation.name,
): Promise<IDataObject> {
	const figures = await measureOne(name, count, sandbox.url);
	const stats = await client.stats();
	return {
		operation: name === 'peer' ? 'peer: HTTP Request node, track events' : operation.name,
		items: count,
		requests: stats.requests,
		fewest: operation.fewest(count),
		wallMs: figures.wallMs,
		itemsPerSecond: Math.round(count / (figures.wallMs / 1000)),
		cpuMsPer1000: +((figures.cpuMs / count) * 1000).toFixed(1),
		peakRssMb: figures.peakRssMb,
		rssGrowthMb: figures.peakRssMb - figures.baselineRssMb,
		itemsMb: figures.itemsMb,
		retainedMb: figures.retainedMb,
		failed: figures.failedItems,
		'429s': stats.responsesByStatus['429'] ?? 0,
		expressionsPerItem: figures.expressionsPerItem,
	};
}

async function main(): Promise<void> {
	const sandbox = await startSandboxProcess(latencyMs);
	const client = new SandboxClient(sandbox.url);
	const results: IDataObject = { startedAt: new Date().toISOString(), latencyMs, node: process.version };
	try {
		const open = await noLimits(client);
		if (!SECTIONS.includes(only)) {
			const operations = await everyOperation(client, sandbox, open);
			results.operations = operations;
			if (!only || only === OVERHEAD_SECTION) await peerOverheadAndLimit(client, sandbox, open, operations, results);
		}
		if (!only || only === SHEET_SECTION) results.sheetSync = await sheetSync(client, sandbox, open);
		if (!only || only === CONCURRENCY_SECTION)
			results.concurrency = await concurrentExecutions(client, sandbox.url, latencyMs, open);
		if (!only || only === CHANGES_SECTION)
			results.sendOnlyChanges = await sendOnlyChanges(client, sandbox.url, latencyMs, open);
	} finally {
		sandbox.stop();
	}
	const folder = path.join(__dirname, 'results');
	mkdirSync(folder, { recursive: true });
	const file = path.join(folder, `${String(results.startedAt).replace(/[:.]/g, '-')}.json`);
	writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
	console.log(`\nwritten: ${path.relative(process.cwd(), file)}`);
}

/** Section 1. */
async function everyOperation(
	client: SandboxClient,
	sandbox: SandboxProcess,
	open: RateLimits,
): Promise<IDataObject[]> {
	console.log(
		`\n1. Every batched operation, ${latencyMs} ms sandbox latency per request, the sandbox enforcing no limit\n`,
	);
	const operations: IDataObject[] = [];
	const chosen = (candidate: BenchOperation) =>
		only === OVERHEAD_SECTION ? candidate === TRACK_EVENTS : !only || candidate.name.includes(only);
	for (const operation of BENCH_OPERATIONS.filter(chosen)) {
		for (const count of sizes) {
			if (!full && operation.slowFrom !== undefined && count >= operation.slowFrom) {
				console.log(`   (${operation.name} at ${count}: skipped without --full; ${operation.slowBecause})`);
				continue;
			}
			await prepare(client, operation, count, open);
			operations.push(await row(client, sandbox, operation, count));
		}
	}
	console.table(operations);
	return operations;
}

/**
 * Section 1b: the sheet sync beside Track Event, one after the other in one run, and the bare node
 * sending Track Event's requests (as many requests as the sheet sync's: 75 items each). The node's own
 * CPU per row is each run's CPU less the bare node's.
 */
async function sheetSync(client: SandboxClient, sandbox: SandboxProcess, open: RateLimits): Promise<IDataObject[]> {
	console.log(
		`\n1b. The sheet sync (${SHEET_SYNC.name}) beside Track Event, ${latencyMs} ms latency, no limit enforced\n`,
	);
	const rows: IDataObject[] = [];
	for (const count of sizes) {
		const measured: IDataObject[] = [];
		for (const [operation, name] of [
			[TRACK_EVENTS, TRACK_EVENTS.name],
			[SHEET_SYNC, SHEET_SYNC.name],
			[TRACK_EVENTS, 'baseline'],
		] as const) {
			await prepare(client, operation, count, open);
			measured.push(await row(client, sandbox, operation, count, name));
		}
		const [track, sheet, bare] = measured;
		const own = (entry: IDataObject) => Number(entry.cpuMsPer1000) - Number(bare.cpuMsPer1000);
		rows.push(track, sheet, { ...bare, operation: 'bare node: Track Event’s requests, nothing else' });
		rows.push(
			{
				operation: 'sheet sync / Track Event, CPU per row in all',
				items: count,
				cpuMsPer1000: +(Number(sheet.cpuMsPer1000) / Number(track.cpuMsPer1000)).toFixed(1),
				expressionsPerItem: `${String(sheet.expressionsPerItem)} vs ${String(track.expressionsPerItem)}`,
			},
			{
				operation: 'sheet sync / Track Event, the node’s own CPU per row',
				items: count,
				cpuMsPer1000: +(own(sheet) / own(track)).toFixed(1),
			},
		);
	}
	console.table(rows);
	console.log(
		'   cpuMsPer1000 is µs per row; the ratio rows divide the sheet sync’s by Track Event’s, in all and less the bare node’s (the node’s own)',
	);
	return rows;
}

/** Sections 2 to 4: the peer, our own overhead at the largest size, and the enforced limit. */
async function peerOverheadAndLimit(
	client: SandboxClient,
	sandbox: SandboxProcess,
	open: RateLimits,
	operations: IDataObject[],
	results: IDataObject,
): Promise<void> {
	console.log(
		`\n2. The peer: n8n's HTTP Request node, one request per item, batching 1,000 a second (the spec's limit), ${latencyMs} ms latency\n`,
	);
	const peer: IDataObject[] = [];
	for (const count of PEER_SIZES) {
		await prepare(client, TRACK_EVENTS, count, open);
		const theirs = await row(client, sandbox, TRACK_EVENTS, count, 'peer');
		await prepare(client, TRACK_EVENTS, count, open);
		const bare: IDataObject = {
			...(await row(client, sandbox, TRACK_EVENTS, count, 'baseline')),
			operation: 'bare node: the same requests as ours, nothing else',
		};
		const ours = operations.find((entry) => entry.operation === TRACK_EVENTS.name && entry.items === count);
		peer.push(theirs, bare);
		if (ours) {
			peer.push({
				operation: 'ratio ours / peer',
				items: count,
				requests: +(Number(ours.requests) / Number(theirs.requests)).toFixed(4),
				wallMs: +(Number(ours.wallMs) / Number(theirs.wallMs)).toFixed(4),
				faster: `${(Number(theirs.wallMs) / Number(ours.wallMs)).toFixed(1)}×`,
			});
		}
		// What any node sending through n8n's HTTP helpers could reach against the peer.
		peer.push({
			operation: 'ceiling: peer / bare node',
			items: count,
			faster: `${(Number(theirs.wallMs) / Number(bare.wallMs)).toFixed(1)}×`,
		});
		if (ours) {
			peer.push({
				operation: 'ours of the ceiling: bare node / ours, the runs above',
				items: count,
				ofCeiling: `${Math.round((Number(bare.wallMs) / Number(ours.wallMs)) * 100)}%`,
			});
		}
		peer.push(
			await freshPairs(
				count,
				PAIRS,
				() => prepare(client, TRACK_EVENTS, count, open),
				(name) => measureOne(name, count, sandbox.url),
				TRACK_EVENTS.name,
			),
		);
	}
	console.table(peer);
	results.peer = peer;

	console.log(
		`\n2b. Ours and the bare node in one long-running process, as an n8n server runs them: alternating runs, each after a full garbage collection, ${latencyMs} ms latency\n`,
	);
	const longRunning: IDataObject[] = [];
	for (const count of PEER_SIZES) longRunning.push(await longRunningProcess(count, latencyMs, sandbox.url));
	console.table(longRunning);
	results.longRunning = longRunning;

	const largest = Math.max(...sizes);
	console.log(`\n3. Overhead: track events at ${largest} items with 0 ms latency\n`);
	await client.configure({ latencyMs: 0 });
	await prepare(client, TRACK_EVENTS, largest, open);
	await client.configure({ latencyMs: 0 });
	const overhead = await row(client, sandbox, TRACK_EVENTS, largest);
	await prepare(client, TRACK_EVENTS, largest, open);
	await client.configure({ latencyMs: 0 });
	const baseline: IDataObject = {
		...(await row(client, sandbox, TRACK_EVENTS, largest, 'baseline')),
		operation: 'baseline: the same requests sent by a bare node',
	};
	await prepare(client, TRACK_EVENTS, largest, open);
	const holding: IDataObject = {
		...(await row(client, sandbox, TRACK_EVENTS, largest, 'passThrough')),
		operation: 'n8n holding the same items (a pass-through node)',
	};
	const ownCpu = Number(overhead.cpuMsPer1000) - Number(baseline.cpuMsPer1000);
	console.table([
		overhead,
		baseline,
		holding,
		{ operation: 'our own overhead (ours − baseline)', items: largest, cpuMsPer1000: +ownCpu.toFixed(1) },
	]);
	console.log(
		`   CPU per item: ${String(overhead.cpuMsPer1000)} µs in all; ${String(baseline.cpuMsPer1000)} µs is n8n's engine and HTTP helpers sending the same requests; ${ownCpu.toFixed(1)} µs is our node's own work (reading, validating, planning, pacing, per-item results)`,
	);
	results.baseline = baseline;
	results.ownCpuMicrosecondsPerItem = +ownCpu.toFixed(1);
	console.log(
		`   memory: peak RSS ${String(overhead.peakRssMb)} MB, ${String(overhead.rssGrowthMb)} MB above the process before the items existed; the input items take ${String(overhead.itemsMb)} MB of heap, and after the run its output and n8n's run data hold ${String(overhead.retainedMb)} MB more`,
	);
	console.log(
		`   peak RSS against n8n holding the same items: ${String(overhead.peakRssMb)} / ${String(holding.peakRssMb)} MB = ${(Number(overhead.peakRssMb) / Number(holding.peakRssMb)).toFixed(2)}×; ` +
			`growth over the items' own ${String(overhead.itemsMb)} MB: ${(Number(overhead.rssGrowthMb) / Number(overhead.itemsMb)).toFixed(1)}× (the bare node's: ${(Number(baseline.rssGrowthMb) / Number(baseline.itemsMb)).toFixed(1)}×)`,
	);
	results.holding = holding;
	results.overhead = overhead;
	if (only === OVERHEAD_SECTION) return;

	console.log(
		`\n4. The sandbox enforcing /users/track at ${ENFORCED_LIMIT.limit} requests per ${ENFORCED_LIMIT.windowMs / 1000} s (the spec's 3,000 per 3 s scaled down 10×), ${latencyMs} ms latency\n`,
	);
	await prepare(client, TRACK_EVENTS, largest, { ...open, 'users.track': ENFORCED_LIMIT });
	const limited = await row(client, sandbox, TRACK_EVENTS, largest);
	const stats = await client.stats();
	const limitPerSecond = ENFORCED_LIMIT.limit / (ENFORCED_LIMIT.windowMs / 1000);
	const accepted = Number(limited.requests) - Number(limited['429s']);
	const sustained = accepted / (Number(limited.wallMs) / 1000);
	const enforced = {
		...limited,
		acceptedRequestsPerSecond: +sustained.toFixed(1),
		limitPerSecond,
		fractionOfLimit: +(sustained / limitPerSecond).toFixed(3),
		eventsStored: stats.events,
		itemsLost: largest - stats.events,
	};
	console.table([enforced]);
	results.enforcedLimit = enforced;
}

void main();
