import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import type { N8nApp } from './n8nApp';
import { PROJECT_ROOT } from './n8nApp';
import { unpackedPackage } from './packedPackage';
import { ServiceProcess } from './serviceProcess';

const PACKAGE_NAME = 'n8n-nodes-engagement-platform';

/** The long-running n8n commands: the editor and webhook server, and in queue mode a worker or the webhook processor. */
export type N8nServerCommand = 'start' | 'worker' | 'webhook';

export interface CliResult {
	/** The exit code; 1 when the process ended by a signal (see `signal`). */
	code: number;
	signal?: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface CredentialImport {
	id: string;
	name: string;
	type: string;
	data: Record<string, string>;
}

/**
 * One n8n application with its own user folder, the built package installed the way a user's
 * n8n has it (`.n8n/nodes/node_modules/<package>`), SQLite, and no telemetry.
 */
export class N8nInstance {
	private server?: ServiceProcess;
	private earlierLogs = '';
	/** Set by `create({ env })`: added to the environment of every n8n process. */
	private extraEnv: NodeJS.ProcessEnv = {};
	port = 0;

	private constructor(
		readonly app: N8nApp,
		readonly userFolder: string,
	) {}

	/**
	 * A fresh user folder with the package as `npm pack` makes it (run `npm run build` first), or, with
	 * `link`, the project's package.json and a link to its `dist/`.
	 * With `package: false` the nodes folder stays empty (the package is installed later, as a user
	 * would: from the Community Nodes screen). `env` adds to (or overrides) the environment of every
	 * n8n process of this instance.
	 */
	static create(
		app: N8nApp,
		options: { link?: boolean; userFolder?: string; package?: boolean; env?: NodeJS.ProcessEnv } = {},
	): N8nInstance {
		const userFolder = options.userFolder ?? mkdtempSync(path.join(os.tmpdir(), 'n8n-ep-'));
		const instance = new N8nInstance(app, userFolder);
		instance.extraEnv = { ...options.env };
		if (options.package === false) return instance;
		const packageFolder = path.join(userFolder, '.n8n/nodes/node_modules', PACKAGE_NAME);
		rmSync(packageFolder, { recursive: true, force: true });
		mkdirSync(path.dirname(packageFolder), { recursive: true });
		if (options.link) {
			// npm run dev: n8n reads the dist/ that tsc --watch rewrites.
			mkdirSync(packageFolder);
			cpSync(path.join(PROJECT_ROOT, 'package.json'), path.join(packageFolder, 'package.json'));
			symlinkSync(path.join(PROJECT_ROOT, 'dist'), path.join(packageFolder, 'dist'));
		} else {
			cpSync(unpackedPackage(), packageFolder, { recursive: true });
		}
		return instance;
	}

	/**
	 * The environment of every n8n process of this instance. Each process gets its own task
	 * broker port: n8n 2.x always starts one (default 5679), and two n8n processes at once
	 * would collide on it.
	 */
	async env(): Promise<NodeJS.ProcessEnv> {
		return {
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			PATH: `${path.dirname(this.app.node)}:${process.env.PATH ?? ''}`,
			HOME: this.userFolder,
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: 'engagement-platform-e2e-key',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PORT: String(this.port || 5678),
			N8N_RUNNERS_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			DB_SQLITE_POOL_SIZE: '2',
			// `n8n execute --rawOutput` prints the run through the logger at info level.
			N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
			NODE_ENV: 'production',
			TZ: 'UTC',
			...this.extraEnv,
		};
	}

	/** Runs one n8n CLI command to its end. */
	async cli(args: string[], timeoutMs = 120_000): Promise<CliResult> {
		const env = await this.env();
		return await new Promise((resolve, reject) => {
			const child = spawn(this.app.node, [this.app.n8n, ...args], { env, cwd: this.userFolder });
			let stdout = '';
			let stderr = '';
			child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
			child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
			const timer = setTimeout(() => {
				child.kill('SIGKILL');
				reject(new Error(`n8n ${args.join(' ')} did not finish in ${timeoutMs / 1000} s\n${stdout}\n${stderr}`));
			}, timeoutMs);
			child.once('exit', (code, signal) => {
				clearTimeout(timer);
				resolve({ code: code ?? 1, signal, stdout, stderr });
			});
		});
	}

	async checkedCli(args: string[], timeoutMs?: number): Promise<CliResult> {
		const result = await this.cli(args, timeoutMs);
		if (result.code !== 0)
			throw new Error(`n8n ${args.join(' ')} exited with ${result.code}\n${result.stdout}\n${result.stderr}`);
		return result;
	}

	async importCredentials(credentials: CredentialImport[]): Promise<void> {
		const file = path.join(this.userFolder, 'credentials.json');
		writeFileSync(file, JSON.stringify(credentials));
		await this.checkedCli(['import:credentials', `--input=${file}`]);
	}

	async importWorkflow(workflow: object): Promise<void> {
		const file = path.join(this.userFolder, `workflow-${Date.now()}.json`);
		writeFileSync(file, JSON.stringify(workflow));
		await this.checkedCli(['import:workflow', `--input=${file}`]);
	}

	/** Executes a saved workflow headlessly and returns n8n's run data. */
	async execute(workflowId: string): Promise<ExecutedRun> {
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], 300_000);
		return parseExecuteOutput(result);
	}

	/** Imports several workflows with one CLI run (n8n takes an array in one file). */
	async importWorkflows(workflows: object[]): Promise<void> {
		const file = path.join(this.userFolder, `workflows-${Date.now()}.json`);
		writeFileSync(file, JSON.stringify(workflows));
		await this.checkedCli(['import:workflow', `--input=${file}`]);
	}

	/**
	 * Starts a long-running n8n command and waits until it is ready: `start` (the editor and
	 * webhook server, the default), or in queue mode `worker` (its health server on `port`) or
	 * `webhook` (the webhook processor). `args` adds flags (`--concurrency=2`); `logFile` keeps
	 * its output in a file too. Returns the URL it serves on.
	 */
	async start(
		port?: number,
		options: { command?: N8nServerCommand; args?: string[]; logFile?: string } = {},
	): Promise<string> {
		const command = options.command ?? 'start';
		this.port = port ?? (await freePort());
		const env = await this.env();
		if (command === 'worker') {
			Object.assign(env, {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(this.port),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			});
		}
		if (this.server) this.earlierLogs += this.server.log;
		this.server = ServiceProcess.spawn(
			`n8n ${command}`,
			this.app.node,
			[this.app.n8n, command, ...(options.args ?? [])],
			{
				env,
				cwd: this.userFolder,
				logFile: options.logFile,
			},
		);
		const url = `http://127.0.0.1:${this.port}`;
		// n8n 1.x answers readiness while its migrations still run: the REST API (of `start` only) answers after them.
		const ready = async () =>
			(await fetch(`${url}/healthz/readiness`)).ok && (command !== 'start' || (await fetch(`${url}/rest/settings`)).ok);
		await this.server.waitUntil(ready, 120_000, `ready at ${url}`);
		return url;
	}

	/** The output of the server process (of every start, when restarted). */
	get log(): string {
		return this.earlierLogs + (this.server?.log ?? '');
	}

	async stop(): Promise<void> {
		await this.server?.stop();
	}

	async dispose(): Promise<void> {
		await this.stop();
		rmSync(this.userFolder, { recursive: true, force: true });
	}
}

export interface ExecutedRun {
	ok: boolean;
	/** Node name → the items of its last run's first output. */
	outputs: Record<string, Array<{ json: Record<string, unknown>; pairedItem?: unknown }>>;
	error?: { message: string; description?: string };
	raw: CliResult;
}

/** `n8n execute --rawOutput` prints the run data as pretty JSON after its log lines. */
function parseExecuteOutput(result: CliResult): ExecutedRun {
	const match = /^\{\n\s+"data"/m.exec(result.stdout);
	const start = match ? match.index : -1;
	let data: {
		data?: {
			resultData?: {
				runData?: Record<string, Array<{ data?: { main?: unknown[][] } }>>;
				error?: { message: string; description?: string };
			};
		};
	} = {};
	if (start >= 0) {
		try {
			data = JSON.parse(result.stdout.slice(start)) as typeof data;
		} catch {
			// not JSON: reported below through `raw`
		}
	}
	const runData = data.data?.resultData?.runData ?? {};
	const outputs: ExecutedRun['outputs'] = {};
	for (const [node, runs] of Object.entries(runData)) {
		outputs[node] = (runs.at(-1)?.data?.main?.[0] ?? []) as ExecutedRun['outputs'][string];
	}
	const error = data.data?.resultData?.error;
	return { ok: result.code === 0 && !error, outputs, error, raw: result };
}

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}
