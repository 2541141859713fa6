import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { SandboxClient, startSandbox } from '../../sandbox';
import { expectationProblems, loadExamples, prepareSandbox } from '../support/examples';
import { sandboxCredentials } from '../support/sandboxCredentials';
import { N8N_APPS, ensureN8nApp, pinnedN8nVersion } from './support/n8nApp';
import { N8nInstance } from './support/n8nInstance';

/**
 * Every workflow in examples/, imported into the real n8n application that loads the package as
 * `npm pack` makes it (this version's tarball, unpacked into .n8n/nodes/node_modules), executed headlessly against the sandbox, and checked
 * against what the example declares: on every n8n line the project supports (2.x and 1.x).
 */
const examples = loadExamples();
let sandbox: Sandbox;
let client: SandboxClient;

beforeAll(async () => {
	sandbox = await startSandbox();
	client = new SandboxClient(sandbox.url);
});

afterAll(async () => {
	await sandbox?.close();
});

describe.each(N8N_APPS.map((appFolder) => [pinnedN8nVersion(appFolder), appFolder] as const))(
	'example workflows in n8n %s',
	(version, appFolder) => {
		let n8n: N8nInstance | undefined;
		let started = 0;

		beforeAll(async () => {
			const app = ensureN8nApp(appFolder);
			started = Date.now();
			n8n = N8nInstance.create(app);
			await n8n.importCredentials(sandboxCredentials(sandbox.url));
			for (const example of examples) await n8n.importWorkflow(example.workflow);
		}, 600_000);

		afterAll(async () => {
			await n8n?.dispose();
			if (started)
				console.log(
					`examples in n8n ${version}: ${((Date.now() - started) / 1000).toFixed(1)} s (imports and ${examples.length} runs)`,
				);
		});

		test.each(examples.map((example) => [example.name, example] as const))(
			'%s does what it declares',
			async (_, example) => {
				await prepareSandbox(example.expectation, client);

				const run = await n8n!.execute(example.workflow.id);

				expect(run.error).toBeUndefined();
				// On failure, how n8n's CLI ended and the end of what it wrote.
				expect({
					code: run.raw.code,
					signal: run.raw.signal ?? null,
					stderr: run.raw.code === 0 ? '' : run.raw.stderr.slice(-2000),
				}).toEqual({ code: 0, signal: null, stderr: '' });
				const output = (run.outputs[example.expectation.node] ?? []).map((item) => item.json as IDataObject);
				expect(await expectationProblems(example.expectation, output, client)).toEqual([]);
			},
		);
	},
);
