import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Locator, Page } from 'playwright-core';

import { SELECTORS, ndv, openWorkflow, screenshotPanel, waitForNdv } from './n8nEditor';

/**
 * A marketer's tasks in the n8n editor, driven as a person would: nodes added from the node panel,
 * input fields dragged from the input panel onto parameters, options picked from dropdowns. Every
 * action the driver takes goes through an ActionCounter, so that a task reports how many actions
 * (clicks, drags, fields typed) it took.
 */

export const USER_NODE_TYPE = 'n8n-nodes-engagement-platform.engagementPlatformUser';
/** The credential test/support/sandboxCredentials.ts imports (the only one of its type, so n8n picks it). */
const SANDBOX_CREDENTIAL = {
	engagementPlatformApi: { id: 'epSandboxCredential', name: 'Engagement Platform (sandbox)' },
};
const TRIGGER_NAME = 'When clicking ‘Execute workflow’';

/** What one user action was: each counts 1 (picking from a dropdown is two: open it, pick). */
export type ActionKind = 'click' | 'drag' | 'type' | 'clear';

export interface CountedAction {
	kind: ActionKind;
	what: string;
	/**
	 * The step of the task it belongs to: adding or opening the node, configuring it, previewing what
	 * it would send (and turning the preview off again), running it.
	 */
	phase: Phase;
}

export type Phase = 'add' | 'configure' | 'preview' | 'run';

export class ActionCounter {
	readonly actions: CountedAction[] = [];
	/** Clicks the driver made again because the first landed while the panel re-rendered (not counted). */
	readonly retries: string[] = [];
	phase: Phase = 'add';

	record(kind: ActionKind, what: string): void {
		this.actions.push({ kind, what, phase: this.phase });
	}

	count(phase?: Phase): number {
		return this.actions.filter((action) => !phase || action.phase === phase).length;
	}
}

/** Options of n8n's dropdowns: Element Plus selects (1.x and 2.x) and reka menus (2.x's assignment type). */
const DROPDOWN_OPTION = `[role="menuitem"]:visible, [role="option"]:visible, ${SELECTORS.selectOption}:visible`;

/** The editor of one n8n line, driven through counted actions. */
export class MarketerDriver {
	readonly counter = new ActionCounter();

	constructor(readonly page: Page) {}

	/** The parameter input of a parameter of the open panel (`data-test-id="parameter-input-<name>"`). */
	parameter(name: string): Locator {
		return ndv(this.page).locator(`[data-test-id="parameter-input-${name}"]`).first();
	}

	/** An input field's pill in the input panel's schema view. */
	inputField(name: string): Locator {
		return ndv(this.page)
			.locator(`[data-test-id="ndv-input-panel"] .pill[data-name=${JSON.stringify(name)}]`)
			.first();
	}

	async click(target: Locator, what: string): Promise<void> {
		await target.click();
		this.counter.record('click', what);
	}

	/** Drags an input field onto a target; n8n writes `{{ $json.<field> }}` there (appended to what is there). */
	async drag(field: string, target: Locator, what = `${field} onto ${field}`): Promise<void> {
		await this.inputField(field).dragTo(target);
		this.counter.record('drag', what);
		// The dropped mapping's preview shows below the field a moment later and moves what follows.
		await this.page.waitForTimeout(500);
	}

	async type(target: Locator, text: string, what: string): Promise<void> {
		await target.fill(text);
		this.counter.record('type', what);
	}

	/**
	 * Clicks an "Add …" button and waits for the entry it adds. The field focused last is left first
	 * and the button is clicked once it stopped moving. Under load a click right after a drop can
	 * still land while the dropped field's editor re-renders over the button and add nothing: it is
	 * clicked again, and that retry is the driver's timing, not a person's action (a person clicks
	 * once the panel has settled), so it is kept apart in `counter.retries`.
	 */
	async addEntry(button: Locator, added: Locator, what: string): Promise<void> {
		await this.page.evaluate(() =>
			(
				globalThis as unknown as { document: { activeElement: { blur?: () => void } | null } }
			).document.activeElement?.blur?.(),
		);
		const target = button.filter({ visible: true }).first();
		let last = '';
		for (let check = 0; check < 20; check++) {
			await this.page.waitForTimeout(250);
			const box = JSON.stringify(await target.boundingBox());
			if (box === last) break;
			last = box;
		}
		await this.click(target, what);
		for (let retry = 1; !(await this.shows(added)); retry++) {
			if (retry > 2) throw new Error(`"${what}" added nothing after ${retry} clicks`);
			this.counter.retries.push(what);
			await target.click();
		}
	}

	/** Whether `target` shows within 3 s. */
	private async shows(target: Locator): Promise<boolean> {
		return await target.waitFor({ timeout: 3_000 }).then(
			() => true,
			() => false,
		);
	}

	/** Opens a dropdown and picks the option whose text starts with `option`: two actions. */
	async choose(trigger: Locator, option: string, what: string): Promise<void> {
		await trigger.click();
		this.counter.record('click', `open ${what}`);
		const starts = new RegExp(`^\\s*${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
		await this.page.locator(DROPDOWN_OPTION).filter({ hasText: starts }).first().click();
		this.counter.record('click', `${what}: ${option}`);
		await this.page.waitForTimeout(200);
	}

	/**
	 * Adds a node after the last node of the canvas through the node panel: the + at the node's
	 * output, the search, the node, the action.
	 */
	async addNodeFromPanel(search: string, displayName: string, action: string): Promise<void> {
		this.counter.phase = 'add';
		await this.click(this.page.locator('[data-test-id="canvas-handle-plus"]').last(), 'the + after the input node');
		const creator = this.page.locator(SELECTORS.nodeCreator);
		await this.type(creator.locator(SELECTORS.nodeCreatorSearch), search, `search "${search}"`);
		await this.click(
			creator.locator(SELECTORS.nodeCreatorItemName).getByText(displayName, { exact: true }).first(),
			displayName,
		);
		await this.click(
			creator.locator(SELECTORS.nodeCreatorItemName).getByText(action, { exact: true }).first(),
			`action "${action}"`,
		);
		if (!(await waitForNdv(this.page))) throw new Error(`the panel of ${displayName} did not open after adding it`);
		this.counter.phase = 'configure';
	}

	/** Opens a node already on the canvas (imported with the workflow) by double-clicking it. */
	async openNode(name: string): Promise<void> {
		this.counter.phase = 'add';
		await this.page.locator(`${SELECTORS.canvasNode}[data-node-name=${JSON.stringify(name)}]`).dblclick();
		this.counter.record('click', `open ${name}`);
		if (!(await waitForNdv(this.page))) throw new Error(`the panel of ${name} did not open`);
		this.counter.phase = 'configure';
	}

	/**
	 * The preview, counted apart: Options → Add Option → Preview (Send Nothing) (two actions: open,
	 * pick), then the panel's Execute step (one). Returns whether the switch showed on once added.
	 * The answer is read by the caller; `previewOff` ends the phase.
	 */
	async preview(): Promise<boolean> {
		this.counter.phase = 'preview';
		// The Options collection's "Add Option" dropdown (2.x: collection-parameter-add; 1.x: .add-option).
		const addOption = ndv(this.page)
			.locator(SELECTORS.select)
			.filter({ has: this.page.locator('input[placeholder="Add Option"]') })
			.first();
		await this.choose(addOption, 'Preview (Send Nothing)', 'Add Option');
		const toggle = this.parameter('preview');
		await toggle.waitFor();
		const shownOn = await switchIsOn(toggle);
		await this.click(ndv(this.page).locator('[data-test-id="node-execute-button"]').first(), 'Execute step');
		return shownOn;
	}

	/** Turns Preview off with its switch (one action); returns whether it shows off then. */
	async previewOff(): Promise<boolean> {
		this.counter.phase = 'preview';
		const toggle = this.parameter('preview');
		await this.click(toggle.locator('.el-switch, [role="switch"]').first(), 'Preview off');
		await this.page.waitForTimeout(300);
		return !(await switchIsOn(toggle));
	}

	/** The texts of the hints the open panel's output pane shows (n8n 2.x: `node-hint` callouts), within 15 s. */
	async outputHints(): Promise<string[]> {
		const hints = ndv(this.page).locator('[data-test-id="node-hint"]');
		await hints
			.first()
			.waitFor({ timeout: 15_000 })
			.catch(() => undefined);
		return (await hints.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
	}

	/** Closes the panel (2.x: its close button; 1.x: "Back to canvas") and executes the workflow. */
	async run(): Promise<void> {
		this.counter.phase = 'run';
		await this.closePanel();
		const outcome = await this.execute();
		if (outcome !== 'success') throw new Error(`the workflow run ${outcome.replace(/\s+/g, ' ')}`);
	}

	/** Closes the open panel (2.x: its close button; 1.x: "Back to canvas"): one action. */
	async closePanel(): Promise<void> {
		const close = this.page.locator(`${SELECTORS.ndvClose}, [data-test-id="back-to-canvas"]`).filter({ visible: true });
		await this.click(close.first(), 'close the panel');
		await ndv(this.page).waitFor({ state: 'hidden' });
	}

	/**
	 * Clicks "Execute workflow" (one action) and waits for the toast it brings: 'success', or
	 * 'failed: <the error toast's text>'.
	 */
	async execute(): Promise<string> {
		// Toasts of the previous task's run may still show: only one shown after this click tells.
		await this.page
			.locator(SELECTORS.notification)
			.evaluateAll((toasts) =>
				toasts.forEach((toast) =>
					(toast as unknown as { setAttribute(name: string, value: string): void }).setAttribute('data-e2e-seen', ''),
				),
			);
		const fresh = this.page.locator(`${SELECTORS.notification}:not([data-e2e-seen])`);
		await this.click(this.page.locator('[data-test-id="execute-workflow-button"]'), 'Execute workflow');
		const outcome = await Promise.race([
			fresh
				.filter({ hasText: /Workflow executed successfully/i })
				.first()
				.waitFor({ timeout: 60_000 })
				.then(() => 'success'),
			fresh
				.filter({ has: this.page.locator('.el-notification--error') })
				.first()
				.waitFor({ timeout: 60_000 })
				.then(async () => `failed: ${(await fresh.first().innerText()).trim()}`),
		]);
		return outcome;
	}

	/**
	 * What the open panel says about a parameter: the text of its item (a hint shows under the
	 * field) and the description its label's (?) shows as a tooltip. Read by hovering, as a person
	 * reads it: not a counted action.
	 */
	async helpOf(name: string): Promise<string> {
		const item = this.parameter(name).locator('xpath=ancestor::*[@data-test-id="parameter-item"][1]');
		const texts = [await item.innerText()];
		const label = item.locator('label').first();
		await label.hover();
		const icon = label.locator('[class*="infoIcon"]').first();
		if (await icon.count()) {
			await icon.hover({ force: true });
			const tooltip = this.page.locator(SELECTORS.tooltip).last();
			if (await this.shows(tooltip)) texts.push(await tooltip.innerText());
		}
		await this.page.mouse.move(5, 5);
		return texts.join('\n').replace(/[ \t]+/g, ' ');
	}

	/** The node's name as the open panel's title shows it; not an action. */
	async panelTitle(): Promise<string> {
		return (
			await ndv(this.page)
				.locator(SELECTORS.ndvTitle)
				.first()
				.innerText({ timeout: 5_000 })
				.catch(() => '')
		).trim();
	}

	/** The node version the open panel states (its Settings tab: "<node> node version 2 (Latest)"); not an action. */
	async shownNodeVersion(): Promise<number | undefined> {
		const text = await ndv(this.page).locator('[data-test-id="node-version"]').first().textContent();
		const match = /node version (\d+)/i.exec(text ?? '');
		return match ? Number(match[1]) : undefined;
	}

	async screenshotPanel(file: string): Promise<void> {
		await screenshotPanel(this.page, file);
	}

	async screenshotCanvas(file: string): Promise<void> {
		mkdirSync(path.dirname(file), { recursive: true });
		await this.page.mouse.move(5, 5);
		await this.page.screenshot({ path: file });
	}
}

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}

export interface TaskWorkflow {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }>;
	settings: Record<string, unknown>;
	pinData: Record<string, Array<{ json: Record<string, unknown> }>>;
	active: false;
}

/**
 * A manual trigger and a Code node whose output, the rows as text, is pinned (what a sheet, a shop
 * or a CSV gives), in the workflow's timezone. With `node`, a node of this package follows it,
 * connected and given the sandbox credential.
 */
export function taskWorkflow(options: {
	name: string;
	inputName: string;
	rows: Array<Record<string, string>>;
	timezone: string;
	node?: {
		name: string;
		type: string;
		typeVersion: number;
		parameters: Record<string, unknown>;
		/** Another credential than the sandbox's. */
		credentials?: WorkflowNode['credentials'];
	};
}): TaskWorkflow {
	const nodes: WorkflowNode[] = [
		{
			id: randomUUID(),
			name: TRIGGER_NAME,
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: randomUUID(),
			name: options.inputName,
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [220, 0],
			parameters: { jsCode: `return ${JSON.stringify(options.rows)};` },
		},
	];
	const connections: TaskWorkflow['connections'] = {
		[TRIGGER_NAME]: { main: [[{ node: options.inputName, type: 'main', index: 0 }]] },
	};
	if (options.node) {
		nodes.push({
			id: randomUUID(),
			...options.node,
			position: [440, 0],
			credentials: options.node.credentials ?? SANDBOX_CREDENTIAL,
		});
		connections[options.inputName] = { main: [[{ node: options.node.name, type: 'main', index: 0 }]] };
	}
	return {
		name: options.name,
		nodes,
		connections,
		settings: { timezone: options.timezone, executionOrder: 'v1' },
		pinData: { [options.inputName]: options.rows.map((json) => ({ json })) },
		active: false,
	};
}

/**
 * Saves a workflow through n8n's REST API as the signed-in owner and opens it in the editor; returns
 * its id. When the editor is open already, the workflow is opened inside it (the router follows the
 * address, as on the browser's back button) instead of loading the editor again: a load costs
 * 15-20 s on a busy 2-core machine, an in-app change about 1 s. The driver is not counted for it.
 */
export async function createAndOpenWorkflow(
	page: Page,
	editorUrl: string,
	cookie: { name: string; value: string },
	workflow: TaskWorkflow,
): Promise<string> {
	const response = await fetch(`${editorUrl}/rest/workflows`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Cookie: `${cookie.name}=${cookie.value}` },
		body: JSON.stringify(workflow),
	});
	if (!response.ok) throw new Error(`creating the workflow failed: ${response.status} ${await response.text()}`);
	const { data } = (await response.json()) as { data: { id: string } };
	// openWorkflow closes what n8n opens by itself on a load. Not after an in-app change: a modal of
	// the editor may show for a moment there, and reading one that closed meanwhile waits 15 s.
	if (!(await openInEditor(page, data.id, workflow)))
		await openWorkflow(page, editorUrl, data.id, workflow.nodes.length);
	return data.id;
}

/** Opens a workflow in the editor already loaded; false when the page shows no editor or it did not open. */
async function openInEditor(page: Page, workflowId: string, workflow: TaskWorkflow): Promise<boolean> {
	if ((await page.locator(SELECTORS.canvas).count()) === 0) return false;
	// Through the workflows list: n8n 1.x keeps its canvas when only the workflow id of the route changes.
	if (!(await routeTo(page, '/home/workflows', () => page.url().includes('/home/')))) return false;
	// n8n 2.x, straight on, sometimes shows the workflow just left again (its last changes still
	// being saved, it seems); a second on the list was enough in the runs tried here.
	await page.waitForTimeout(1_000);
	// The canvas shows this workflow when its nodes' ids (random per workflow, on vue-flow's node) are shown.
	const ids = workflow.nodes.map((node) => `.vue-flow__node[data-id="${node.id}"]`).join(', ');
	return await routeTo(
		page,
		`/workflow/${workflowId}`,
		async () => (await page.locator(ids).count()) === workflow.nodes.length,
	);
}

/** Pushes a path to the editor's router and waits until `arrived`; answers "Leave without saving" if asked. */
async function routeTo(page: Page, to: string, arrived: () => boolean | Promise<boolean>): Promise<boolean> {
	const pushed = await page.evaluate((path) => {
		const app = (
			globalThis as unknown as { document: { querySelector(selector: string): unknown } }
		).document.querySelector('#app') as {
			__vue_app__?: { config: { globalProperties: { $router?: { push(path: string): Promise<unknown> } } } };
		};
		const router = app?.__vue_app__?.config.globalProperties.$router;
		// Not awaited: a guard may ask about the changes first.
		void router?.push(path).catch(() => undefined);
		return Boolean(router);
	}, to);
	if (!pushed) return false;
	const leave = page.getByRole('button', { name: /Leave without saving/i }).filter({ visible: true });
	for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
		// The previous task's workflow has unsaved changes (n8n 1.x asks); it is not needed.
		if (await leave.count())
			await leave
				.first()
				.click({ timeout: 2_000 })
				.catch(() => undefined);
		if (await arrived()) return true;
		await page.waitForTimeout(150);
	}
	return false;
}

/** Whether a boolean parameter's switch shows on. */
export async function switchIsOn(parameter: Locator): Promise<boolean> {
	return await parameter.evaluate((element) => {
		const el = element as unknown as {
			querySelector(selector: string): { className: string; getAttribute(name: string): string | null } | null;
		};
		const control = el.querySelector('.el-switch');
		const input = el.querySelector('input[role="switch"], input[type="checkbox"]');
		return Boolean(control?.className.includes('is-checked') || input?.getAttribute('aria-checked') === 'true');
	});
}

/** One row of the action-count table. */
export interface TaskCount {
	task: string;
	add: number;
	configure: number;
	run: number;
	/** Adding, configuring and running: the task without its preview. */
	total: number;
	/** Previewing what the run would send and turning the preview off again, counted apart. */
	preview: number;
	seconds: number;
	actions: CountedAction[];
	/** Driver retries, not counted (see MarketerDriver.addEntry). */
	retries: string[];
}

export function countRow(task: string, counter: ActionCounter, seconds: number): TaskCount {
	return {
		task,
		add: counter.count('add'),
		configure: counter.count('configure'),
		run: counter.count('run'),
		total: counter.count() - counter.count('preview'),
		preview: counter.count('preview'),
		seconds: Math.round(seconds * 10) / 10,
		actions: counter.actions,
		retries: counter.retries,
	};
}

/** The table printed per n8n line: each task's actions. */
export function countTable(n8nVersion: string, rows: TaskCount[]): string {
	const lines = [
		`Actions per task in n8n ${n8nVersion} (clicks, drags, fields typed or cleared: 1 each)`,
		['task', 'actions'].join(' | '),
	];
	for (const row of rows)
		lines.push(
			[
				row.task,
				`${row.total} (${row.add} add + ${row.configure} configure + ${row.run} run), preview ${row.preview} more`,
			].join(' | '),
		);
	return lines.join('\n');
}

export function writeCounts(file: string, n8nVersion: string, rows: TaskCount[]): void {
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify({ n8nVersion, tasks: rows }, null, '\t')}\n`);
}
