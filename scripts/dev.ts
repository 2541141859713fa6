/**
 * npm run dev: the developer loop, no account needed.
 * - builds, then recompiles on every change (tsc --watch);
 * - starts the sandbox on 127.0.0.1:4010, seeded with demo data;
 * - starts the pinned n8n editor on 127.0.0.1:5678 with this package installed (linked to dist/),
 *   an owner account, the sandbox credential and the example workflows already there;
 * - restarts n8n when dist/ changes, so the editor shows the new node code.
 */
import { execFileSync, spawn } from 'node:child_process';
import { watch } from 'node:fs';
import path from 'node:path';

import { DEMO_API_KEY, startSandbox } from '../sandbox';
import { PROJECT_ROOT, ensureN8nApp } from '../test/e2e/support/n8nApp';
import { N8nInstance } from '../test/e2e/support/n8nInstance';
import { setUpOwner, DEV_OWNER } from '../test/e2e/support/owner';
import { loadExamples } from '../test/support/examples';
import { sandboxCredentials } from '../test/support/sandboxCredentials';

const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 4010);
const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);

async function main(): Promise<void> {
	const app = ensureN8nApp();
	execFileSync('npm', ['run', '-s', 'build'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
	const compiler = spawn(
		process.execPath,
		[require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'],
		{
			cwd: PROJECT_ROOT,
			stdio: 'inherit',
		},
	);

	const sandbox = await startSandbox({ port: SANDBOX_PORT, seed: 'demo' });
	const n8n = N8nInstance.create(app, { link: true, userFolder: path.join(PROJECT_ROOT, '.n8n-dev') });
	await n8n.importCredentials(sandboxCredentials(sandbox.url));
	for (const example of loadExamples()) await n8n.importWorkflow(example.workflow);
	const editor = await n8n.start(N8N_PORT);
	await setUpOwner(editor);

	console.log(`
  n8n editor        ${editor}   (sign in as ${DEV_OWNER.email} / ${DEV_OWNER.password})
  sandbox           ${sandbox.url}   (API key ${DEMO_API_KEY}; admin API under /_admin/)
  credentials       "Engagement Platform (sandbox)" and "Engagement Platform SCIM (sandbox)", already set up
  example workflows ${loadExamples()
		.map((e) => e.workflow.name)
		.join('; ')}

  Edit nodes/ or credentials/: tsc rebuilds dist/ and n8n restarts to load it. Ctrl+C stops everything.
`);

	let restart: NodeJS.Timeout | undefined;
	watch(path.join(PROJECT_ROOT, 'dist'), { recursive: true }, () => {
		clearTimeout(restart);
		restart = setTimeout(() => {
			void (async () => {
				console.log('dist/ changed: restarting n8n');
				await n8n.stop();
				await n8n.start(N8N_PORT);
				console.log(`n8n is back on ${editor}`);
			})();
		}, 1500);
	});

	const stop = async () => {
		compiler.kill();
		await n8n.stop();
		await sandbox.close();
		process.exit(0);
	};
	process.once('SIGINT', () => void stop());
	process.once('SIGTERM', () => void stop());
}

void main();
