import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';
import type { Page } from 'playwright-core';

import type { Sandbox } from '../../sandbox';
import { SandboxClient, startSandbox } from '../../sandbox';
import { expectationProblems, loadExamples, prepareSandbox } from '../support/examples';
import { sandboxCredentials } from '../support/sandboxCredentials';
import { EditorBrowser } from './support/editorBrowser';
import { LocalRegistry, scanCommunityPackage } from './support/localRegistry';
import { N8N_APPS, N8N_APP_2X, PROJECT_ROOT, ensureN8nApp, pinnedN8nVersion } from './support/n8nApp';
import { SELECTORS, dismissModals, openNewWorkflow, screenshotPanel } from './support/n8nEditor';
import { N8nInstance } from './support/n8nInstance';
import { setUpOwner, signIn } from './support/owner';
import { packProject } from './support/packedPackage';
import { loadPackageNodes, packageName } from './support/packageNodes';

/**
 * The route a user takes, on every n8n line the project supports: the package as `npm pack` makes
 * it, published to a local npm registry (verdaccio on loopback), installed from the editor's
 * Settings → Community nodes → Install in Chromium into an n8n that has no copy of it, its nodes
 * then found in the node panel, and one example workflow imported and executed against the sandbox.
 *
 * A custom registry is a licensed feature of n8n; n8n's own test mode (`E2E_TESTS=true`, then
 * `PATCH /rest/e2e/feature`) turns it on. `npm_config_registry` points n8n's other npm calls at the
 * local registry too (else `npm outdated` stalls trying the public one).
 * Before n8n installs it, the package the registry serves goes through n8n's community-package scanner
 * (its lint of the tarball and of the source) and the release check (what provenance needs of the
 * published package.json), as n8n's verification would take it from npmjs.org.
 * Screenshots go to screenshots/install/<n8n version>/.
 */
const PACKAGE_NAME = packageName();
const PACKAGE_VERSION = (
	JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
/** The example run after the install: one node of the package, one request, checked as examples.e2e.ts checks it. */
const EXAMPLE = 'contacts-to-attributes';
const SCREENSHOTS = path.join(PROJECT_ROOT, 'screenshots/install');
/** What a user types in the node panel: every node of the package is listed for it. */
const SEARCH = 'Engagement Platform';

const nodes = loadPackageNodes();
const example = loadExamples().find((candidate) => candidate.name === EXAMPLE);
let sandbox: Sandbox;
let client: SandboxClient;
let registry: LocalRegistry;
const timings: string[] = [];

function seconds(since: number): string {
	return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

beforeAll(async () => {
	const started = Date.now();
	sandbox = await startSandbox();
	client = new SandboxClient(sandbox.url);
	// verdaccio 6 needs Node >= 22: it runs on the 2.x app's Node 24.
	registry = await LocalRegistry.start(ensureN8nApp(N8N_APP_2X).node);
	const token = await registry.addUser('ep-e2e-publisher', 'ep-e2e-publisher-password');
	const packFolder = mkdtempSync(path.join(os.tmpdir(), 'ep-pack-'));
	try {
		registry.publish(packProject(packFolder), token);
	} finally {
		rmSync(packFolder, { recursive: true, force: true });
	}
	timings.push(`local registry started, package packed and published in ${seconds(started)}`);
}, 300_000);

afterAll(async () => {
	await registry?.stop();
	await sandbox?.close();
	console.log(`install route:\n${timings.map((line) => `  ${line}`).join('\n')}`);
});

test('the package is on the local registry as packed', async () => {
	expect(example).toBeDefined();
	expect((await registry.packument(PACKAGE_NAME))['dist-tags']?.latest).toBe(PACKAGE_VERSION);
});

test("n8n's community-package scanner passes the package the registry serves, and its source", () => {
	const started = Date.now();
	const scan = scanCommunityPackage(registry, `${PACKAGE_NAME}@${PACKAGE_VERSION}`);
	timings.push(`n8n's community-package scanner: ${seconds(started)}`);
	// The scanner also passes a folder where it found nothing to lint ("No files found to analyze"): no message.
	expect(scan.tarball.details ?? '').toBe('');
	expect(scan.tarball.passed).toBe(true);
	expect(scan.tarball.message).toBeUndefined();
	expect(scan.tarball.files).toEqual(expect.arrayContaining(['dist', 'package.json']));
	expect(scan.source.details ?? '').toBe('');
	expect(scan.source.passed).toBe(true);
	expect(scan.source.message).toBeUndefined();
	// The attestation is npmjs.org's to make, from the publish workflow's run; the local registry has none.
	expect(scan.provenance).toEqual({
		passed: false,
		message: expect.stringMatching(/^Package was not published with npm provenance/),
	});
});

test('the package.json the registry serves passes the release check (what the provenance statement needs)', async () => {
	const served = (await registry.packument(PACKAGE_NAME)).versions?.[PACKAGE_VERSION];
	const folder = mkdtempSync(path.join(os.tmpdir(), 'ep-served-'));
	try {
		writeFileSync(path.join(folder, 'package.json'), JSON.stringify(served));
		const printed = execFileSync(
			'npm',
			['run', '-s', 'release:check', '--', '--manifest', path.join(folder, 'package.json')],
			{
				cwd: PROJECT_ROOT,
				encoding: 'utf8',
			},
		);
		expect(printed).toContain(`${PACKAGE_NAME}@${PACKAGE_VERSION} from https://github.com/`);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
});

describe.each(N8N_APPS.map((appFolder) => [pinnedN8nVersion(appFolder), appFolder] as const))(
	'n8n %s',
	(version, appFolder) => {
		const screenshots = path.join(SCREENSHOTS, version);
		let n8n: N8nInstance | undefined;
		let editorUrl: string;
		let cookie: { name: string; value: string };
		let editor: EditorBrowser | undefined;
		let routeStarted = 0;
		const steps: string[] = [];
		/** Later steps make no sense once the install failed. */
		let installed = false;

		beforeAll(async () => {
			rmSync(screenshots, { recursive: true, force: true });
			const app = ensureN8nApp(appFolder);
			routeStarted = Date.now();
			n8n = N8nInstance.create(app, {
				package: false,
				env: { E2E_TESTS: 'true', N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url, npm_config_registry: registry.url },
			});
			editorUrl = await n8n.start();
			const feature = await fetch(`${editorUrl}/rest/e2e/feature`, {
				method: 'PATCH',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ feature: 'feat:communityNodes:customRegistry', enabled: true }),
			});
			if (!feature.ok)
				throw new Error(
					`n8n's test mode did not enable the custom registry: ${feature.status} ${await feature.text()}`,
				);
			await setUpOwner(editorUrl);
			cookie = await signIn(editorUrl);
			editor = await EditorBrowser.launch(editorUrl, cookie);
			steps.push(`n8n started, owner signed in, Chromium up: ${seconds(routeStarted)}`);
		}, 300_000);

		afterAll(async () => {
			if (editor?.blockedHosts.size)
				console.log(`n8n ${version}: requests refused (not loopback): ${[...editor.blockedHosts].join(', ')}`);
			await editor?.close();
			await n8n?.dispose();
			timings.push(`n8n ${version}: ${routeStarted ? seconds(routeStarted) : 'not run'} in all (${steps.join('; ')})`);
		});

		test('Settings → Community nodes → Install installs the package from the registry', async () => {
			const started = Date.now();
			let [opened, clicked, shown] = [0, 0, 0];
			const page = await editor!.newPage();
			try {
				await page.goto(`${editorUrl}/settings`);
				await dismissModals(page);
				await page
					.locator('[data-test-id="settings-community-nodes"]')
					.or(page.getByRole('menuitem', { name: 'Community nodes' }))
					.first()
					.click();
				await page.waitForURL(/\/settings\/community-nodes/);
				const installButton = page.getByRole('button', { name: /^Install a community node$|^Install$/ }).first();
				await installButton.waitFor();
				await dismissModals(page);
				await shot(page, '01-community-nodes.png');
				opened = Date.now();
				await installButton.click();

				const nameInput = page.locator('[data-test-id="package-name-input"]');
				await nameInput.waitFor();
				// The test id sits on the input itself or on its wrapper, depending on the design system's version.
				const input =
					(await nameInput.evaluate((element) => (element as unknown as { tagName: string }).tagName)) === 'INPUT'
						? nameInput
						: nameInput.locator('input');
				await input.fill(PACKAGE_NAME);
				await page.locator('[data-test-id="user-agreement-checkbox"]').click();
				await shot(page, '02-install-dialog.png');
				await page.locator('[data-test-id="install-community-package-button"]').click();

				const card = page.locator('[data-test-id="community-package-card"]').filter({ hasText: PACKAGE_NAME });
				clicked = Date.now();
				// n8n 1.123.81 answers the editor's install request about 70 s after the package is installed (1.4 s over REST).
				await card.waitFor({ timeout: 240_000 });
				shown = Date.now();
				await page.waitForTimeout(500);
				await shot(page, '03-installed.png');
				const cardText = (await card.innerText()).replace(/\s+/g, ' ');
				expect(cardText).toContain(`${nodes.length} nodes`);
				expect(cardText).toContain(PACKAGE_VERSION);
				for (const node of nodes) expect(cardText).toContain(node.displayName);
			} finally {
				await page.close();
			}

			// What n8n installed: the package from the registry, no second n8n-workflow beside it (n8n strips peer dependencies).
			const installedPackage = path.join(n8n!.userFolder, '.n8n/nodes/node_modules', PACKAGE_NAME);
			expect(existsSync(path.join(installedPackage, nodes[0].file))).toBe(true);
			expect(existsSync(path.join(installedPackage, 'node_modules/n8n-workflow'))).toBe(false);
			expect(existsSync(path.join(n8n!.userFolder, '.n8n/nodes/node_modules/n8n-workflow'))).toBe(false);
			const listed = await fetch(`${editorUrl}/rest/community-packages`, {
				headers: { Cookie: `${cookie.name}=${cookie.value}` },
			});
			const { data } = (await listed.json()) as {
				data: Array<{ packageName: string; installedVersion: string; installedNodes: Array<{ type: string }> }>;
			};
			const entry = data.find((candidate) => candidate.packageName === PACKAGE_NAME);
			expect(entry?.installedVersion).toBe(PACKAGE_VERSION);
			expect(entry?.installedNodes.map((node) => node.type).sort()).toEqual(nodes.map((node) => node.type).sort());
			installed = true;
			steps.push(
				`installed from the Community Nodes screen: ${seconds(started)} (settings screen ${((opened - started) / 1000).toFixed(1)} s, install dialog ${((clicked - opened) / 1000).toFixed(1)} s, Install clicked to the package listed ${((shown - clicked) / 1000).toFixed(1)} s)`,
			);
		}, 420_000);

		test('every node of the package is in the node panel', async () => {
			expect(installed).toBe(true);
			const started = Date.now();
			const page = await editor!.newPage();
			const problems: string[] = [];
			try {
				// One search lists every node of the package: they all start with the platform's name.
				await openNewWorkflow(page, editorUrl);
				await page.locator(SELECTORS.nodeCreatorPlusButton).click();
				const creator = page.locator(SELECTORS.nodeCreator);
				await creator.locator(SELECTORS.nodeCreatorSearch).fill(SEARCH);
				for (const node of nodes) {
					const item = creator
						.locator(SELECTORS.nodeCreatorItem)
						.filter({ has: page.locator(SELECTORS.nodeCreatorItemName).getByText(node.displayName, { exact: true }) })
						.first();
					if (!(await item.isVisible({ timeout: 0 }).catch(() => false)))
						await item.waitFor({ timeout: 15_000 }).catch(() => undefined);
					if (!(await item.isVisible())) {
						problems.push(`${node.displayName} is not listed when searching "${SEARCH}"`);
						continue;
					}
					const icons = await item.locator('img').evaluateAll((images) =>
						images
							.map(
								(image) =>
									image as unknown as {
										complete: boolean;
										naturalWidth: number;
										getAttribute(name: string): string | null;
									},
							)
							.filter((image) => image.complete && image.naturalWidth === 0)
							.map((image) => image.getAttribute('src')),
					);
					for (const src of icons) problems.push(`${node.displayName}: its icon did not load (${src})`);
				}
				await screenshotPanel(page, path.join(screenshots, '04-node-panel.png'));
				const listed = await creator.locator(SELECTORS.nodeCreatorItemName).allInnerTexts();
				if (problems.length) console.log(`n8n ${version}: the node panel lists ${listed.join(', ') || 'nothing'}`);
			} finally {
				await page.close();
			}
			expect(problems).toEqual([]);
			steps.push(`${nodes.length} nodes found in the node panel: ${seconds(started)}`);
		}, 300_000);

		test(`the example ${EXAMPLE} runs against the sandbox`, async () => {
			expect(installed).toBe(true);
			const started = Date.now();
			// The CLI shares the server's SQLite database: one n8n process at a time.
			await n8n!.stop();
			await n8n!.importCredentials(sandboxCredentials(sandbox.url));
			await n8n!.importWorkflow(example!.workflow);
			await prepareSandbox(example!.expectation, client);
			const run = await n8n!.execute(example!.workflow.id);
			if (!run.ok)
				console.log(`n8n ${version}: execute said\n${run.raw.stdout.slice(-3000)}\n${run.raw.stderr.slice(-3000)}`);
			expect(run.error).toBeUndefined();
			// On failure, how n8n's CLI ended and the end of what it wrote.
			expect({
				code: run.raw.code,
				signal: run.raw.signal ?? null,
				stderr: run.raw.code === 0 ? '' : run.raw.stderr.slice(-2000),
			}).toEqual({ code: 0, signal: null, stderr: '' });
			const output = (run.outputs[example!.expectation.node] ?? []).map((item) => item.json as IDataObject);
			expect(await expectationProblems(example!.expectation, output, client)).toEqual([]);
			steps.push(`example imported and executed: ${seconds(started)}`);
		}, 300_000);

		async function shot(page: Page, file: string): Promise<void> {
			await screenshotPanel(page, path.join(screenshots, file));
		}
	},
);
