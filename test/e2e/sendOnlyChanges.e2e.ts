import type { Sandbox } from '../../sandbox';
import { SandboxClient, startSandbox, DEMO_SUBSCRIPTION_GROUPS } from '../../sandbox';
import { sandboxCredentials } from '../support/sandboxCredentials';
import {
	CHANGED,
	CONTACTS,
	NIGHTLY_SYNC,
	SYNC_NODE,
	nextDaysWorkflow,
	requestLogLength,
	sentSince,
	statusCounts,
} from './support/nightlySync';
import { N8N_APPS, ensureN8nApp, pinnedN8nVersion } from './support/n8nApp';
import { N8nInstance } from './support/n8nInstance';

/**
 * Send Only Changes in the real n8n application, regular mode, on each n8n line: the nightly-sync
 * example run three times by `n8n execute`, each run a process of its own, so what the node remembers
 * can only be in n8n's database. The first run sends all 1,000 contacts, the second nothing, and the
 * third, after 20 contacts changed, those 20.
 */
let sandbox: Sandbox;
let client: SandboxClient;

beforeAll(async () => {
	sandbox = await startSandbox();
	client = new SandboxClient(sandbox.url);
	await client.reset();
});

afterAll(async () => {
	await sandbox?.close();
});

describe.each(N8N_APPS.map((appFolder) => [pinnedN8nVersion(appFolder), appFolder] as const))(
	'a nightly sync in n8n %s',
	(version, appFolder) => {
		let n8n: N8nInstance | undefined;

		beforeAll(async () => {
			await client.reset();
			// The nightly sync sets the demo's newsletter group; the platform refuses an unknown group ID.
			await client.seed({ subscriptionGroups: [DEMO_SUBSCRIPTION_GROUPS.weeklyNewsletter] });
			n8n = N8nInstance.create(ensureN8nApp(appFolder));
			await n8n.importCredentials(sandboxCredentials(sandbox.url));
			await n8n.importWorkflow(NIGHTLY_SYNC.workflow);
		}, 300_000);

		afterAll(async () => {
			await n8n?.dispose();
		});

		async function syncRun() {
			const before = await requestLogLength(client);
			const run = await n8n!.execute(NIGHTLY_SYNC.workflow.id);
			expect(run.error).toBeUndefined();
			const output = run.outputs[SYNC_NODE] ?? [];
			expect(output).toHaveLength(CONTACTS);
			expect(output.map((item) => (item.pairedItem as { item: number }).item)).toEqual(
				Array.from({ length: CONTACTS }, (_, index) => index),
			);
			return { output, wire: await sentSince(client, before) };
		}

		test('run 1 sends every contact, run 2 none, and after 20 changed, run 3 those 20', async () => {
			const first = await syncRun();
			expect(statusCounts(first.output)).toEqual({ updated: CONTACTS });
			expect(first.wire.requests).toBe(14);
			expect(new Set(first.wire.sent).size).toBe(CONTACTS);

			const second = await syncRun();
			expect(statusCounts(second.output)).toEqual({ unchanged: CONTACTS });
			expect(second.wire).toEqual({ requests: 0, sent: [] });

			await n8n!.importWorkflow(nextDaysWorkflow());
			const third = await syncRun();
			expect(statusCounts(third.output)).toEqual({ updated: CHANGED.length, unchanged: CONTACTS - CHANGED.length });
			expect(third.wire.requests).toBe(1);
			expect(third.wire.sent.sort()).toEqual([...CHANGED].sort());
			const platinum = (await client.state()).profiles.filter(
				(profile) => profile.custom_attributes.plan === 'platinum',
			);
			expect(platinum.map((profile) => profile.external_id).sort()).toEqual([...CHANGED].sort());

			console.log(
				`n8n ${version}: nightly sync of ${CONTACTS} contacts: run 1 ${first.wire.requests} requests, run 2 ${second.wire.requests}, run 3 (20 changed) ${third.wire.requests} with ${third.wire.sent.length} attribute objects`,
			);
		}, 600_000);
	},
);
