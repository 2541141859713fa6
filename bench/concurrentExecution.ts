/**
 * One of several executions started together, in a process of its own:
 * `concurrentExecution.ts <execution number> <items> <sandbox url>`. Warms up, prints a first line,
 * waits for a line on stdin (sent to every execution at once), tracks its events, and prints its
 * figures as one JSON line.
 * Run by bench/concurrency.ts.
 */
import { createInterface } from 'node:readline';

import { DEMO_API_KEY } from '../sandbox';
import { runWorkflow } from '../test/harness';
import type { HarnessNode } from '../test/harness';
import { statusOf } from '../test/support/nodeWords';
import { concurrentItems, TRACKED } from './concurrentItems';
import { TRACK_EVENTS } from './operations';
import { warmUp } from './warmUp';

export interface ExecutionFigures {
	startedAt: number;
	endedAt: number;
	outputItems: number;
	/** Items the node answered with Track Event's success word (`tracked`). */
	trackedItems: number;
}

async function main(): Promise<void> {
	const [executionText, countText, sandboxUrl] = process.argv.slice(2);
	const items = concurrentItems(Number(executionText), Number(countText));
	const node: HarnessNode = {
		name: 'Node',
		type: TRACK_EVENTS.type,
		parameters: TRACK_EVENTS.parameters,
		continueOnFail: true,
	};
	await warmUp(node, {}, TRACK_EVENTS);

	process.stdout.write('ready\n');
	await released();

	const startedAt = Date.now();
	const result = await runWorkflow({
		nodes: [node],
		connections: { Start: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
		items,
		credentials: { engagementPlatformApi: { restEndpoint: sandboxUrl, apiKey: DEMO_API_KEY } },
	});
	const endedAt = Date.now();
	if (result.error) throw result.error;

	const output = result.output('Node');
	const figures: ExecutionFigures = {
		startedAt,
		endedAt,
		outputItems: output.length,
		// The node's words are in its field beside the row (engagementPlatform).
		trackedItems: output.filter((item) => statusOf(item.json) === TRACKED).length,
	};
	process.stdout.write(`${JSON.stringify(figures)}\n`);
}

function released(): Promise<void> {
	const lines = createInterface({ input: process.stdin });
	return new Promise((resolve) =>
		lines.once('line', () => {
			lines.close();
			resolve();
		}),
	);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
