/**
 * Runs an n8n workflow in-process with n8n-core's real WorkflowExecute, as the n8n application does,
 * for integration tests, the demo script and benchmarks.
 *
 *   const { output, error, logs } = await runWorkflow({
 *     nodes: [{ name: 'User', type: 'n8n-nodes-engagement-platform.engagementPlatformUser', parameters: {…} }],
 *     connections: { Start: { main: [[{ node: 'User', type: 'main', index: 0 }]] } },
 *     items: [{ external_id: 'u1' }],
 *     credentials: { engagementPlatformApi: { restEndpoint: sandbox.url, apiKey: 'k' } },
 *   });
 *
 * The workflow gets a start node named 'Start' that emits `items`. Node types are this package's (see
 * packageNodeTypes), plus `nodeTypes`. A node without `credentials` gets a reference to every credential
 * type its description declares and `credentials` provides.
 *
 * Webhook triggers: `startWebhookServer` / `runWebhook` (./webhook.ts) serve a trigger on a real HTTP
 * server and take each request through what n8n's webhook server does (body reading and parsing,
 * n8n-core's WebhookContext, the answer, then the execution in WorkflowExecute):
 *
 *   const call = await runWebhook({
 *     trigger: { type: 'n8n-nodes-engagement-platform.engagementPlatformTrigger', parameters: {…} },
 *     request: { body: { dispatch_id: 'd1', status: 'delivered', metadata: {…} } },
 *   });
 *   call.status; call.json(); call.execution?.output('Engagement Platform Trigger');
 */
import { randomUUID } from 'node:crypto';

import type {
	IRun,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	IVersionedNodeType,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials-helper';
import { loadPackageCredentialTypes, loadPackageNodeTypes } from './package-types';
import type { LogEntry } from './runtime';
import { ensureRuntime, withLogCapture } from './runtime';
import { retriedExecutionData } from './n8nLines';
import { START_NODE_NAME, START_NODE_TYPE, createStartNodeType } from './start-node';
import type { HarnessNode, RunResult } from './workflow';
import { HarnessCredentialTypes, HarnessNodeTypes, executeToEnd, toWorkflowNode, workflowBase } from './workflow';

export { START_NODE_NAME } from './start-node';
export { readPackageInfo } from './package-types';
export type { LogEntry } from './runtime';
export type { HarnessNode, RunResult } from './workflow';
export { runWebhook, startWebhookServer } from './webhook';
export type { WebhookCall, WebhookRequest, WebhookServer } from './webhook';

export interface RunOptions {
	/** nodes of the workflow (besides the start node) */
	nodes: HarnessNode[];
	/** may reference the start node by the name 'Start' */
	connections: IConnections;
	/** the items the start node named 'Start' emits (plain objects are wrapped as { json }) */
	items?: INodeExecutionData[] | IDataObject[];
	/** decrypted data per credential type name */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** extra node types (tests may add their own); they take precedence over the package's */
	nodeTypes?: Record<string, INodeType | IVersionedNodeType>;
	/** extra credential types; they take precedence over the package's */
	credentialTypes?: Record<string, ICredentialType>;
	executionId?: string;
	/** the workflow's id; default one per execution. A saved workflow keeps it across runs. */
	workflowId?: string;
	/** execution mode; default 'manual' (as n8n's own node test harness) */
	mode?: WorkflowExecuteMode;
	/** workflow settings; default { executionOrder: 'v1' } (what n8n gives new workflows) */
	settings?: IWorkflowSettings;
	/** Retry On Fail by n8n 1.x's rule (./n8nLines.ts); default n8n-core 2.41's own */
	retryRule?: '1.x';
	/**
	 * A failed execution to run again as n8n's *Executions → Retry* does (./n8nLines.ts): from its saved
	 * data, the failed node run again; the nodes keep the ids they had (give them `id`). Mode 'retry'.
	 */
	retryOf?: IRun;
	/**
	 * With `retryOf`: run it with the workflow as it is now (`nodes`, `connections`), as *Retry with
	 * currently saved workflow* does: n8n puts the current nodes, found by name, in place of the saved
	 * ones on the execution's stack. Without it the saved nodes on the stack run (*Retry with original
	 * workflow*), and `nodes` should be the workflow as it was saved with the execution.
	 */
	retryWithCurrentWorkflow?: boolean;
}

/** This package's node types, keyed `n8n-nodes-engagement-platform.<name>` and `<name>`. */
export function packageNodeTypes(): Record<string, INodeType | IVersionedNodeType> {
	return loadPackageNodeTypes();
}

/** This package's credential types, keyed by name. */
export function packageCredentialTypes(): Record<string, ICredentialType> {
	return loadPackageCredentialTypes();
}

function toExecutionData(items: INodeExecutionData[] | IDataObject[]): INodeExecutionData[] {
	const areExecutionData = items.every(
		(item) => typeof item === 'object' && item !== null && typeof item.json === 'object' && item.json !== null,
	);
	// Fresh item objects: n8n annotates output items (pairedItem), and a test may reuse its array.
	return areExecutionData
		? (items as INodeExecutionData[]).map((item) => ({ ...item }))
		: (items as IDataObject[]).map((json) => ({ json }));
}

let executionCounter = 0;

/**
 * Executes the workflow and resolves when n8n's `workflowExecuteAfter` hook fires. A node error (without
 * continueOnFail) does not reject: it resolves with `error` set and `run.status === 'error'`.
 * Rejects only on setup problems: an unknown node type, or a workflow n8n refuses to start
 * (WorkflowHasIssuesError, e.g. a required parameter left empty).
 * Without `items`, Start emits one empty item.
 */
export async function runWorkflow(options: RunOptions): Promise<RunResult> {
	ensureRuntime();
	const logs: LogEntry[] = [];
	return await withLogCapture(logs, async () => await execute(options, logs));
}

async function execute(options: RunOptions, logs: LogEntry[]): Promise<RunResult> {
	const executionId = options.executionId ?? `harness-${++executionCounter}`;
	const mode = options.mode ?? (options.retryOf ? 'retry' : 'manual');
	const items = toExecutionData(options.items ?? [{ json: {} }]);

	const nodeTypes = new HarnessNodeTypes({
		...(options.nodeTypes ?? {}),
		[START_NODE_TYPE]: createStartNodeType(items),
	});
	const credentialTypes = new HarnessCredentialTypes(options.credentialTypes ?? {});
	const credentialsData: Record<string, ICredentialDataDecryptedObject> = {};
	for (const [type, data] of Object.entries(options.credentials ?? {})) credentialsData[type] = { ...data };
	const credentialsHelper = new HarnessCredentialsHelper(credentialsData, credentialTypes);

	const startNode: INode = {
		id: randomUUID(),
		name: START_NODE_NAME,
		type: START_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodes: INode[] = [
		startNode,
		...options.nodes.map((harnessNode, index) => toWorkflowNode(harnessNode, index, nodeTypes, options.credentials)),
	];

	const settings: IWorkflowSettings = options.settings ?? { executionOrder: 'v1' };
	const workflowId = options.workflowId ?? `harness-workflow-${executionId}`;
	const workflow = new Workflow({
		id: workflowId,
		name: 'Test harness workflow',
		nodes,
		connections: options.connections,
		nodeTypes,
		settings,
		active: false,
	});
	const workflowData = workflowBase({
		id: workflowId,
		name: 'Test harness workflow',
		nodes,
		connections: options.connections,
		settings,
		active: false,
	});

	const runExecutionData = options.retryOf
		? retriedExecutionData(options.retryOf, options.retryWithCurrentWorkflow ? workflow : undefined)
		: createRunExecutionData({
				executionData: {
					nodeExecutionStack: [{ node: startNode, data: { main: [[{ json: {} }]] }, source: null }],
				},
			});

	return await executeToEnd({
		workflow,
		workflowData,
		runExecutionData,
		credentialsHelper,
		executionId,
		mode,
		settings,
		logs,
		retryRule: options.retryRule,
	});
}
