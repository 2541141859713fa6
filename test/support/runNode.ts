/**
 * Runs one of our nodes on items in n8n's engine, as the workflow Start → node. The node carries the
 * name n8n gives it when it is added (see ./nodeTypes), so its output is read by that name:
 *
 *   const result = await runNode(TRANSLATION_NODE, { items, parameters, endpoint, apiKey });
 *   result.output(TRANSLATION);
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import type { RunResult } from '../harness';
import { runWorkflow } from '../harness';
import { nodeName } from './nodeTypes';

interface NodeSettings {
	items?: IDataObject[] | INodeExecutionData[];
	parameters: INodeParameters;
	continueOnFail?: boolean;
	/** n8n's On Error setting, e.g. 'continueErrorOutput' (Continue (using error output)) */
	onError?: INode['onError'];
	/** The workflow's timezone (Workflow Settings → Timezone); n8n's default when not given. */
	timezone?: string;
	/** The saved workflow's id, the same run after run; one per execution when not given. */
	workflowId?: string;
	/** The node's id in the saved workflow, the same run after run; a new one per execution when not given. */
	nodeId?: string;
}

/** The REST credential by its endpoint and key, or any credentials by type name (the SCIM one, several). */
export type NodeRun = NodeSettings &
	({ endpoint: string; apiKey: string } | { credentials: Record<string, ICredentialDataDecryptedObject> });

export async function runNode(type: string, run: NodeRun): Promise<RunResult> {
	const name = nodeName(type);
	const { items, parameters, continueOnFail, onError, timezone, workflowId, nodeId } = run;
	return await runWorkflow({
		workflowId,
		nodes: [{ name, type, parameters, continueOnFail, onError, ...(nodeId ? { id: nodeId } : {}) }],
		connections: { Start: { main: [[{ node: name, type: 'main', index: 0 }]] } },
		items,
		...(timezone ? { settings: { executionOrder: 'v1', timezone } } : {}),
		credentials:
			'credentials' in run
				? run.credentials
				: { engagementPlatformApi: { restEndpoint: run.endpoint, apiKey: run.apiKey } },
	});
}
