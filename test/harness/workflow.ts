/**
 * The building blocks of a harness run, shared by `runWorkflow` (a workflow started by the harness's
 * Start node) and `runWebhook` (a workflow started by a webhook, as n8n's webhook server does):
 * node and credential types, the workflow's nodes, n8n-core's additionalData, and running
 * WorkflowExecute until n8n's `workflowExecuteAfter` hook fires.
 */
import { randomUUID } from 'node:crypto';

import { ExecutionLifecycleHooks, ExternalSecretsProxy, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	ICredentialType,
	IDataObject,
	INode,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from './credentials-helper';
import type { LoadReport } from './package-types';
import { loadPackageCredentialTypes, loadPackageNodeTypes } from './package-types';
import { useRetryRuleOf1x } from './n8nLines';
import type { LogEntry } from './runtime';

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
	/** the id n8n gives a webhook node when it is added (its production URL is /webhook/<webhookId>/<path>) */
	webhookId?: string;
	/** the node's id; default a new one per run. A saved workflow keeps it across runs (n8n's node-scoped stores use it). */
	id?: string;
	/** n8n's Retry On Fail: the node's run is tried again, up to maxTries, when it throws */
	retryOnFail?: { maxTries: number; waitBetweenTries: number };
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

/** Resolves node types: extra types first, then the package's (loaded on first need). */
export class HarnessNodeTypes implements INodeTypes {
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

export class HarnessCredentialTypes {
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

/**
 * The workflow's nodes as n8n stores them. A node without `credentials` gets a reference to every
 * credential type its description declares and `credentials` provides. `index` places the node
 * (position `250 * (index + 1)` unless it has its own).
 */
export function toWorkflowNode(
	harnessNode: HarnessNode,
	index: number,
	nodeTypes: HarnessNodeTypes,
	credentials: Record<string, ICredentialDataDecryptedObject> | undefined,
): INode {
	const nodeType = nodeTypes.getByName(harnessNode.type);
	const typeVersion = harnessNode.typeVersion ?? defaultVersion(nodeType);
	const node: INode = {
		id: harnessNode.id ?? randomUUID(),
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
	if (harnessNode.webhookId !== undefined) node.webhookId = harnessNode.webhookId;
	if (harnessNode.retryOnFail !== undefined) {
		node.retryOnFail = true;
		node.maxTries = harnessNode.retryOnFail.maxTries;
		node.waitBetweenTries = harnessNode.retryOnFail.waitBetweenTries;
	}

	if (harnessNode.credentials) {
		node.credentials = harnessNode.credentials;
	} else {
		const declared = NodeHelpers.getVersionedNodeType(nodeType, typeVersion).description.credentials ?? [];
		const references: INodeCredentials = {};
		for (const { name } of declared) {
			if (credentials?.[name]) references[name] = { id: `harness-${name}`, name: `${name} (test)` };
		}
		if (Object.keys(references).length) node.credentials = references;
	}
	return node;
}

/** The workflow as n8n stores it (what execution lifecycle hooks receive). */
export function workflowBase(args: {
	id: string;
	name: string;
	nodes: INode[];
	connections: IConnections;
	settings: IWorkflowSettings;
	active: boolean;
}): IWorkflowBase {
	const now = new Date();
	return {
		id: args.id,
		name: args.name,
		active: args.active,
		isArchived: false,
		activeVersionId: null,
		createdAt: now,
		updatedAt: now,
		nodes: args.nodes,
		connections: args.connections,
		settings: args.settings,
	};
}

/**
 * Executes a workflow from `runExecutionData` with n8n-core's WorkflowExecute and resolves when n8n's
 * `workflowExecuteAfter` hook fires. A node error (without continueOnFail) does not reject: it
 * resolves with `error` set. Rejects only on setup problems.
 */
export async function executeToEnd(args: {
	workflow: Workflow;
	workflowData: IWorkflowBase;
	runExecutionData: IRunExecutionData;
	credentialsHelper: HarnessCredentialsHelper;
	executionId: string;
	mode: WorkflowExecuteMode;
	settings: IWorkflowSettings;
	logs: LogEntry[];
	/** Retry On Fail by n8n 1.x's rule (./n8nLines.ts). */
	retryRule?: '1.x';
}): Promise<RunResult> {
	const { workflow, workflowData, executionId, mode } = args;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const executionOrder: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executionOrder.push(nodeName);
	});
	let resolveFinished!: (run: IRun) => void;
	const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolveFinished(fullRunData));

	const additionalData = createAdditionalData({
		credentialsHelper: args.credentialsHelper,
		hooks,
		executionId,
		workflowId: String(workflow.id),
		settings: args.settings,
	});

	const workflowExecute = new WorkflowExecute(additionalData, mode, args.runExecutionData);
	if (args.retryRule === '1.x') useRetryRuleOf1x(workflowExecute);
	// The hook is the signal (as in n8n); a rejection before it fires (a setup problem) must not hang.
	const processing = workflowExecute.processRunExecutionData(workflow);
	const run = await Promise.race([finished, Promise.resolve(processing).then(async () => await finished)]);

	const runData = run.data.resultData.runData;
	const error = rehydrateError(run.data.resultData.error);
	return {
		run,
		error,
		logs: args.logs,
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

const HARNESS_BASE_URL = 'http://localhost:5678';

export function createAdditionalData(args: {
	credentialsHelper: HarnessCredentialsHelper;
	hooks?: ExecutionLifecycleHooks;
	executionId?: string;
	workflowId: string;
	settings: IWorkflowSettings;
	/** where n8n's webhook URLs point (getNodeWebhookUrl); default http://localhost:5678 */
	baseUrl?: string;
}): IWorkflowExecuteAdditionalData {
	const baseUrl = args.baseUrl ?? HARNESS_BASE_URL;
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
