/**
 * Track Event through n8n's engine against the sandbox in another process: requests sent,
 * the fewest the limits allow, wall time, throughput, our CPU time per 1,000 items, peak RSS.
 *
 *   npm run bench                        N = 1,000 and 10,000, 20 ms sandbox latency
 *   npm run bench -- --latency 0 --n 100000
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO_API_KEY, SandboxClient } from '../sandbox';
import { runWorkflow } from '../test/harness';
import { startSandboxProcess } from './sandboxProcess';

function argument(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? process.argv[index + 1] : fallback;
}

const sizes = argument('n', '1000,10000').split(',').map(Number);
const latencyMs = Number(argument('latency', '20'));

function events(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({
		userId: `customer-${i}`,
		time: '2026-11-01T12:00:00Z',
		properties: { order_id: `order-${i}`, total: 19.9 + (i % 100) },
	}));
}

const trackEvent = {
	name: 'Track Event',
	type: 'n8n-nodes-engagement-platform.engagementPlatformUser',
	parameters: {
		operation: 'trackEvent',
		identifyBy: 'external_id',
		externalId: '={{ $json.userId }}',
		eventName: 'order_placed',
		time: '={{ $json.time }}',
		propertiesInput: 'json',
		propertiesJson: '={{ $json.properties }}',
	},
};

async function measure(url: string, count: number): Promise<IDataObject> {
	const client = new SandboxClient(url);
	await client.reset();
	const items = events(count);
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	const result = await runWorkflow({
		nodes: [trackEvent],
		connections: { Start: { main: [[{ node: trackEvent.name, type: 'main', index: 0 }]] } },
		items,
		credentials: { engagementPlatformApi: { restEndpoint: url, apiKey: DEMO_API_KEY } },
	});
	const wallMs = performance.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	if (result.error) throw result.error;
	const stats = await client.stats();
	return {
		items: count,
		requests: stats.requests,
		fewest: Math.ceil(count / 75),
		stored: stats.events,
		wallMs: Math.round(wallMs),
		itemsPerSecond: Math.round(count / (wallMs / 1000)),
		cpuMsPer1000: +(((cpu.user + cpu.system) / 1000 / count) * 1000).toFixed(1),
		peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
	};
}

async function main(): Promise<void> {
	const sandbox = await startSandboxProcess(latencyMs);
	try {
		console.log(`Track Event in n8n's engine, sandbox in another process with ${latencyMs} ms latency per request\n`);
		const rows: IDataObject[] = [];
		for (const count of sizes) rows.push(await measure(sandbox.url, count));
		console.table(rows);
	} finally {
		sandbox.stop();
	}
}

void main();
