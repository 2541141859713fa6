/**
 * One measured run in a process of its own, so its CPU time and peak RSS are its alone:
 * `measureOne.ts <operation name | peer | baseline | passThrough> <items> <sandbox url>` prints one JSON line.
 * Run by bench/run.ts with --expose-gc; the sandbox is prepared by the caller.
 */
import type { INodeType, IVersionedNodeType } from 'n8n-workflow';
import { Expression } from 'n8n-workflow';

import { DEMO_API_KEY } from '../sandbox';
import { runWorkflow } from '../test/harness';
import { statusOf } from '../test/support/nodeWords';
import { HTTP_REQUEST_TYPE, httpRequestParameters, loadHttpRequestNode } from './httpRequestPeer';
import type { HarnessNode } from '../test/harness';
import { BENCH_OPERATIONS, TRACK_EVENTS, TRACK_EVENT_PEER_BODY } from './operations';
import { PASS_THROUGH_TYPE, passThrough } from './passThrough';
import { TRANSPORT_BASELINE_TYPE, transportBaseline } from './transportBaseline';
import { warmUp } from './warmUp';

export interface RunFigures {
	wallMs: number;
	cpuMs: number;
	outputItems: number;
	failedItems: number;
	baselineRssMb: number;
	itemsMb: number;
	peakRssMb: number;
	retainedMb: number;
	/** n8n expression evaluations per item during the measured run. */
	expressionsPerItem: number;
}

/** Counts n8n's expression evaluations (each `={{ … }}` n8n works out), from when it is called. */
function countExpressions(): () => number {
	const resolve = Expression.prototype.resolveSimpleParameterValue;
	let evaluations = 0;
	Expression.prototype.resolveSimpleParameterValue = function (this: Expression, value, ...rest) {
		if (typeof value === 'string' && value.startsWith('=')) evaluations++;
		return resolve.call(this, value, ...rest);
	};
	return () => evaluations;
}

const MB = 1024 * 1024;
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();

async function main(): Promise<void> {
	const [name, countText, sandboxUrl] = process.argv.slice(2);
	const count = Number(countText);
	const peer = name === 'peer';
	const baseline = name === 'baseline';
	const holdOnly = name === 'passThrough';
	const operation =
		peer || baseline || holdOnly ? TRACK_EVENTS : BENCH_OPERATIONS.find((candidate) => candidate.name === name);
	if (!operation) throw new Error(`unknown operation "${name}"`);

	const nodeTypes: Record<string, INodeType | IVersionedNodeType> = peer
		? { [HTTP_REQUEST_TYPE]: loadHttpRequestNode() }
		: baseline
			? { [TRANSPORT_BASELINE_TYPE]: transportBaseline }
			: holdOnly
				? { [PASS_THROUGH_TYPE]: passThrough }
				: {};
	const node: HarnessNode = baseline
		? { name: 'Node', type: TRANSPORT_BASELINE_TYPE, parameters: {} }
		: holdOnly
			? { name: 'Node', type: PASS_THROUGH_TYPE, parameters: {} }
			: peer
				? // 1,000 requests a second: the spec's 3,000 per 3 seconds for /users/track.
					{
						name: 'Node',
						type: HTTP_REQUEST_TYPE,
						typeVersion: 4.2,
						parameters: httpRequestParameters(`${sandboxUrl}/users/track`, DEMO_API_KEY, TRACK_EVENT_PEER_BODY, 1000),
						continueOnFail: true,
					}
				: {
						name: 'Node',
						type: operation.type,
						parameters: operation.parameters,
						continueOnFail: true,
					};

	await warmUp(node, nodeTypes, operation);

	collectGarbage();
	const baselineRss = process.memoryUsage().rss;
	const heapBefore = process.memoryUsage().heapUsed;
	const items = operation.items(count);
	collectGarbage();
	const itemsBytes = process.memoryUsage().heapUsed - heapBefore;

	const evaluations = countExpressions();
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	const result = await runWorkflow({
		nodes: [node],
		connections: { Start: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
		items,
		nodeTypes,
		credentials: { engagementPlatformApi: { restEndpoint: sandboxUrl, apiKey: DEMO_API_KEY } },
	});
	const wallMs = performance.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	const expressions = evaluations();
	if (result.error) throw result.error;

	const output = result.output('Node');
	collectGarbage();
	// What the run still holds (its output items and n8n's run data) once its garbage is collected.
	const retainedBytes = process.memoryUsage().heapUsed - heapBefore - itemsBytes;
	const figures: RunFigures = {
		wallMs: Math.round(wallMs),
		cpuMs: Math.round((cpu.user + cpu.system) / 1000),
		outputItems: output.length,
		// Ours say `failed` in their words (the reason beside the row); the peer's carry `error`.
		failedItems: output.filter((item) => statusOf(item.json) === 'failed' || item.json.error !== undefined).length,
		baselineRssMb: Math.round(baselineRss / MB),
		itemsMb: +(itemsBytes / MB).toFixed(1),
		peakRssMb: Math.round((process.resourceUsage().maxRSS * 1024) / MB),
		retainedMb: +(retainedBytes / MB).toFixed(1),
		expressionsPerItem: +(expressions / count).toFixed(2),
	};
	process.stdout.write(`${JSON.stringify(figures)}\n`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
