import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';

import { EditorBrowser } from './support/editorBrowser';
import { ensureN8nApp, PROJECT_ROOT } from './support/n8nApp';
import {
	PageProblems,
	addOptionalFields,
	brokenText,
	canvasNode,
	clickAction,
	closeNodePanel,
	dismissModals,
	listedActions,
	ndv,
	openNewWorkflow,
	openNodePanel,
	openWorkflow,
	panelProblems,
	screenshotPanel,
	searchNodeCreator,
	waitForNdv,
} from './support/n8nEditor';
import { N8nInstance } from './support/n8nInstance';
import { setUpOwner, signIn } from './support/owner';
import type { NodeOperation, PackageNode } from './support/packageNodes';
import { actionLabel, loadPackageNodes, packageName } from './support/packageNodes';

/**
 * Every node of the package (package.json `n8n.nodes`, read from dist/) in the real n8n editor, in
 * Chromium: found and added through the node panel, and every operation's parameter panel opened.
 * Screenshots go to screenshots/<node name>/added.png and screenshots/<node name>/<operation>.png.
 * All problems of all nodes are collected and reported together at the end.
 */
const PACKAGE_NAME = packageName();
const SCREENSHOTS = path.join(PROJECT_ROOT, 'screenshots');
/** The screenshot of a node that has no `operation` parameter. */
const NO_OPERATION = 'parameters';

const nodes = loadPackageNodes();
/** About 10 s per panel were measured; a node that is not found costs up to 40 s. */
const PANELS_TIMEOUT =
	60_000 + nodes.reduce((total, node) => total + 40_000 + 30_000 * Math.max(1, node.operations.length), 0);
let n8n: N8nInstance | undefined;
let editorUrl: string;
let cookie: { name: string; value: string };
let editor: EditorBrowser | undefined;

beforeAll(async () => {
	n8n = N8nInstance.create(ensureN8nApp());
	editorUrl = await n8n.start();
	await setUpOwner(editorUrl);
	cookie = await signIn(editorUrl);
	editor = await EditorBrowser.launch(editorUrl, cookie);
}, 600_000);

afterAll(async () => {
	if (editor?.blockedHosts.size) console.log(`requests refused (not loopback): ${[...editor.blockedHosts].join(', ')}`);
	await editor?.close();
	await n8n?.dispose();
});

/** Adds the node through the node panel in a new workflow; returns the problems met. */
async function addThroughNodePanel(node: PackageNode): Promise<string[]> {
	return (await addThroughNodePanelUnprefixed(node)).map((problem) => `${node.name} (added): ${problem}`);
}

async function addThroughNodePanelUnprefixed(node: PackageNode): Promise<string[]> {
	const page = await editor!.newPage();
	const pageProblems = new PageProblems(page, PACKAGE_NAME);
	const problems: string[] = [];
	try {
		await openNewWorkflow(page, editorUrl);
		const search = await searchNodeCreator(page, node.displayName);
		problems.push(...search.problems);
		if (!search.item) {
			problems.push(
				`not found in the node panel when searching "${node.displayName}" (listed: ${search.listed.join(', ') || 'nothing'})`,
			);
			await screenshotPanel(page, path.join(SCREENSHOTS, node.name, 'added.png'));
			return problems;
		}
		await search.item.click();
		let chosen: NodeOperation | undefined;
		if (node.operations.length > 0) {
			const actions = await listedActions(page).catch(() => [] as string[]);
			for (const action of actions) {
				if (!action || brokenText(action)) problems.push(`the actions list shows an entry "${action}"`);
			}
			for (const operation of node.operations) {
				if (!actions.includes(actionLabel(operation)))
					problems.push(
						`the actions list lacks "${actionLabel(operation)}" (operation ${operation.value}); it lists: ${actions.join(', ')}`,
					);
			}
			chosen = node.operations.find((operation) => actions.includes(actionLabel(operation)));
			if (!chosen) {
				await screenshotPanel(page, path.join(SCREENSHOTS, node.name, 'added.png'));
				problems.push('could not be added: none of its operations is in the actions list');
				return problems;
			}
			await clickAction(page, actionLabel(chosen));
		} else {
			// A community node without operations opens its "Node details" view first, with an "Add to workflow" button.
			const addButton = page.getByRole('button', { name: /Add to workflow/i }).first();
			if (await addButton.isVisible({ timeout: 5_000 }).catch(() => false)) await addButton.click();
		}
		const onCanvas = await page
			.locator(`[data-test-id="canvas-node"][data-node-type="${node.type}"]`)
			.first()
			.waitFor({ timeout: 10_000 })
			.then(
				() => true,
				() => false,
			);
		if (!onCanvas) problems.push('could not be added: no node of its type is on the canvas');
		await dismissModals(page);
		if (!(await waitForNdv(page))) {
			problems.push('its parameter panel did not open after adding it');
		} else {
			// n8n names a node added through an action by that action (n8n-workflow's makeNodeName).
			const nodeName = chosen ? actionLabel(chosen) : node.defaultName;
			problems.push(...(await panelProblems(page, { nodeName, operation: chosen })));
		}
		await screenshotPanel(page, path.join(SCREENSHOTS, node.name, 'added.png'));
		problems.push(...(await pageProblems.take()));
	} catch (error) {
		problems.push(`adding it failed: ${(error as Error).message.split('\n')[0]}`);
		await page.screenshot({ path: path.join(SCREENSHOTS, node.name, 'added.png') }).catch(() => undefined);
	} finally {
		await page.close();
	}
	return problems;
}

interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, string>;
}

/** One instance of the node per operation (or one instance when it has none), in a grid. */
function operationNodes(node: PackageNode): Array<WorkflowNode & { operation?: NodeOperation }> {
	const variants: Array<NodeOperation | undefined> = node.operations.length ? node.operations : [undefined];
	const names = new Set<string>();
	return variants.map((operation, index) => {
		let name = operation
			? `${node.displayName} ${operation.resource ? `${operation.resource} ` : ''}${operation.name || operation.value}`
			: node.defaultName;
		while (names.has(name)) name += ` ${index}`;
		names.add(name);
		const parameters: Record<string, string> = {};
		if (operation?.resource) parameters.resource = operation.resource;
		if (operation) parameters.operation = operation.value;
		return {
			id: randomUUID(),
			name,
			type: node.type,
			typeVersion: node.version,
			position: gridPosition(index),
			parameters,
			operation,
		};
	});
}

function gridPosition(index: number): [number, number] {
	return [(index % 4) * 320, Math.floor(index / 4) * 240];
}

/** Saves a workflow through n8n's REST API as the signed-in owner; returns its id. */
async function createWorkflow(name: string, workflowNodes: WorkflowNode[]): Promise<string> {
	const response = await fetch(`${editorUrl}/rest/workflows`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Cookie: `${cookie.name}=${cookie.value}` },
		body: JSON.stringify({
			name,
			nodes: workflowNodes.map(({ id, name: nodeName, type, typeVersion, position, parameters }) => ({
				id,
				name: nodeName,
				type,
				typeVersion,
				position,
				parameters,
			})),
			connections: {},
			settings: {},
		}),
	});
	if (!response.ok) throw new Error(`creating the workflow failed: ${response.status} ${await response.text()}`);
	const { data } = (await response.json()) as { data: { id: string } };
	return data.id;
}

/** Opens each operation's instance in the editor; returns the problems met. */
async function openEveryOperation(node: PackageNode): Promise<string[]> {
	const problems: string[] = [];
	const page = await editor!.newPage();
	const pageProblems = new PageProblems(page, PACKAGE_NAME);
	try {
		const workflow = { nodes: operationNodes(node), id: '' };
		workflow.id = await createWorkflow(`${node.displayName}: every operation`, workflow.nodes);
		await openWorkflow(page, editorUrl, workflow.id, workflow.nodes.length);
		for (const workflowNode of workflow.nodes) {
			const label = `${node.name} (${workflowNode.operation?.value ?? NO_OPERATION})`;
			const file = path.join(SCREENSHOTS, node.name, `${workflowNode.operation?.value ?? NO_OPERATION}.png`);
			try {
				if (!(await canvasNode(page, workflowNode.name).isVisible()))
					problems.push(`${label}: the node "${workflowNode.name}" is not on the canvas`);
				if (!(await openNodePanel(page, editorUrl, workflow.id, workflowNode))) {
					problems.push(`${label}: its parameter panel did not open`);
					await screenshotPanel(page, file);
					continue;
				}
				const found = await panelProblems(page, { nodeName: workflowNode.name, operation: workflowNode.operation });
				await screenshotPanel(page, file);
				// Then with every optional field added, for the labels that only show then (not saved).
				if ((await addOptionalFields(page)) > 0) {
					const expanded = await panelProblems(page, {
						nodeName: workflowNode.name,
						operation: workflowNode.operation,
					});
					found.push(
						...expanded
							.filter((problem) => !found.includes(problem))
							.map((problem) => `${problem} (with every optional field added)`),
					);
				}
				found.push(...(await pageProblems.take()));
				problems.push(...found.map((problem) => `${label}: ${problem}`));
				await closeNodePanel(page).catch(async () => {
					await openWorkflow(page, editorUrl, workflow.id, workflow.nodes.length);
				});
			} catch (error) {
				problems.push(`${label}: opening its panel failed: ${(error as Error).message.split('\n')[0]}`);
				await page.screenshot({ path: file }).catch(() => undefined);
				if (await ndv(page).isVisible()) await closeNodePanel(page).catch(() => undefined);
			}
		}
	} catch (error) {
		problems.push(`${node.name}: ${(error as Error).message.split('\n')[0]}`);
	} finally {
		await page.close();
	}
	return problems;
}

describe('the package in the n8n editor', () => {
	test('package.json lists nodes', () => {
		expect(nodes.length).toBeGreaterThan(0);
	});

	// A control: if n8n's markup changed so that the checks no longer see anything, this fails
	// instead of the suite passing blind. A node of this package with an operation it does not
	// have, and a node type the package does not have, must both be reported.
	test('the checks report a broken panel', async () => {
		const [first] = nodes;
		const broken: Array<WorkflowNode & { expected: RegExp }> = [
			{
				id: randomUUID(),
				name: 'Control: unknown node type',
				type: `${PACKAGE_NAME}.notANodeOfThisPackage`,
				typeVersion: 1,
				position: gridPosition(0),
				parameters: {},
				expected: /not currently installed|is unknown/,
			},
		];
		if (first.operations.length) {
			broken.push({
				id: randomUUID(),
				name: 'Control: unknown operation',
				type: first.type,
				typeVersion: first.version,
				position: gridPosition(1),
				parameters: { operation: 'notAnOperationOfThisNode' },
				expected: /is not supported/,
			});
		}
		const workflowId = await createWorkflow('Control: broken panels', broken);
		const page = await editor!.newPage();
		const seen: string[] = [];
		try {
			await openWorkflow(page, editorUrl, workflowId, broken.length);
			for (const node of broken) {
				expect(await openNodePanel(page, editorUrl, workflowId, node)).toBe(true);
				const problems = await panelProblems(page, { nodeName: node.name });
				seen.push(`${node.name}: ${problems.join(' | ')}`);
				expect(problems.some((problem) => node.expected.test(problem))).toBe(true);
				await closeNodePanel(page);
			}
		} finally {
			console.log(`control panels:\n${seen.join('\n')}`);
			await page.close();
		}
	}, 120_000);

	test(
		'every node is found and added through the node panel, and every operation panel shows without problems',
		async () => {
			const problems: string[] = [];
			for (const node of nodes) {
				rmSync(path.join(SCREENSHOTS, node.name), { recursive: true, force: true });
				const started = Date.now();
				problems.push(...(await addThroughNodePanel(node)));
				const added = Date.now();
				problems.push(...(await openEveryOperation(node)));
				console.log(
					`${node.name}: added in ${((added - started) / 1000).toFixed(1)} s, ${node.operations.length || 1} panel(s) in ${((Date.now() - added) / 1000).toFixed(1)} s`,
				);
			}
			if (problems.length)
				console.log(`problems in the editor:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
			expect(problems).toEqual([]);
		},
		PANELS_TIMEOUT,
	);
});
