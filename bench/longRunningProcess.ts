/**
 * Our node and the bare node in one process, run after run, as an n8n server runs them:
 * `longRunningProcess.ts <items> <rounds> <latency ms> <sandbox url>` prints one JSON line with each
 * round's wall time for both. Each run starts after a full garbage collection (what an idle server's
 * memory reducer does between runs) on an empty sandbox. Run by bench/longRunning.ts with --expose-gc.
 */
import { DEMO_API_KEY, SandboxClient } from '../sandbox';
import { runWorkflow } from '../test/harness';
import type { HarnessNode } from '../test/harness';
import { TRACK_EVENTS } from './operations';
import { noLimits, prepareSandbox } from './prepareSandbox';
import { TRANSPORT_BASELINE_TYPE, transportBaseline } from './transportBaseline';

const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();

const OURS: HarnessNode = {
	name: 'Node',
	type: TRACK_EVENTS.type,
	parameters: TRACK_EVENTS.parameters,
	continueOnFail: true,
};
const BARE: HarnessNode = { name: 'Node', type: TRANSPORT_BASELINE_TYPE, parameters: {} };

async function main(): Promise<void> {
	const [countText, roundsText, latencyText, sandboxUrl] = process.argv.slice(2);
	const client = new SandboxClient(sandboxUrl);
	const open = await noLimits(client);
	const runOnce = async (node: HarnessNode): Promise<number> => {
		await prepareSandbox(client, Number(latencyText), open);
		const items = TRACK_EVENTS.items(Number(countText));
		collectGarbage();
		const started = performance.now();
		const result = await runWorkflow({
			nodes: [node],
			connections: { Start: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
			items,
			nodeTypes: node === BARE ? { [TRANSPORT_BASELINE_TYPE]: transportBaseline } : {},
			credentials: { engagementPlatformApi: { restEndpoint: sandboxUrl, apiKey: DEMO_API_KEY } },
		});
		const wallMs = performance.now() - started;
		if (result.error) throw result.error;
		return Math.round(wallMs);
	};
	const ours: number[] = [];
	const bare: number[] = [];
	for (let round = 0; round < Number(roundsText); round++) {
		ours.push(await runOnce(OURS));
		bare.push(await runOnce(BARE));
	}
	process.stdout.write(`${JSON.stringify({ ours, bare })}\n`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
