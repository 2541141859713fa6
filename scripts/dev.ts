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

import { DEMO_API_KEY, SandboxClient, startSandbox } from '../sandbox';
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

	const started = Date.now();
	const step = (text: string) => console.log(`[dev ${((Date.now() - started) / 1000).toFixed(1)} s] ${text}`);

	const sandbox = await startSandbox({ port: SANDBOX_PORT, seed: 'demo' });
	const groups = await subscriptionGroupLines(sandbox.url);
	step(`sandbox ready on ${sandbox.url}; its subscription groups (put an ID in Subscription Group ID):\n${groups}`);
	const n8n = N8nInstance.create(app, { link: true, userFolder: path.join(PROJECT_ROOT, '.n8n-dev') });
	const credentials = sandboxCredentials(sandbox.url);
	step(`importing ${credentials.length} credentials into n8n (each import starts n8n's CLI: a few seconds)`);
	await n8n.importCredentials(credentials);
	const examples = loadExamples();
	step(`importing ${examples.length} example workflows, one by one`);
	for (const [index, example] of examples.entries()) {
		await n8n.importWorkflow(example.workflow);
		step(`  ${index + 1}/${examples.length} imported: ${example.workflow.name}`);
	}
	step(`starting the n8n editor on port ${N8N_PORT}`);
	const editor = await n8n.start(N8N_PORT);
	await setUpOwner(editor);
	step(`ready: ${credentials.length} credentials and ${examples.length} example workflows imported`);

	console.log(`
  n8n editor        ${editor}   (sign in as ${DEV_OWNER.email} / ${DEV_OWNER.password})
  sandbox           ${sandbox.url}   (API key ${DEMO_API_KEY}; admin API under /_admin/)
  credentials       "Engagement Platform (sandbox)" and "Engagement Platform SCIM (sandbox)", already set up
  example workflows ${examples.length}: ${examples.map((e) => e.workflow.name).join('; ')}
  subscription groups
${groups}

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

/** The sandbox's subscription groups as the dashboard would list them: name and ID, one a line. */
async function subscriptionGroupLines(sandboxUrl: string): Promise<string> {
	const { subscriptionGroupNames } = await new SandboxClient(sandboxUrl).state();
	return Object.entries(subscriptionGroupNames)
		.map(([id, name]) => `    ${name.padEnd(20)} ${id}`)
		.join('\n');
}

void main();
