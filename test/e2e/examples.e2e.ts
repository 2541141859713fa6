import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { SandboxClient, startSandbox } from '../../sandbox';
import { expectationProblems, loadExamples, prepareSandbox } from '../support/examples';
import { sandboxCredentials } from '../support/sandboxCredentials';
import { ensureN8nApp } from './support/n8nApp';
import { N8nInstance } from './support/n8nInstance';

/**
 * Every workflow in examples/, imported into the real n8n application that loads the built
 * package from .n8n/nodes/node_modules, executed headlessly against the sandbox, and checked
 * against what the example declares.
 */
const examples = loadExamples();
let sandbox: Sandbox;
let client: SandboxClient;
let n8n: N8nInstance;

beforeAll(async () => {
	sandbox = await startSandbox();
	client = new SandboxClient(sandbox.url);
	n8n = N8nInstance.create(ensureN8nApp());
	await n8n.importCredentials(sandboxCredentials(sandbox.url));
	for (const example of examples) await n8n.importWorkflow(example.workflow);
});

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.close();
});

describe('example workflows in the n8n application', () => {
	test.each(examples.map((example) => [example.name, example] as const))('%s does what it declares', async (_, example) => {
		await prepareSandbox(example.expectation, client);

		const run = await n8n.execute(example.workflow.id);

		expect(run.error).toBeUndefined();
		expect(run.raw.code).toBe(0);
		const output = (run.outputs[example.expectation.node] ?? []).map((item) => item.json as IDataObject);
		expect(await expectationProblems(example.expectation, output, client)).toEqual([]);
	});
});
