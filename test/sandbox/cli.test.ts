import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { SandboxClient } from '../../sandbox';

describe('sandbox: command line', () => {
	let child: ChildProcess | undefined;

	afterEach(() => {
		child?.kill('SIGTERM');
	});

	it('prints SANDBOX_READY <url> once listening, serves the demo seed, and stops on SIGTERM', async () => {
		const root = join(__dirname, '..', '..');
		child = spawn(
			process.execPath,
			[require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'sandbox/cli.ts', '--port', '0'],
			{
				cwd: root,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		const running = child;
		const url = await new Promise<string>((resolve, reject) => {
			let output = '';
			running.stdout?.on('data', (chunk: Buffer) => {
				output += chunk.toString();
				const ready = /^SANDBOX_READY (\S+)$/m.exec(output);
				if (ready) resolve(ready[1]);
			});
			running.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${output}`)));
		});
		expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect((await new SandboxClient(url).stats()).profiles).toBeGreaterThan(0);

		const exited = new Promise<number | null>((resolve) => running.once('exit', resolve));
		running.kill('SIGTERM');
		expect(await exited).toBe(0);
		child = undefined;
	});
});
