/**
 * Nothing n8n 3.0's announced breaking changes remove is used by the package, its examples or what
 * its documents tell users to write: the `$getPairedItem` expression helper, the Function, Function
 * Item, Item Lists, LangChain Code and AI Transform nodes, the Execute Workflow node's "Run once for
 * each item" mode, version 1 of the AI Agent node, and the Code node's `$evaluateExpression()`.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

const REMOVED_NODE_TYPES = new Set([
	'n8n-nodes-base.function',
	'n8n-nodes-base.functionItem',
	'n8n-nodes-base.itemLists',
	'n8n-nodes-base.aiTransform',
	'@n8n/n8n-nodes-langchain.code',
]);
const REMOVED_HELPERS = /\$getPairedItem\b|\$evaluateExpression\s*\(/;

function filesUnder(folder: string, extensions: string[]): string[] {
	return readdirSync(path.join(ROOT, folder)).flatMap((entry) => {
		const relative = path.join(folder, entry);
		if (statSync(path.join(ROOT, relative)).isDirectory()) return filesUnder(relative, extensions);
		return extensions.some((extension) => entry.endsWith(extension)) ? [relative] : [];
	});
}

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}

const workflows = filesUnder('examples', ['.json'])
	.filter((file) => !file.endsWith('.expect.json'))
	.map((file) => ({
		file,
		nodes: (JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as { nodes: WorkflowNode[] }).nodes,
	}));

test('no removed expression helper in the nodes, the credentials, the examples or the documents', () => {
	const files = [
		...filesUnder('nodes', ['.ts']),
		...filesUnder('credentials', ['.ts']),
		...filesUnder('examples', ['.json']),
		...filesUnder('docs', ['.md']),
		'README.md',
		'CONTRIBUTING.md',
	];
	expect(files.length).toBeGreaterThan(50);
	expect(files.filter((file) => REMOVED_HELPERS.test(readFileSync(path.join(ROOT, file), 'utf8')))).toEqual([]);
});

test('no example uses a node or mode n8n 3.0 removes', () => {
	expect(workflows.length).toBeGreaterThan(10);
	const removed = workflows.flatMap(({ file, nodes }) =>
		nodes
			.filter(
				(node) =>
					REMOVED_NODE_TYPES.has(node.type) ||
					(node.type === 'n8n-nodes-base.executeWorkflow' && node.parameters.mode === 'each') ||
					(node.type === '@n8n/n8n-nodes-langchain.agent' && node.typeVersion < 1.1),
			)
			.map((node) => `${file}: ${node.name} (${node.type} ${node.typeVersion})`),
	);
	expect(removed).toEqual([]);
});
