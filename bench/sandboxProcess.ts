import { spawn } from 'node:child_process';
import path from 'node:path';

export interface SandboxProcess {
	url: string;
	stop(): void;
}

/** Starts the sandbox in its own process, so the benchmark process measures only itself; bodies unlogged unless asked. */
export async function startSandboxProcess(
	latencyMs: number,
	options: { logBodies?: boolean } = {},
): Promise<SandboxProcess> {
	const root = path.resolve(__dirname, '..');
	const child = spawn(
		process.execPath,
		[
			'-r',
			'ts-node/register/transpile-only',
			'sandbox/cli.ts',
			'--port',
			'0',
			'--seed',
			'empty',
			...(options.logBodies ? [] : ['--no-log-bodies']),
			'--latency',
			String(latencyMs),
		],
		{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const url = await new Promise<string>((resolve, reject) => {
		let seen = '';
		child.stdout.on('data', (chunk: Buffer) => {
			seen += chunk.toString();
			const match = /SANDBOX_READY (\S+)/.exec(seen);
			if (match) resolve(match[1]);
		});
		child.once('exit', (code) => reject(new Error(`the sandbox exited with code ${code} before it was ready`)));
	});
	return { url, stop: () => child.kill('SIGTERM') };
}
