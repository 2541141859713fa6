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
 */
import { randomUUID } from 'node:crypto';

import { ExecutionLifecycleHooks, ExternalSecretsProxy, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import { NodeHelpers, Workflow, createRunExecutionData } from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials-helper';
import type { LoadReport } from './package-types';
import { loadPackageCredentialTypes, loadPackageNodeTypes } from './package-types';
import type { LogEntry } from './runtime';
import { ensureRuntime, withLogCapture } from './runtime';
import { START_NODE_NAME, START_NODE_TYPE, createStartNodeType } from './start-node';

export { START_NODE_NAME, START_NODE_TYPE } from './start-node';
export { readPackageInfo } from './package-types';
export type { LogEntry } from './runtime';

export interface HarnessNode {
	name: string;
	type: string;
	parameters: INodeParameters;
	typeVersion?: number;
	credentials?: INodeCredentials;
	continueOnFail?: boolean;
	/** n8n's newer form of continueOnFail ('continueRegularOutput' | 'continueErrorOutput' | 'stopWorkflow') */
	onError?: INode['onError'];
	disabled?: boolean;
	position?: [number, number];
}

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
	/** execution mode; default 'manual' (as n8n's own node test harness) */
	mode?: WorkflowExecuteMode;
	/** workflow settings; default { executionOrder: 'v1' } (what n8n gives new workflows) */
	settings?: IWorkflowSettings;
}

export interface RunResult {
	/** the raw result */
	run: IRun;
	/** the node's items of its last run (empty array if none) */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** the workflow's error, if it failed (also in run.data.resultData.error) */
	error?: Error;
	/** everything logged through n8n's LoggerProxy (and n8n-core's Logger) during the run */
	logs: LogEntry[];
	/** names of the nodes in the order they finished executing (one entry per node run) */
	executionOrder: string[];
}

/** This package's node types, keyed `n8n-nodes-engagement-platform.<name>` and `<name>`. */
export function packageNodeTypes(): Record<string, INodeType | IVersionedNodeType> {
	return loadPackageNodeTypes();
}

/** This package's credential types, keyed by name. */
export function packageCredentialTypes(): Record<string, ICredentialType> {
	return loadPackageCredentialTypes();
}

/** Resolves node types: extra types first, then the package's (loaded on first need). */
class HarnessNodeTypes implements INodeTypes {
	private packageTypes?: Record<string, INodeType | IVersionedNodeType>;
	private readonly report: LoadReport = { missing: [] };

	constructor(private readonly extra: Record<string, INodeType | IVersionedNodeType>) {}

	private fromPackage(): Record<string, INodeType | IVersionedNodeType> {
		this.packageTypes ??= loadPackageNodeTypes(this.report);
		return this.packageTypes;
	}

	find(type: string): INodeType | IVersionedNodeType | undefined {
		return this.extra[type] ?? this.fromPackage()[type];
	}

	getByName(type: string): INodeType | IVersionedNodeType {
		const nodeType = this.find(type);
		if (!nodeType) {
			const known = [...Object.keys(this.extra), ...Object.keys(this.fromPackage())];
			const missing = this.report.missing.length
				? `; listed in package.json but not written yet: ${this.report.missing.join(', ')}`
				: '';
			throw new Error(`test harness: unknown node type "${type}" (known: ${known.join(', ')}${missing})`);
		}
		return nodeType;
	}

	getByNameAndVersion(type: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

class HarnessCredentialTypes {
	private packageTypes?: Record<string, ICredentialType>;

	constructor(private readonly extra: Record<string, ICredentialType>) {}

	private fromPackage(): Record<string, ICredentialType> {
		this.packageTypes ??= loadPackageCredentialTypes();
		return this.packageTypes;
	}

	get(name: string): ICredentialType | undefined {
		return this.extra[name] ?? this.fromPackage()[name];
	}

	known(): string[] {
		return [...new Set([...Object.keys(this.extra), ...Object.keys(this.fromPackage())])];
	}
}

function defaultVersion(nodeType: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in nodeType) return nodeType.currentVersion;
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
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
	const mode = options.mode ?? 'manual';
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
	const nodes: INode[] = [startNode];
	options.nodes.forEach((harnessNode, index) => {
		const nodeType = nodeTypes.getByName(harnessNode.type);
		const typeVersion = harnessNode.typeVersion ?? defaultVersion(nodeType);
		const node: INode = {
			id: randomUUID(),
			name: harnessNode.name,
			type: harnessNode.type,
			typeVersion,
			position: harnessNode.position ?? [250 * (index + 1), 0],
			// n8n fills in parameter defaults (Workflow constructor); copy so the test's object is untouched
			parameters: structuredClone(harnessNode.parameters),
		};
		if (harnessNode.continueOnFail !== undefined) node.continueOnFail = harnessNode.continueOnFail;
		if (harnessNode.onError !== undefined) node.onError = harnessNode.onError;
		if (harnessNode.disabled !== undefined) node.disabled = harnessNode.disabled;

		if (harnessNode.credentials) {
			node.credentials = harnessNode.credentials;
		} else {
			const declared = NodeHelpers.getVersionedNodeType(nodeType, typeVersion).description.credentials ?? [];
			const credentials: INodeCredentials = {};
			for (const { name } of declared) {
				if (options.credentials?.[name]) credentials[name] = { id: `harness-${name}`, name: `${name} (test)` };
			}
			if (Object.keys(credentials).length) node.credentials = credentials;
		}
		nodes.push(node);
	});

	const settings: IWorkflowSettings = options.settings ?? { executionOrder: 'v1' };
	const workflowId = `harness-workflow-${executionId}`;
	const workflow = new Workflow({
		id: workflowId,
		name: 'Test harness workflow',
		nodes,
		connections: options.connections,
		nodeTypes,
		settings,
		active: false,
	});

	const now = new Date();
	const workflowData: IWorkflowBase = {
		id: workflowId,
		name: 'Test harness workflow',
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: now,
		updatedAt: now,
		nodes,
		connections: options.connections,
		settings,
	};

	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const executionOrder: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executionOrder.push(nodeName);
	});
	let resolveFinished!: (run: IRun) => void;
	const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolveFinished(fullRunData));

	const additionalData = createAdditionalData({ credentialsHelper, hooks, executionId, workflowId, settings });

	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});

	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	// The hook is the signal (as in n8n); a rejection before it fires (a setup problem) must not hang.
	const processing = workflowExecute.processRunExecutionData(workflow);
	const run = await Promise.race([finished, Promise.resolve(processing).then(async () => await finished)]);

	const runData = run.data.resultData.runData;
	const error = rehydrateError(run.data.resultData.error);
	return {
		run,
		error,
		logs,
		executionOrder,
		output(nodeName: string, outputIndex = 0): INodeExecutionData[] {
			const taskData = runData[nodeName];
			return taskData?.[taskData.length - 1]?.data?.main?.[outputIndex] ?? [];
		},
	};
}

/**
 * n8n-core stores a failed run's error as a plain copy of the thrown error (`{ ...error, message, stack }`),
 * which is what n8n persists. For tests, rebuild an instance of the n8n-workflow error class it was
 * (by its `name`), so `instanceof NodeOperationError` and friends work; every property is kept.
 */
function rehydrateError(stored: unknown): Error | undefined {
	if (stored === undefined || stored === null) return undefined;
	if (stored instanceof Error) return stored;
	const plain = stored as { name?: unknown };
	const candidate = typeof plain.name === 'string' ? (n8nWorkflow as Record<string, unknown>)[plain.name] : undefined;
	const isErrorClass =
		typeof candidate === 'function' && (candidate as { prototype: unknown }).prototype instanceof Error;
	const prototype = isErrorClass ? (candidate as { prototype: Error }).prototype : Error.prototype;
	return Object.assign(Object.create(prototype) as Error, stored);
}

function createAdditionalData(args: {
	credentialsHelper: HarnessCredentialsHelper;
	hooks: ExecutionLifecycleHooks;
	executionId: string;
	workflowId: string;
	settings: IWorkflowSettings;
}): IWorkflowExecuteAdditionalData {
	const baseUrl = 'http://localhost:5678';
	const notSupported = (what: string) => async () => {
		throw new Error(`test harness: ${what} is not supported`);
	};
	const additionalData: IWorkflowExecuteAdditionalData = {
		credentialsHelper: args.credentialsHelper,
		hooks: args.hooks,
		executionId: args.executionId,
		workflowId: args.workflowId,
		workflowSettings: args.settings,
		executeWorkflow: notSupported('executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: notSupported('running a task runner (Code node)'),
		logAiEvent: () => {},
		externalSecretsProxy: new ExternalSecretsProxy(),
		currentNodeExecutionIndex: 0,
		currentNodeParameters: undefined,
		variables: {},
		restApiUrl: `${baseUrl}/rest`,
		instanceBaseUrl: `${baseUrl}/`,
		formBaseUrl: `${baseUrl}/form`,
		formWaitingBaseUrl: `${baseUrl}/form-waiting`,
		formTestBaseUrl: `${baseUrl}/form-test`,
		webhookBaseUrl: `${baseUrl}/webhook`,
		webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test`,
		mcpBaseUrl: `${baseUrl}/mcp`,
		mcpTestBaseUrl: `${baseUrl}/mcp-test`,
	};
	return additionalData;
}
