import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { N8nApp } from './n8nApp';
import type { CredentialImport } from './n8nInstance';
import { N8nInstance, freePort } from './n8nInstance';
import type { PostgresServer } from './postgresServer';
import { startPostgres } from './postgresServer';
import type { RedisServer } from './redisServer';
import { startRedis } from './redisServer';

/**
 * n8n in queue mode on loopback, the way a scaled deployment runs it: Postgres and Redis, a main
 * (editor, REST API, enqueues executions), two workers (run them) and a webhook processor (serves
 * production webhooks and enqueues what they start). Each process has its own port, log file and
 * user folder with the built package in its nodes folder, as each machine of a real deployment
 * has its own ~/.n8n: a worker without the package could not run our nodes, and the test would show it.
 */
export class QueueModeCluster {
	/** Logs (kept after stop) and the services' data (removed). */
	readonly folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-mode-'));
	readonly logs = path.join(this.folder, 'logs');
	private postgres?: PostgresServer;
	private redis?: RedisServer;
	main?: N8nInstance;
	readonly workers: N8nInstance[] = [];
	webhookProcessor?: N8nInstance;
	mainUrl = '';
	webhookUrl = '';

	constructor(private readonly app: N8nApp) {
		mkdirSync(this.logs);
	}

	/**
	 * Starts everything: the services, then the imports (their CLI run makes the database's tables),
	 * then the main, then the workers and the webhook processor together. `workerConcurrency` is
	 * each worker's `--concurrency` (n8n's default is 10).
	 */
	async start(
		imports: { credentials: CredentialImport[]; workflows: object[] },
		workerConcurrency = 10,
	): Promise<void> {
		this.postgres = await startPostgres(this.logFile('postgres'));
		this.redis = await startRedis(this.logFile('redis'), mkdtempSync(path.join(this.folder, 'redis-')));

		const mainPort = await freePort();
		const webhookPort = await freePort();
		this.mainUrl = `http://127.0.0.1:${mainPort}`;
		this.webhookUrl = `http://127.0.0.1:${webhookPort}`;

		this.main = this.n8n('main');
		if (imports.credentials.length > 0) await this.main.importCredentials(imports.credentials);
		if (imports.workflows.length > 0) await this.main.importWorkflows(imports.workflows);
		await this.main.start(mainPort, { logFile: this.logFile('main') });

		this.workers.push(this.n8n('worker-1'), this.n8n('worker-2'));
		this.webhookProcessor = this.n8n('webhook');
		const started = await Promise.allSettled([
			...this.workers.map(
				async (worker, index) =>
					await worker.start(undefined, {
						command: 'worker',
						args: [`--concurrency=${workerConcurrency}`],
						logFile: this.logFile(`worker-${index + 1}`),
					}),
			),
			this.webhookProcessor.start(webhookPort, { command: 'webhook', logFile: this.logFile('webhook') }),
		]);
		const failure = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
		if (failure) throw failure.reason;
	}

	/** Stops every process that was started, n8n first, then the services; safe after a failed start. */
	async stop(): Promise<void> {
		const n8nProcesses = [this.main, ...this.workers, this.webhookProcessor].filter(
			(instance): instance is N8nInstance => instance !== undefined,
		);
		await Promise.allSettled(n8nProcesses.map(async (instance) => await instance.dispose()));
		await Promise.allSettled([this.redis?.process.stop(), this.postgres?.stop()]);
		for (const entry of readdirSync(this.folder)) {
			if (entry !== 'logs') rmSync(path.join(this.folder, entry), { recursive: true, force: true });
		}
	}

	/** What Postgres logged so far (every statement that failed, with its error). */
	get postgresLog(): string {
		return this.postgres?.process.log ?? '';
	}

	private logFile(name: string): string {
		return path.join(this.logs, `${name}.log`);
	}

	private n8n(role: string): N8nInstance {
		if (!this.postgres || !this.redis) throw new Error('start Postgres and Redis first');
		return N8nInstance.create(this.app, {
			env: {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: '127.0.0.1',
				QUEUE_BULL_REDIS_PORT: String(this.redis.port),
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: '127.0.0.1',
				DB_POSTGRESDB_PORT: String(this.postgres.port),
				DB_POSTGRESDB_DATABASE: this.postgres.database,
				DB_POSTGRESDB_USER: this.postgres.user,
				DB_POSTGRESDB_PASSWORD: '',
				N8N_WEBHOOK_URL: `${this.webhookUrl}/`,
				N8N_EVENTBUS_LOGWRITER_LOGBASENAME: `n8nEventLog-${role}`,
				// Workers log each execution they run and our nodes' summary line at info.
				N8N_LOG_LEVEL: 'info',
			},
		});
	}
}
