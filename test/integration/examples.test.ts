import { runExampleWorkflow } from '../harness/runExampleWorkflow';
import { expectationProblems, loadExamples, prepareSandbox } from '../support/examples';
import { sandboxCredentialsByType } from '../support/sandboxCredentials';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client } = useSandbox();

describe('example workflows, run in-process (the end-to-end suite runs them in n8n)', () => {
	test.each(loadExamples().map((example) => [example.name, example] as const))(
		'%s does what it declares',
		async (_, example) => {
			await prepareSandbox(example.expectation, client());

			const result = await runExampleWorkflow(example.workflow, sandboxCredentialsByType(sandbox().url));

			expect(result.error).toBeUndefined();
			const output = result.output(example.expectation.node).map((item) => item.json);
			expect(await expectationProblems(example.expectation, output, client())).toEqual([]);
		},
	);
});
