import { mkdirSync } from 'node:fs';
import path from 'node:path';

import type { Locator, Page } from 'playwright-core';

import { VIEWPORT } from './editorBrowser';
import type { NodeOperation } from './packageNodes';

/**
 * What the suite relies on in n8n's editor (2.41). The `data-test-id` values are the ones n8n's own
 * Playwright tests use (packages/testing/playwright in n8n-io/n8n); keep them in this one place.
 */
export const SELECTORS = {
	canvas: '[data-test-id="canvas"]',
	canvasNode: '[data-test-id="canvas-node"]',
	nodeCreatorPlusButton: '[data-test-id="node-creator-plus-button"]',
	nodeCreator: '[data-test-id="node-creator"]',
	nodeCreatorSearch: '[data-test-id="node-creator-search-bar"]',
	nodeCreatorItem: '[data-test-id="item-iterator-item"]',
	nodeCreatorItemName: '[data-test-id="node-creator-item-name"]',
	nodeCreatorItemDescription: '[data-test-id="node-creator-item-description"]',
	ndv: '[data-test-id="ndv"]',
	ndvTitle: '[data-test-id="node-title-container"]',
	ndvClose: '[data-test-id="ndv-close-button"]',
	ndvParameters: '[data-test-id="node-parameters"]',
	parameterIssues: '[data-test-id="parameter-issues"]',
	operationInput: '[data-test-id="parameter-input-operation"] input',
	inputLabel: 'label.n8n-input-label',
	labelOptions: '[data-test-id="parameter-options-container"], [data-test-id$="-parameter-input-options-container"]',
	collectionAdd: '[data-test-id="collection-parameter-add"]',
	fixedCollectionAdd: '[data-test-id="fixed-collection-add"]',
	select: '.el-select',
	selectOption: '.el-select-dropdown__item',
	tooltip: '[data-reka-popper-content-wrapper]:visible, [role="tooltip"]:visible',
	notification: '.el-notification',
	/** Modals, drawers and surveys n8n may open on its own; the NDV is a native <dialog> and not one of them. */
	modal: '.el-dialog, .el-drawer, [data-test-id$="-modal"]',
	modalClose: '.el-dialog__headerbtn, .el-drawer__close-btn, [aria-label="Close"], [data-test-id="close-button"]',
} as const;

/** Texts n8n shows in a node's panel when the node or a parameter is broken. */
const ERROR_TEXTS: RegExp[] = [
	/not currently installed/i,
	/Install this node to use it/i,
	/type \(.*\) is unknown/i,
	/could not be loaded/i,
	/could not load/i,
	/Problem loading/i,
	/Error fetching options/i,
	/invalid structure/i,
	/There was a problem/i,
];

/** Texts that mean a label or value was built from something missing. */
const BROKEN_TEXTS: RegExp[] = [/\bundefined\b/, /\[object Object\]/, /\bNaN\b/];

/** The DOM as seen inside `evaluate` callbacks (this project compiles without the DOM library). */
interface DomElement {
	textContent: string | null;
	innerText: string;
	value?: string;
	placeholder?: string;
	scrollHeight: number;
	clientHeight: number;
	naturalWidth?: number;
	complete?: boolean;
	getAttribute(name: string): string | null;
	closest(selector: string): DomElement | null;
	matches(selector: string): boolean;
	querySelectorAll(selector: string): ArrayLike<DomElement>;
	cloneNode(deep: boolean): DomElement;
	remove(): void;
}

export function brokenText(text: string): string | undefined {
	return BROKEN_TEXTS.find((pattern) => pattern.test(text))?.source;
}

/** Closes modals, drawers and surveys that n8n opens by itself (none is expected, but a new n8n may add one). */
export async function dismissModals(page: Page): Promise<string[]> {
	const closed: string[] = [];
	for (let round = 0; round < 3; round++) {
		const modals = page.locator(SELECTORS.modal).filter({ visible: true });
		const count = await modals.count();
		if (count === 0) break;
		for (let index = 0; index < count; index++) {
			const modal = modals.nth(index);
			const label = (
				(await modal.getAttribute('data-test-id').catch(() => null)) ?? (await modal.innerText().catch(() => ''))
			).slice(0, 60);
			const close = modal.locator(SELECTORS.modalClose).filter({ visible: true }).first();
			if (await close.count()) await close.click({ timeout: 2_000 }).catch(() => undefined);
			else await page.keyboard.press('Escape');
			closed.push(label.replace(/\s+/g, ' ').trim());
		}
		await page.waitForTimeout(300);
	}
	return closed;
}

/** Problems the page reports while a node is on screen: failed requests for node data, uncaught errors, error toasts. */
export class PageProblems {
	private problems: string[] = [];

	constructor(
		private readonly page: Page,
		packageName: string,
	) {
		page.on('pageerror', (error) =>
			this.problems.push(`uncaught error in the editor: ${error.message.split('\n')[0]}`),
		);
		page.on('response', (response) => {
			const url = response.url();
			const aboutNodes =
				url.includes(packageName) ||
				/\/(types|icons)\/|\/rest\/(dynamic-node-parameters|node-types|community-node-types)/.test(url);
			if (response.status() >= 400 && aboutNodes)
				this.problems.push(`HTTP ${response.status()} for ${url.replace(/^https?:\/\/[^/]+/, '')}`);
		});
	}

	/** Error toasts on screen now, then everything recorded since the last call. */
	async take(): Promise<string[]> {
		const toasts = await this.page
			.locator(SELECTORS.notification)
			.filter({ visible: true })
			.evaluateAll((elements) =>
				elements.map((element) => {
					const el = element as unknown as DomElement;
					const isError = el.querySelectorAll('.el-notification--error, .el-notification--warning').length > 0;
					return { isError, text: el.innerText.replace(/\s+/g, ' ').trim() };
				}),
			);
		for (const toast of toasts) {
			if (toast.isError || ERROR_TEXTS.some((pattern) => pattern.test(toast.text)))
				this.problems.push(`error notification: ${toast.text}`);
		}
		const taken = [...new Set(this.problems)];
		this.problems = [];
		return taken;
	}
}

export async function openNewWorkflow(page: Page, editorUrl: string): Promise<void> {
	await page.goto(`${editorUrl}/workflow/new`);
	await page.locator(SELECTORS.nodeCreatorPlusButton).waitFor();
	await dismissModals(page);
}

export async function openWorkflow(page: Page, editorUrl: string, workflowId: string, nodes: number): Promise<void> {
	await page.goto(`${editorUrl}/workflow/${workflowId}`);
	await page
		.locator(SELECTORS.canvasNode)
		.nth(nodes - 1)
		.waitFor();
	await dismissModals(page);
}

export function canvasNode(page: Page, nodeName: string): Locator {
	return page.locator(`${SELECTORS.canvasNode}[data-node-name=${JSON.stringify(nodeName)}]`);
}

export function ndv(page: Page): Locator {
	return page.locator(SELECTORS.ndv);
}

/**
 * Waits until the NDV is open and shows either its parameters or n8n's notice that the node cannot be
 * shown, and the requests the parameters started (options, icons) are answered.
 */
export async function waitForNdv(page: Page, timeout = 15_000): Promise<boolean> {
	try {
		const panel = ndv(page);
		const errorText = new RegExp(ERROR_TEXTS.map((pattern) => pattern.source).join('|'), 'i');
		await panel.locator(SELECTORS.ndvParameters).or(panel.getByText(errorText)).first().waitFor({ timeout });
		await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
		await page.waitForTimeout(300);
		return true;
	} catch {
		return false;
	}
}

/** Opens a node's NDV by double-clicking it on the canvas, else through its deep link `/workflow/<id>/<nodeId>`. */
export async function openNodePanel(
	page: Page,
	editorUrl: string,
	workflowId: string,
	node: { id: string; name: string },
): Promise<boolean> {
	await canvasNode(page, node.name)
		.dblclick()
		.catch(() => undefined);
	if (await waitForNdv(page, 5_000)) return true;
	await page.goto(`${editorUrl}/workflow/${workflowId}/${node.id}`);
	await dismissModals(page);
	return await waitForNdv(page);
}

export async function closeNodePanel(page: Page): Promise<void> {
	await ndv(page).locator(SELECTORS.ndvClose).click();
	await ndv(page).waitFor({ state: 'hidden' });
}

/** Whether every visible <img> under `scope` loaded (a node icon that fails shows as a broken image). */
async function brokenImages(scope: Locator): Promise<string[]> {
	return await scope.locator('img').evaluateAll((images) =>
		images
			.map((image) => image as unknown as DomElement)
			.filter((image) => image.complete && image.naturalWidth === 0)
			.map((image) => image.getAttribute('src') ?? '(no src)'),
	);
}

/**
 * The node creator: search a display name, return the matching entry (undefined when the search
 * does not list it), with what the list shows for it.
 */
export async function searchNodeCreator(
	page: Page,
	displayName: string,
): Promise<{ item?: Locator; listed: string[]; problems: string[] }> {
	await page.locator(SELECTORS.nodeCreatorPlusButton).click();
	const creator = page.locator(SELECTORS.nodeCreator);
	await creator.waitFor();
	await creator.locator(SELECTORS.nodeCreatorSearch).fill(displayName);
	const item = creator
		.locator(SELECTORS.nodeCreatorItem)
		.filter({ has: page.locator(SELECTORS.nodeCreatorItemName).getByText(displayName, { exact: true }) })
		.first();
	const found = await item.waitFor({ timeout: 10_000 }).then(
		() => true,
		() => false,
	);
	const listed = await creator.locator(SELECTORS.nodeCreatorItemName).allInnerTexts();
	if (!found) return { listed, problems: [] };
	const problems: string[] = [];
	const description = (
		await item
			.locator(SELECTORS.nodeCreatorItemDescription)
			.innerText()
			.catch(() => '')
	).trim();
	if (!description) problems.push('node panel entry shows no description');
	else if (brokenText(description)) problems.push(`node panel entry description reads "${description}"`);
	for (const src of await brokenImages(item)) problems.push(`node panel entry icon did not load: ${src}`);
	return { item, listed, problems };
}

/** The action entries the node creator lists after a node with operations was picked. */
export async function listedActions(page: Page): Promise<string[]> {
	const creator = page.locator(SELECTORS.nodeCreator);
	await creator.locator(SELECTORS.nodeCreatorItemName).first().waitFor();
	await page.waitForTimeout(300);
	return (await creator.locator(SELECTORS.nodeCreatorItemName).allInnerTexts()).map((text) => text.trim());
}

export async function clickAction(page: Page, label: string): Promise<void> {
	await page
		.locator(SELECTORS.nodeCreator)
		.locator(SELECTORS.nodeCreatorItemName)
		.getByText(label, { exact: true })
		.first()
		.click();
}

/** The label shown for the text of a parameter, without the Fixed/Expression toggle and other controls beside it. */
async function parameterLabels(parameters: Locator): Promise<Array<{ text: string; html: string }>> {
	return await parameters.locator(SELECTORS.inputLabel).evaluateAll(
		(labels, optionsSelector) =>
			labels.map((label) => {
				const clone = (label as unknown as DomElement).cloneNode(true);
				const controls = clone.querySelectorAll(optionsSelector);
				for (let index = 0; index < controls.length; index++) controls[index].remove();
				const forAttribute = (label as unknown as DomElement).getAttribute('for');
				return {
					text: (clone.textContent ?? '').replace(/\s+/g, ' ').trim(),
					html: forAttribute ? `for="${forAttribute}"` : '(no for)',
				};
			}),
		SELECTORS.labelOptions,
	);
}

/** The texts of a parameter's issue icons, read from their tooltips. */
async function parameterIssues(page: Page, parameters: Locator): Promise<Array<{ label: string; issues: string[] }>> {
	const icons = parameters.locator(SELECTORS.parameterIssues).filter({ visible: true });
	const found: Array<{ label: string; issues: string[] }> = [];
	const count = await icons.count();
	for (let index = 0; index < count; index++) {
		const icon = icons.nth(index);
		const label = await icon
			.evaluate((element, selector) => {
				const item = (element as unknown as DomElement).closest('.parameter-item, [data-test-id="parameter-item"]');
				const labelElement = item?.querySelectorAll(selector)[0];
				return (labelElement?.textContent ?? '').replace(/\s+/g, ' ').trim();
			}, SELECTORS.inputLabel)
			.catch(() => '');
		await icon.hover();
		const tooltip = page.locator(SELECTORS.tooltip).filter({ hasText: 'Issues' }).last();
		const text = await tooltip.innerText({ timeout: 3_000 }).catch(() => 'Issues: (tooltip did not open)');
		found.push({
			label: label.replace(/\s*(Fixed|Expression)\s*/g, ' ').trim(),
			issues: text
				.split('\n')
				.map((line) => line.trim())
				.filter((line) => line && !/^Issues:?$/.test(line)),
		});
	}
	await page.mouse.move(0, 0);
	return found;
}

/** Opens each visible dropdown of the panel, reads its options, closes it again. */
async function dropdownOptions(
	page: Page,
	parameters: Locator,
): Promise<Array<{ owner: string; value: string; placeholder: string; options: string[] }>> {
	const selects = parameters.locator(SELECTORS.select).filter({ visible: true });
	const dropdowns: Array<{ owner: string; value: string; placeholder: string; options: string[] }> = [];
	const count = await selects.count();
	for (let index = 0; index < count; index++) {
		const select = selects.nth(index);
		const input = select.locator('input').first();
		const owner = await select.evaluate((element) => {
			const el = element as unknown as DomElement;
			return (
				(el.closest('[data-test-id^="parameter-input-"]') ?? el.closest('[data-test-id]'))?.getAttribute(
					'data-test-id',
				) ?? 'a dropdown'
			);
		});
		const value = await input.inputValue().catch(() => '');
		const placeholder = (await input.getAttribute('placeholder')) ?? '';
		const listId = await input.getAttribute('aria-controls');
		let options: string[] = [];
		if (listId) {
			await select.click();
			const list = page.locator(`[id="${listId}"]`);
			await list
				.locator(SELECTORS.selectOption)
				.first()
				.waitFor({ timeout: 3_000 })
				.catch(() => undefined);
			options = (await list.locator(SELECTORS.selectOption).allInnerTexts()).map((text) =>
				text.replace(/\s+/g, ' ').trim(),
			);
			await page.keyboard.press('Escape');
			await list.waitFor({ state: 'hidden', timeout: 3_000 }).catch(() => undefined);
		}
		dropdowns.push({ owner, value, placeholder, options });
	}
	return dropdowns;
}

/**
 * Everything wrong with the NDV on screen: error texts, parameter issues other than "is required"
 * (a fresh node has its required fields empty), empty or "undefined" labels, dropdown entries and
 * values, the operation not shown as chosen, icons that do not load, "Add …" buttons whose noun
 * was cut from a plural label.
 */
export async function panelProblems(
	page: Page,
	expected: { nodeName: string; operation?: NodeOperation },
): Promise<string[]> {
	const panel = ndv(page);
	const parameters = panel.locator(SELECTORS.ndvParameters);
	const problems: string[] = [];

	const title = (
		await panel
			.locator(SELECTORS.ndvTitle)
			.innerText()
			.catch(() => '')
	).trim();
	if (!title) problems.push('the panel shows no node name');
	else if (title !== expected.nodeName)
		problems.push(`the panel title reads "${title}", expected "${expected.nodeName}"`);

	const text = await panel.innerText();
	for (const pattern of ERROR_TEXTS) {
		const line = text.split('\n').find((candidate) => pattern.test(candidate));
		if (line) problems.push(`the panel shows "${line.trim()}"`);
	}
	if ((await parameters.count()) === 0) {
		problems.push('the panel shows no parameters');
		return problems;
	}
	const parametersText = await parameters.innerText();
	for (const line of parametersText.split('\n')) {
		if (brokenText(line)) problems.push(`the parameters show "${line.trim()}"`);
	}

	const labels = await parameterLabels(parameters);
	if (labels.length === 0 && !/does not have any parameters/i.test(parametersText))
		problems.push('the panel shows no parameter labels at all');
	for (const label of labels) {
		if (!label.text) problems.push(`a parameter label is empty (${label.html})`);
		else if (brokenText(label.text)) problems.push(`a parameter label reads "${label.text}"`);
	}
	const labelTexts = labels.map((label) => label.text);

	const fields = await parameters.locator('input, textarea').evaluateAll((elements) =>
		elements.map((element) => {
			const el = element as unknown as DomElement;
			return { value: el.value ?? '', placeholder: el.placeholder ?? '' };
		}),
	);
	for (const field of fields) {
		if (brokenText(field.value)) problems.push(`a field shows the value "${field.value}"`);
		if (brokenText(field.placeholder)) problems.push(`a field shows the placeholder "${field.placeholder}"`);
	}

	const buttons = (await parameters.locator('button').allInnerTexts()).map((button) =>
		button.replace(/\s+/g, ' ').trim(),
	);
	const addTexts = [...buttons, ...fields.map((field) => field.placeholder)].filter((candidate) =>
		/^Add /.test(candidate),
	);
	for (const addText of new Set(addTexts)) {
		const noun = addText.slice('Add '.length);
		const plural = labelTexts.find((label) => label.slice(0, -1) === noun && /(ies|ss)$/.test(label));
		if (plural) problems.push(`the button "${addText}" cuts the plural label "${plural}" (a broken singular)`);
	}

	if (expected.operation) {
		const shown = await parameters
			.locator(SELECTORS.operationInput)
			.first()
			.inputValue({ timeout: 3_000 })
			.catch(() => undefined);
		if (shown === undefined) problems.push('the panel shows no Operation parameter');
		else if (shown !== expected.operation.name)
			problems.push(`the Operation parameter shows "${shown}", expected "${expected.operation.name}"`);
	}

	for (const { label, issues } of await parameterIssues(page, parameters)) {
		for (const issue of issues) {
			if (/is required\.?$/.test(issue)) continue;
			problems.push(`parameter "${label || '?'}" has the issue: ${issue}`);
		}
	}

	for (const dropdown of await dropdownOptions(page, parameters)) {
		if (brokenText(dropdown.value)) problems.push(`${dropdown.owner} shows the value "${dropdown.value}"`);
		if (dropdown.options.length === 0 && !dropdown.placeholder) problems.push(`${dropdown.owner} has no options`);
		for (const option of dropdown.options) {
			if (!option) problems.push(`${dropdown.owner} has an option with no label`);
			else if (brokenText(option)) problems.push(`${dropdown.owner} has the option "${option}"`);
		}
	}

	for (const src of await brokenImages(panel)) problems.push(`an icon in the panel did not load: ${src}`);
	return problems;
}

/**
 * Adds every optional field of the open panel: each entry of every "Add Field"/"Add Option" dropdown
 * of a collection, and one entry of every fixed collection ("Add …" button or dropdown), nested ones
 * included, so that the checks also see the labels that only show once a field is added. Returns how
 * many were added. Nothing is saved: the workflow is only changed in the browser.
 */
export async function addOptionalFields(page: Page, limit = 60): Promise<number> {
	const parameters = ndv(page).locator(SELECTORS.ndvParameters);
	const pending = parameters
		.locator(`${SELECTORS.collectionAdd}:not([data-e2e-added]), ${SELECTORS.fixedCollectionAdd}:not([data-e2e-added])`)
		.filter({ visible: true });
	let added = 0;
	let marked = 0;
	while (added < limit && marked < limit) {
		const next = pending.first();
		if ((await next.count()) === 0) break;
		// Marked, so that it is not taken again, and found again by its mark (the locator above moves on).
		const mark = String(++marked);
		await next.evaluate(
			(element, value) =>
				(element as unknown as { setAttribute(name: string, value: string): void }).setAttribute(
					'data-e2e-added',
					value,
				),
			mark,
		);
		const control = parameters.locator(`[data-e2e-added="${mark}"]`);
		const select = control.locator(SELECTORS.select).first();
		if ((await select.count()) === 0) {
			// A button: adds one entry of a fixed collection.
			await control.click();
			added++;
			await page.waitForTimeout(150);
			continue;
		}
		const input = select.locator('input').first();
		const listId = await input.getAttribute('aria-controls');
		if (!listId) continue;
		await select.click();
		const list = page.locator(`[id="${listId}"]`);
		await list
			.locator(SELECTORS.selectOption)
			.first()
			.waitFor({ timeout: 3_000 })
			.catch(() => undefined);
		const options = (await list.locator(SELECTORS.selectOption).allInnerTexts()).map((text) =>
			text.split('\n')[0].trim(),
		);
		await page.keyboard.press('Escape');
		for (const option of options) {
			if (added >= limit || !(await select.isVisible())) break;
			await select.click();
			const entry = list.locator(SELECTORS.selectOption).filter({ hasText: option }).first();
			if (!(await entry.isVisible({ timeout: 1_000 }).catch(() => false))) {
				await page.keyboard.press('Escape');
				continue;
			}
			await entry.click();
			added++;
			await page.waitForTimeout(150);
		}
	}
	await page.waitForTimeout(300);
	return added;
}

/** Screenshots the page with the viewport grown so the parameter list is shown whole (up to 4,000 px). */
export async function screenshotPanel(page: Page, file: string): Promise<void> {
	mkdirSync(path.dirname(file), { recursive: true });
	const hidden = await page
		.locator(`${SELECTORS.ndv} ${SELECTORS.ndvParameters}`)
		.evaluate((element) => {
			const el = element as unknown as DomElement;
			return Math.max(0, el.scrollHeight - el.clientHeight);
		})
		.catch(() => 0);
	if (hidden > 0) {
		await page.setViewportSize({ width: VIEWPORT.width, height: Math.min(VIEWPORT.height + hidden + 40, 4_000) });
		await page.waitForTimeout(400);
	}
	// Away from the parameters, so that no hover controls show in the picture.
	await page.mouse.move(VIEWPORT.width - 5, 5);
	await page.screenshot({ path: file });
	if (hidden > 0) await page.setViewportSize(VIEWPORT);
}
