/**
 * Send Only Changes in the real n8n app, night after night:
 * `npm run bench:app -- [contacts, default 10,000] [--nights N, default 7] [--latency MS, default 20]`.
 *
 * The pinned n8n 2.x app (test/e2e/n8n-app, installed by scripts/n8n/install.sh, nothing new) runs in
 * regular mode on SQLite with its default settings, the built package installed in a fresh user folder
 * (run `npm run build` first). The workflow is Manual Trigger → HTTP Request (a CRM answering every
 * contact with 8 attributes) → Update Attributes, once with Send Only Changes at its defaults and once
 * without the option, and with n8n's No Operation node in its place (the floor: n8n's own work of a night), each
 * in an n8n of its own so that each database's growth is its own. The nights:
 * the first sends everything, then a night with nothing changed and a night with 2% of the attribute
 * values changed take turns. The platform (the sandbox, in a process of its own) answers each request
 * after MS milliseconds, as the in-process bench's does (`npm run bench`). Each night prints the execution's time as n8n records it, the requests and
 * attribute values the platform received, and the size of n8n's database files.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import { SandboxClient } from '../sandbox';
import { ensureN8nApp } from '../test/e2e/support/n8nApp';
import { N8nInstance } from '../test/e2e/support/n8nInstance';
import { N8nRestClient } from '../test/e2e/support/n8nRestClient';
import { sandboxCredentials } from '../test/support/sandboxCredentials';
import { startSandboxProcess } from './sandboxProcess';
import { valuesIn } from './sendOnlyChanges';

const ATTRIBUTES = 8;
const CHANGED_SHARE = 0.02;
const WORKFLOW_ID = 'benchAppNightlySync';
const TRIGGER = 'Start';
const SYNC = 'Sync';

type Night = 'everything new' | 'nothing changed' | '2% changed';

/** The CRM: every contact's attributes, each value at its version; a night changes some versions. */
class Crm {
	private readonly versions: Uint16Array;

	constructor(readonly contacts: number) {
		this.versions = new Uint16Array(contacts * ATTRIBUTES);
	}

	/** Changes one value in 1/CHANGED_SHARE, spread over the contacts, different ones each night. */
	change(night: number): void {
		const every = Math.round(1 / CHANGED_SHARE);
		for (let index = (night * 7) % every; index < this.versions.length; index += every) this.versions[index]++;
	}

	json(): string {
		const rows: string[] = [];
		for (let contact = 0; contact < this.contacts; contact++) {
			const attributes: Record<string, string> = { plan: ['gold', 'silver'][contact % 2] };
			for (let a = 0; a < ATTRIBUTES; a++) {
				const version = this.versions[contact * ATTRIBUTES + a];
				const name = a === 0 ? 'plan' : `field_${a}`;
				attributes[name] = a === 0 && version === 0 ? attributes.plan : `value ${a} of ${contact} v${version}`;
			}
			rows.push(JSON.stringify({ id: `crm-${contact}`, attributes }));
		}
		return `[${rows.join(',')}]`;
	}
}

/**
 * The three workflows: Update Attributes with Send Only Changes, without it, and n8n's No Operation node
 * in its place: the floor, what n8n's own work (the CRM's items read, the execution saved) costs a night.
 */
type Configuration = 'with the option' | 'without the option' | 'No Operation in its place';

function syncNode(configuration: Configuration): object {
	if (configuration === 'No Operation in its place')
		return {
			id: 'bench-sync',
			name: SYNC,
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [440, 0],
			parameters: {},
		};
	return {
		id: 'bench-sync',
		name: SYNC,
		type: 'n8n-nodes-engagement-platform.engagementPlatformUser',
		typeVersion: 2,
		position: [440, 0],
		parameters: {
			operation: 'updateAttributes',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
			attributesInput: 'json',
			attributesJson: '={{ $json.attributes }}',
			options: configuration === 'with the option' ? { sendOnlyChanges: true } : {},
		},
		credentials: { engagementPlatformApi: { id: 'epSandboxCredential', name: 'Engagement Platform (sandbox)' } },
	};
}

function workflow(crmUrl: string, configuration: Configuration): object {
	return {
		id: WORKFLOW_ID,
		name: `Bench: nightly sync, ${configuration}`,
		active: false,
		nodes: [
			{
				id: 'bench-start',
				name: TRIGGER,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'bench-crm',
				name: 'CRM',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [220, 0],
				parameters: { url: crmUrl, options: {} },
			},
			syncNode(configuration),
		],
		connections: {
			[TRIGGER]: { main: [[{ node: 'CRM', type: 'main', index: 0 }]] },
			CRM: { main: [[{ node: SYNC, type: 'main', index: 0 }]] },
		},
		settings: {},
	};
}

interface NightResult {
	night: Night;
	seconds: number;
	requests: number;
	values: number;
	databaseMb: number;
}

/** The bytes of n8n's database files (SQLite's file with its write-ahead log) in the user folder. */
function databaseMb(userFolder: string): number {
	const folder = path.join(userFolder, '.n8n');
	const bytes = readdirSync(folder)
		.filter((name) => name.startsWith('database.sqlite'))
		.reduce((sum, name) => sum + statSync(path.join(folder, name)).size, 0);
	return Math.round(bytes / 1024 / 1024);
}

interface ExecutionTimes {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt: string;
}

/**
 * Waits for the execution to end, reading n8n's list of executions: it gives the times n8n recorded
 * without the run data (the outputs of 100,000 items, which the bench does not need).
 */
async function finished(rest: N8nRestClient, id: string, night: number): Promise<ExecutionTimes> {
	for (;;) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW_ID }));
		// n8n answers 503 ("Database is not ready!") while a long write holds SQLite: asked again.
		const listed = await rest
			.get<{ results: ExecutionTimes[] }>(`/executions?filter=${filter}&limit=10`)
			.catch(() => ({ results: [] as ExecutionTimes[] }));
		const execution = listed.results.find((candidate) => candidate.id === id);
		if (execution && !['new', 'running', 'waiting'].includes(execution.status) && execution.stoppedAt) {
			if (execution.status !== 'success') throw new Error(`night ${night} ended ${execution.status}`);
			return execution;
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

async function nights(
	contacts: number,
	count: number,
	latencyMs: number,
	configuration: Configuration,
): Promise<NightResult[]> {
	const crm = new Crm(contacts);
	let body = crm.json();
	const server = createServer((_, response) =>
		response.writeHead(200, { 'Content-Type': 'application/json' }).end(body),
	);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const crmUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/contacts`;
	const sandbox = await startSandboxProcess(latencyMs, { logBodies: true });
	const platform = new SandboxClient(sandbox.url);
	const app = ensureN8nApp();
	// BENCH_APP_CPU_PROFILE=<folder>: n8n writes a CPU profile there when it stops (read it in Chrome's DevTools).
	const profile = process.env.BENCH_APP_CPU_PROFILE;
	const n8n = N8nInstance.create(app, profile ? { env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profile}` } } : {});
	const results: NightResult[] = [];
	try {
		await n8n.importCredentials(sandboxCredentials(sandbox.url));
		await n8n.importWorkflow(workflow(crmUrl, configuration));
		const url = await n8n.start();
		const rest = await N8nRestClient.asOwner(app, url);
		for (let night = 1; night <= count; night++) {
			const kind: Night = night === 1 ? 'everything new' : night % 2 === 0 ? 'nothing changed' : '2% changed';
			if (kind === '2% changed') {
				crm.change(night);
				body = crm.json();
			}
			await platform.reset();
			const id = await rest.runManually(WORKFLOW_ID, TRIGGER);
			const { startedAt, stoppedAt } = await finished(rest, id, night);
			const requests = await platform.requests({ path: '/users/track' });
			const result: NightResult = {
				night: kind,
				seconds: +((Date.parse(stoppedAt) - Date.parse(startedAt)) / 1000).toFixed(1),
				requests: requests.length,
				values: requests.reduce((sum, request) => sum + valuesIn(request), 0),
				databaseMb: databaseMb(n8n.userFolder),
			};
			results.push(result);
			console.log(
				`  ${configuration}, night ${night} (${kind}): ${result.seconds} s, ${result.requests} requests, ${result.values.toLocaleString('en')} values, database ${result.databaseMb} MB`,
			);
		}
	} finally {
		await n8n.dispose();
		sandbox.stop();
		server.close();
	}
	return results;
}

function table(withOption: NightResult[], without: NightResult[], floor: NightResult[]): string {
	const cell = (night: NightResult) =>
		`${night.seconds} s, ${night.requests} requests, ${night.values.toLocaleString('en')} values, ${night.databaseMb} MB`;
	const share = (part: number, whole: number) => `${Math.round((part / whole) * 100)}%`;
	const rows = withOption.map((night, index) => {
		const other = without[index];
		const base = floor[index].seconds;
		// Above the floor: what the node itself added to the night, with and without the option.
		const above = share(Math.max(0, night.seconds - base), Math.max(0.1, other.seconds - base));
		return `| ${index + 1}, ${night.night} | ${cell(night)} | ${cell(other)} | ${base} s | ${share(night.seconds, other.seconds)} | ${above} |`;
	});
	return [
		'| Night | With Send Only Changes | Without the option | No Operation in its place | Time with / without | Above No Operation, with / without |',
		'|---|---|---|---|---|---|',
		...rows,
	].join('\n');
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const flag = (name: string, fallback: number) => {
		const at = args.indexOf(`--${name}`);
		return at >= 0 ? Number(args[at + 1]) : fallback;
	};
	const count = flag('nights', 7);
	const latencyMs = flag('latency', 20);
	const contacts = Number(args.find((arg, index) => /^\d+$/.test(arg) && !args[index - 1]?.startsWith('--')) ?? 10_000);
	const app = ensureN8nApp();
	console.log(
		`Send Only Changes in n8n ${app.version} (regular mode, SQLite, default settings): ${contacts.toLocaleString('en')} contacts of ${ATTRIBUTES} attributes, ${count} nights, ${latencyMs} ms latency per request\n`,
	);
	const withOption = await nights(contacts, count, latencyMs, 'with the option');
	const without = await nights(contacts, count, latencyMs, 'without the option');
	const floor = await nights(contacts, count, latencyMs, 'No Operation in its place');
	const growth = (results: NightResult[]) => results.at(-1)!.databaseMb - results[0].databaseMb;
	console.log(`\n${table(withOption, without, floor)}\n`);
	console.log(
		`Database growth after the first night, over ${count - 1} nights: ${growth(withOption)} MB with the option, ${growth(without)} MB without, ${growth(floor)} MB with No Operation`,
	);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
