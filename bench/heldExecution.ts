import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

import type { ExecutionFigures } from './concurrentExecution';

/** One execution in a process of its own, held after its warm-up until released. */
export interface HeldExecution {
	/** Resolves once the process is loaded and warmed up, waiting for `release`. */
	ready: Promise<void>;
	release(): void;
	finished: Promise<ExecutionFigures>;
	stop(): void;
}

export function startHeldExecution(execution: number, count: number, sandboxUrl: string): HeldExecution {
	const child = spawn(
		process.execPath,
		[
			'-r',
			'ts-node/register/transpile-only',
			path.join(__dirname, 'concurrentExecution.ts'),
			String(execution),
			String(count),
			sandboxUrl,
		],
		{ cwd: path.resolve(__dirname, '..'), stdio: ['pipe', 'pipe', 'inherit'] },
	);
	const lines: string[] = [];
	const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
	const ready = new Promise<void>((resolve, reject) => {
		createInterface({ input: child.stdout }).on('line', (line) => {
			if (lines.push(line) === 1) resolve();
		});
		void closed.then((code) =>
			reject(new Error(`execution ${execution} exited with code ${code} before it was ready`)),
		);
	});
	const finished = closed.then((code) => {
		if (code !== 0) throw new Error(`execution ${execution} exited with code ${code}`);
		return JSON.parse(lines.at(-1)!) as ExecutionFigures;
	});
	// Whoever awaits only one of them must not leave the other's rejection unhandled.
	ready.catch(() => undefined);
	finished.catch(() => undefined);
	return {
		ready,
		release: () => child.stdin.end('go\n'),
		finished,
		stop: () => {
			if (child.exitCode === null) child.kill('SIGTERM');
		},
	};
}
