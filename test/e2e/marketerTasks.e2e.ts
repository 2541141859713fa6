import path from 'node:path';

import type { Page } from 'playwright-core';

import { useSandbox } from '../integration/sandboxLifecycle';
import { sandboxCredentials } from '../support/sandboxCredentials';
import { EditorBrowser } from './support/editorBrowser';
import type { MarketerTask, NodeVersion } from './support/marketerTaskList';
import { MARKETER_TASKS } from './support/marketerTaskList';
import type { TaskCount } from './support/marketerTasks';
import { MarketerDriver, countRow, countTable, createAndOpenWorkflow, writeCounts } from './support/marketerTasks';
import { N8N_APPS, N8N_APP_2X, PROJECT_ROOT, ensureN8nApp, pinnedN8nVersion } from './support/n8nApp';
import { N8nInstance } from './support/n8nInstance';
import { setUpOwner, signIn } from './support/owner';

/**
 * Three tasks of a marketer, done in the real n8n editor (Chromium) on every n8n line the project
 * supports: track a purchase from an order, sync contact attributes from a sheet, opt contacts out
 * of a newsletter. The input arrives as text (pinned output of a Code node, in a workflow whose
 * timezone is Europe/Berlin); the node is added from the node panel (version 2) or opened as 1.0
 * saved it (version 1), its fields mapped by dragging input fields, the workflow executed with the
 * editor's button, and what the sandbox stored is checked. Every action is counted: the "before"
 * (version 1) and "after" (version 2) table is printed and written to
 * test/e2e/results/marketer-tasks-<n8n version>.json. Screenshots: screenshots/tasks/<line>/.
 */
const SCREENSHOTS = path.join(PROJECT_ROOT, 'screenshots/tasks');
const RESULTS = path.join(PROJECT_ROOT, 'test/e2e/results');
const NODE_VERSIONS: NodeVersion[] = [2, 1];

// Reset before each task.
const { sandbox, client } = useSandbox();

describe.each(N8N_APPS.map((appFolder) => [pinnedN8nVersion(appFolder), appFolder] as const))(
	"a marketer's tasks in the n8n %s editor",
	(pinnedVersion, appFolder) => {
		const line = appFolder === N8N_APP_2X ? '2.x' : '1.x';
		const counts: TaskCount[] = [];
		let n8n: N8nInstance | undefined;
		let editor: EditorBrowser | undefined;
		let page: Page;
		let editorUrl: string;
		let cookie: { name: string; value: string };
		let n8nVersion = pinnedVersion;
		let started = 0;

		beforeAll(async () => {
			started = Date.now();
			const app = ensureN8nApp(appFolder);
			n8nVersion = app.version;
			for (let attempt = 1; ; attempt++) {
				n8n = N8nInstance.create(app);
				await n8n.importCredentials(sandboxCredentials(sandbox().url));
				try {
					editorUrl = await n8n.start();
					break;
				} catch (error) {
					// Its task broker's port is picked apart from its own and may come out the same ("already in use").
					await n8n.dispose();
					if (attempt === 2 || !/already in use/.test((error as Error).message)) throw error;
				}
			}
			await setUpOwner(editorUrl);
			cookie = await signIn(editorUrl);
			editor = await EditorBrowser.launch(editorUrl, cookie);
			page = await editor.newPage();
		}, 300_000);

		afterAll(async () => {
			if (counts.length) {
				console.log(countTable(n8nVersion, counts));
				if (counts.length === MARKETER_TASKS.length * NODE_VERSIONS.length)
					writeCounts(path.join(RESULTS, `marketer-tasks-${n8nVersion}.json`), n8nVersion, counts);
			}
			await editor?.close();
			await n8n?.dispose();
			if (started) console.log(`marketer tasks in n8n ${n8nVersion}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
		});

		const cases = MARKETER_TASKS.flatMap((task) =>
			NODE_VERSIONS.map((nodeVersion) => [task.title, nodeVersion, task] as const),
		);

		test.each(cases)('%s, node version %d', async (_, nodeVersion, task: MarketerTask) => {
			await task.prepare(client());
			const driver = new MarketerDriver(page);
			const shots = path.join(SCREENSHOTS, line);
			const begun = Date.now();
			try {
				const marks: string[] = [];
				const mark = (label: string) => marks.push(`${label} ${((Date.now() - begun) / 1000).toFixed(1)}`);
				await createAndOpenWorkflow(page, editorUrl, cookie, task.workflow(nodeVersion));
				mark('opened');
				await task.drive(driver, nodeVersion);
				mark('driven');
				expect(await driver.shownNodeVersion()).toBe(nodeVersion);
				await driver.screenshotPanel(path.join(shots, `${task.id}-v${nodeVersion}-panel.png`));
				mark('shot');
				await driver.run();
				mark('ran');
				if (nodeVersion === 2) await driver.screenshotCanvas(path.join(shots, `${task.id}-v2-run.png`));
				console.log(`${task.id} v${nodeVersion}: ${marks.join(', ')}`);
			} catch (error) {
				await driver.screenshotCanvas(path.join(shots, `${task.id}-v${nodeVersion}-failed.png`)).catch(() => undefined);
				console.log(
					`${task.id} (version ${nodeVersion}) actions so far: ${driver.counter.actions.map((a) => a.what).join(', ')}`,
				);
				throw error;
			}
			const seconds = (Date.now() - begun) / 1000;

			expect(await task.stored(client())).toEqual(task.expected(nodeVersion));
			counts.push(countRow(task.id, nodeVersion, driver.counter, seconds));
		});
	},
);
