import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import { DEMO_API_KEY, SandboxClient, startSandbox } from '../sandbox';
import { runWorkflow } from '../test/harness';
import type { HarnessNode } from '../test/harness';
import { HTTP_REQUEST_TYPE } from './httpRequestPeer';
import type { BenchOperation } from './operations';

const WARM_UP_ITEMS = 2000;

/**
 * Runs the node once on 2,000 items against a sandbox in this process, before measuring: n8n
 * is a long-running server, so its code is loaded and optimised by the time large runs come;
 * loading, compiling and first-run work are not the items' cost. The peer gets the same.
 */
export async function warmUp(
	node: HarnessNode,
	nodeTypes: Record<string, INodeType | IVersionedNodeType>,
	operation: BenchOperation,
): Promise<void> {
	const local = await startSandbox();
	try {
		if (operation.seed) await new SandboxClient(local.url).seed(operation.seed(WARM_UP_ITEMS));
		const url = String(node.parameters.url ?? '').replace(/^http:\/\/[^/]+/, local.url);
		await runWorkflow({
			nodes: [{ ...node, parameters: node.type === HTTP_REQUEST_TYPE ? { ...node.parameters, url } : node.parameters }],
			connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
			items: operation.items(WARM_UP_ITEMS),
			nodeTypes,
			credentials: { engagementPlatformApi: { restEndpoint: local.url, apiKey: DEMO_API_KEY } },
		});
	} finally {
		await local.close();
	}
}
