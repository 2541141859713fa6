import { lintAsN8nNode } from './support/n8nNodeLint';

/**
 * n8n's own lint on what ships: the package's source (nodes, credentials, icons, package.json) passes
 * `n8n-node lint` with the default configuration as `n8n-node new` writes it, in strict mode (which
 * package.json declares), with no error and no warning. n8n asks verified community nodes to use this
 * tool. CONTRIBUTING.md ("n8n's own lint") says why the repository itself keeps its own configuration.
 */
test('the shipped source passes n8n-node lint with its default configuration: 0 errors, 0 warnings', () => {
	const lint = lintAsN8nNode();

	expect(lint.findings).toEqual([]);
	expect({ errors: lint.errors, warnings: lint.warnings }).toEqual({ errors: 0, warnings: 0 });
	expect(lint.cli.output).not.toMatch(/Strict mode violation/);
	expect(lint.cli.code).toBe(0);
});
