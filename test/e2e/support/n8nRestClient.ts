import { createRequire } from 'node:module';
import path from 'node:path';

import type { N8nApp } from './n8nApp';
import { setUpOwner, signIn } from './owner';

export interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
	workflowId: string;
}

type NodeItems = Array<{ json: Record<string, unknown> }>;

/** An execution hint a node added (IExecuteFunctions.addExecutionHints): n8n keeps it in the run data. */
interface ExecutionHint {
	message: string;
	type?: string;
	location?: string;
}

export interface FinishedExecution {
	id: string;
	status: string;
	mode: string;
	/** Node name → the items of its last run's first output. */
	outputs: Record<string, NodeItems>;
	/** Node name → the hints of its last run (runData[node][i].hints), empty when it added none. */
	hints: Record<string, ExecutionHint[]>;
	error?: { message: string; description?: string };
}

type RunData = Record<string, Array<{ data?: { main?: NodeItems[] }; hints?: ExecutionHint[] }>>;

/** n8n's REST API as the owner uses it from the editor: run workflows, activate them, read executions. */
export class N8nRestClient {
	private constructor(
		private readonly baseUrl: string,
		private readonly cookie: string,
		/** n8n stores run data with `flatted`; read it with the copy n8n itself uses. */
		private readonly flatted: { parse(text: string): unknown },
	) {}

	/** Sets up the owner if needed and signs in. */
	static async asOwner(app: N8nApp, baseUrl: string): Promise<N8nRestClient> {
		await setUpOwner(baseUrl);
		const session = await signIn(baseUrl);
		const flatted = createRequire(path.join(app.folder, 'node_modules/n8n/package.json'))('flatted') as {
			parse(text: string): unknown;
		};
		return new N8nRestClient(baseUrl, `${session.name}=${session.value}`, flatted);
	}

	async get<T>(route: string): Promise<T> {
		return await this.call<T>('GET', route);
	}

	async post<T>(route: string, body: unknown): Promise<T> {
		return await this.call<T>('POST', route, body);
	}

	/** Starts a saved workflow from its manual trigger, as "Execute workflow" does; returns the execution id. */
	async runManually(workflowId: string, triggerName: string): Promise<string> {
		const result = await this.post<{ executionId?: string }>(`/workflows/${workflowId}/run`, {
			triggerToStartFrom: { name: triggerName },
		});
		if (!result.executionId) throw new Error(`running ${workflowId} started no execution: ${JSON.stringify(result)}`);
		return result.executionId;
	}

	/** Publishes the saved workflow's current version (what the editor's Publish button does). */
	async activate(workflowId: string): Promise<void> {
		const { versionId } = await this.get<{ versionId: string }>(`/workflows/${workflowId}`);
		await this.post(`/workflows/${workflowId}/activate`, { versionId });
	}

	/**
	 * A workflow's executions (up to 100), one per id: n8n lists an execution that is just finishing
	 * twice, once as running (from memory) and once as stored.
	 */
	async executions(workflowId: string): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const { results } = await this.get<{ results: ExecutionSummary[] }>(`/executions?filter=${filter}&limit=100`);
		return [...new Map(results.map((execution) => [execution.id, execution])).values()];
	}

	/**
	 * The finished execution of a workflow that is not one of `known` (ids listed before it was
	 * started, e.g. from the editor's Execute button): waits until n8n lists it and it has finished.
	 */
	async nextExecution(workflowId: string, known: string[], timeoutMs = 30_000): Promise<FinishedExecution> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const fresh = (await this.executions(workflowId)).filter((execution) => !known.includes(execution.id));
			if (fresh.length > 0) {
				const newest = fresh.reduce((a, b) => (Number(b.id) > Number(a.id) ? b : a));
				return await this.finishedExecution(newest.id, Math.max(deadline - Date.now(), 5_000));
			}
			if (Date.now() > deadline) throw new Error(`no new execution of ${workflowId} in ${timeoutMs / 1000} s`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	/** Waits until the execution has finished (any way) and returns its outcome and outputs. */
	async finishedExecution(id: string, timeoutMs = 60_000): Promise<FinishedExecution> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.get<{ status: string; mode: string; data: string }>(`/executions/${id}`);
			if (!['new', 'running', 'waiting'].includes(execution.status)) {
				const data = this.flatted.parse(execution.data) as {
					resultData: { runData: RunData; error?: FinishedExecution['error'] };
				};
				const outputs: FinishedExecution['outputs'] = {};
				const hints: FinishedExecution['hints'] = {};
				for (const [node, runs] of Object.entries(data.resultData.runData)) {
					outputs[node] = runs.at(-1)?.data?.main?.[0] ?? [];
					hints[node] = runs.at(-1)?.hints ?? [];
				}
				return { id, status: execution.status, mode: execution.mode, outputs, hints, error: data.resultData.error };
			}
			if (Date.now() > deadline)
				throw new Error(`execution ${id} did not finish in ${timeoutMs / 1000} s: ${execution.status}`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	private async call<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}/rest${route}`, {
			method,
			headers: { Cookie: this.cookie, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`${method} /rest${route}: ${response.status} ${await response.text()}`);
		return ((await response.json()) as { data: T }).data;
	}
}
