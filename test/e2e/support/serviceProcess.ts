import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';

/**
 * A long-running child process of a test (a server): its output kept in memory and, when a log
 * file is given, written there as it comes; waited on until ready; stopped with SIGTERM, then
 * SIGKILL if it does not exit in time.
 */
export class ServiceProcess {
	private output = '';

	private constructor(
		readonly name: string,
		private readonly child: ChildProcess,
		readonly logFile?: string,
	) {
		if (logFile) writeFileSync(logFile, '');
		const keep = (chunk: Buffer) => {
			const text = chunk.toString();
			this.output += text;
			if (logFile) appendFileSync(logFile, text);
		};
		child.stdout?.on('data', keep);
		child.stderr?.on('data', keep);
	}

	static spawn(
		name: string,
		command: string,
		args: string[],
		options: SpawnOptions & { logFile?: string } = {},
	): ServiceProcess {
		const { logFile, ...spawnOptions } = options;
		const child = spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
		return new ServiceProcess(name, child, logFile);
	}

	/** stdout and stderr so far, interleaved as they came. */
	get log(): string {
		return this.output;
	}

	get exited(): boolean {
		return this.child.exitCode !== null || this.child.signalCode !== null;
	}

	/** Resolves once `ready` is true; fails when the process exits first or the time runs out. */
	async waitUntil(ready: () => boolean | Promise<boolean>, timeoutMs: number, what = 'ready'): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (this.exited)
				throw new Error(
					`${this.name} exited (${this.child.exitCode ?? this.child.signalCode}) before it was ${what}\n${this.output}`,
				);
			try {
				if (await ready()) return;
			} catch {
				// not answering yet
			}
			if (Date.now() > deadline)
				throw new Error(`${this.name} was not ${what} in ${timeoutMs / 1000} s\n${this.output}`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	/** Resolves once an HTTP GET of `url` answers 2xx. */
	async waitForUrl(url: string, timeoutMs: number): Promise<void> {
		await this.waitUntil(async () => (await fetch(url)).ok, timeoutMs, `answering ${url}`);
	}

	/** Sends `signal` (SIGTERM unless the program wants another for a quick clean stop), then SIGKILL after `graceMs`. */
	async stop(graceMs = 10_000, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
		const child = this.child;
		if (this.exited) return;
		await new Promise<void>((resolve) => {
			child.once('exit', () => resolve());
			child.kill(signal);
			setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
		});
	}
}
