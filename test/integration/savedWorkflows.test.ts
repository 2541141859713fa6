import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import type { WorkflowFile } from '../harness/runExampleWorkflow';
import { runExampleWorkflow } from '../harness/runExampleWorkflow';
import type { ExampleExpectation } from '../support/examples';
import { expectationProblems, prepareSandbox } from '../support/examples';
import { sandboxCredentialsByType } from '../support/sandboxCredentials';
import { useSandbox } from './sandboxLifecycle';

/**
 * Workflows saved with 1.0.0 keep working: the example workflows exactly as 1.0.0 shipped them
 * (test/fixtures/saved-1.0/, copied from that release; their nodes are version 1) do what their
 * examples declare today (examples/<name>.expect.json), with the parameter names 1.0 saved.
 */
const { sandbox, client } = useSandbox();

const SAVED = path.resolve(__dirname, '../fixtures/saved-1.0');
const EXAMPLES = path.resolve(__dirname, '../../examples');

const saved = readdirSync(SAVED)
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({
		name: file.replace(/\.json$/, ''),
		workflow: JSON.parse(readFileSync(path.join(SAVED, file), 'utf8')) as WorkflowFile,
		expectation: JSON.parse(
			readFileSync(path.join(EXAMPLES, file.replace(/\.json$/, '.expect.json')), 'utf8'),
		) as ExampleExpectation,
	}));

describe("1.0.0's example workflows, as saved then", () => {
	test('are all here, and every node of ours in them is version 1', () => {
		expect(saved.length).toBeGreaterThanOrEqual(14);
		for (const { workflow } of saved)
			for (const node of workflow.nodes.filter((entry) => entry.type.includes('engagementPlatform')))
				expect(node.typeVersion).toBe(1);
	});

	test.each(saved.map((entry) => [entry.name, entry] as const))('%s does what it declares', async (_, entry) => {
		await prepareSandbox(entry.expectation, client());
		const result = await runExampleWorkflow(entry.workflow, sandboxCredentialsByType(sandbox().url));
		expect(result.error).toBeUndefined();
		const output = result.output(entry.expectation.node).map((item) => item.json);
		expect(await expectationProblems(entry.expectation, output, client())).toEqual([]);
	});
});
