/**
 * Process-wide setup n8n-core needs before a workflow can run outside the n8n application, and the log
 * capture. Done once, on the first run.
 *
 * - `@n8n/backend-common` Logger: n8n-core asks the DI container for it (node contexts' `this.logger`,
 *   OutboundHttp, the execution-context service). The real one builds winston console transports and,
 *   when constructed, re-points n8n-workflow's LoggerProxy at itself. We register a capturing logger
 *   instead, and point LoggerProxy at the same one.
 * - InstanceSettings: every node execution context reads it from the container. The real class reads and
 *   writes `~/.n8n/config` (creating an encryption key) when constructed; we register a stub with fixed
 *   ids and a folder path under the OS temp dir (never created by the harness), so tests never touch
 *   the home directory.
 * - n8n's deduplication store (`DataDeduplicationService`, which the n8n application sets up with its
 *   database): an in-memory store of n8n's own interface (./deduplicationStore).
 * - SSRF protection (`@n8n/config` SsrfProtectionConfig, read by `@n8n/backend-network` OutboundHttp,
 *   which serves `this.helpers.httpRequest*`): forced off, because the sandbox listens on loopback,
 *   which the default policy blocks when `N8N_SSRF_PROTECTION_ENABLED` is set in the environment.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

import { Logger } from '@n8n/backend-common';
import { SsrfProtectionConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import { InstanceSettings } from 'n8n-core';
import { LoggerProxy } from 'n8n-workflow';
import type { Logger as WorkflowLogger, LogMetadata } from 'n8n-workflow';

import { deduplicationStore } from './deduplicationStore';

export interface LogEntry {
	level: string;
	message: string;
	meta?: unknown;
}

/** Where log lines of the current async context go (one sink per run). */
const currentSink = new AsyncLocalStorage<LogEntry[]>();
/** Sinks of the runs in progress: log lines emitted outside any run's async context go to all of them. */
const activeSinks = new Set<LogEntry[]>();

const echoLevel = process.env.N8N_HARNESS_LOG; // e.g. N8N_HARNESS_LOG=debug prints captured lines
const LEVELS = ['error', 'warn', 'info', 'debug'];

function record(level: string, message: string, meta?: unknown): void {
	const entry: LogEntry = meta === undefined ? { level, message } : { level, message, meta };
	const sink = currentSink.getStore();
	if (sink) sink.push(entry);
	else for (const s of activeSinks) s.push(entry);
	if (echoLevel && LEVELS.indexOf(level) <= LEVELS.indexOf(echoLevel)) {
		// eslint-disable-next-line no-console
		console.log(`[n8n ${level}] ${message}`, meta ?? '');
	}
}

class CapturingLogger implements WorkflowLogger {
	error(message: string, meta?: LogMetadata) {
		record('error', message, meta);
	}
	warn(message: string, meta?: LogMetadata) {
		record('warn', message, meta);
	}
	info(message: string, meta?: LogMetadata) {
		record('info', message, meta);
	}
	debug(message: string, meta?: LogMetadata) {
		record('debug', message, meta);
	}
	scoped() {
		return this;
	}
}

const capturingLogger = new CapturingLogger();

/** Never created by the harness: n8n-core only derives paths from it (e.g. binary-data storage) unless a
 * node reads or writes files. */
const n8nFolder = path.join(os.tmpdir(), 'n8n-harness');

function instanceSettingsStub(): InstanceSettings {
	const instanceId = randomBytes(32).toString('hex');
	const stub = {
		n8nFolder,
		staticCacheDir: path.join(n8nFolder, 'cache'),
		customExtensionDir: path.join(n8nFolder, 'custom'),
		nodesDownloadDir: path.join(n8nFolder, 'nodes'),
		nodeDefinitionsDir: path.join(n8nFolder, 'node-definitions'),
		instanceId,
		derivedInstanceId: instanceId,
		hmacSignatureSecret: randomBytes(32).toString('hex'),
		encryptionKey: randomBytes(24).toString('base64'),
		instanceType: 'main',
		instanceRole: 'leader',
		hostId: 'main-harness',
		isMultiMain: false,
		isSingleMain: true,
		isWorker: false,
		isLeader: true,
		isFollower: false,
		isDocker: false,
		canSeedDeploymentState: false,
		enforceSettingsFilePermissions: { isSet: false, enforce: false },
		tunnelSubdomain: undefined,
		fsStorageMigrated: true,
		markAsLeader() {},
		markAsFollower() {},
		setMultiMainEnabled() {},
		setMultiMainLicensed() {},
		markFsStorageMigrated() {},
		update() {},
		async initialize() {},
	};
	return stub as unknown as InstanceSettings;
}

let initialized = false;

export function ensureRuntime(): void {
	if (!initialized) {
		Container.set(Logger, capturingLogger as unknown as Logger);
		Container.set(InstanceSettings, instanceSettingsStub());
		// n8n's deduplication store (this.helpers.checkProcessedAndRecord ...), in memory.
		deduplicationStore();
		initialized = true;
	}
	// Re-applied every run: something else in the process (a real Logger, another harness) may have
	// re-pointed the proxy or the config since.
	LoggerProxy.init(capturingLogger);
	Container.get(SsrfProtectionConfig).enabled = false;
}

/** Runs `fn` with every log line of its async context captured into `sink`. */
export async function withLogCapture<T>(sink: LogEntry[], fn: () => Promise<T>): Promise<T> {
	activeSinks.add(sink);
	try {
		return await currentSink.run(sink, fn);
	} finally {
		activeSinks.delete(sink);
	}
}
