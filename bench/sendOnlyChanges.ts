/**
 * Section 6: Send Only Changes on a nightly attribute sync. One saved workflow (fixed workflow and node
 * ids) runs in this process through n8n's engine with a stand-in of n8n's deduplication store that
 * keeps n8n's own record format and algorithm (MD5 entries in one record, oldest dropped past
 * maxEntries). Counts come from the sandbox's request log: requests and attribute objects on the wire.
 * Then the store's size per user against per user and attribute, at 200,000 users.
 */
import { createHash } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RecordedRequest, SandboxClient } from '../sandbox';
import { DEMO_API_KEY } from '../sandbox';
import { runWorkflow } from '../test/harness';
import { deduplicationStore } from '../test/harness/deduplicationStore';
import type { RateLimits } from './prepareSandbox';
import { prepareSandbox } from './prepareSandbox';

const USER_NODE = 'n8n-nodes-engagement-platform.engagementPlatformUser';
const WORKFLOW_ID = 'bench-nightly-sync';
const NODE_ID = 'bench-sync-node';
const CONTACTS = 100_000;
const CHANGED_SHARE = 0.02;
const TARGET_SHARE = 0.03;
const ATTRIBUTES_PER_CONTACT = 8;

const parameters = (historySize?: number): INodeParameters => ({
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	attributesInput: 'json',
	attributesJson: '={{ $json.attributes }}',
	options: { sendOnlyChanges: true, ...(historySize ? { historySize } : {}) },
});

/** A CRM export: every contact with its attributes; `changed` of them with a new plan. */
function contacts(count: number, changed = 0): IDataObject[] {
	const step = changed > 0 ? Math.floor(count / changed) : 0;
	return Array.from({ length: count }, (_, i) => {
		const attributes: IDataObject = { plan: changed > 0 && i % step === 0 ? 'platinum' : ['gold', 'silver'][i % 2] };
		for (let a = 1; a < ATTRIBUTES_PER_CONTACT; a++) attributes[`field_${a}`] = `value ${a} of ${i}`;
		return { id: `crm-${i}`, attributes };
	});
}

interface SyncRun {
	run: string;
	items: number;
	requests: number;
	attributeObjects: number;
	unchanged: number;
	wallMs: number;
	storeEntries: number;
	storeRecordMb: number;
}

async function sync(
	client: SandboxClient,
	sandboxUrl: string,
	label: string,
	items: IDataObject[],
	historySize?: number,
): Promise<SyncRun> {
	const before = (await client.requests()).length;
	const started = Date.now();
	const result = await runWorkflow({
		workflowId: WORKFLOW_ID,
		nodes: [{ id: NODE_ID, name: 'Sync', type: USER_NODE, parameters: parameters(historySize) }],
		connections: { Start: { main: [[{ node: 'Sync', type: 'main', index: 0 }]] } },
		items,
		credentials: { engagementPlatformApi: { restEndpoint: sandboxUrl, apiKey: DEMO_API_KEY } },
	});
	const wallMs = Date.now() - started;
	if (result.error) throw result.error;
	const requests = (await client.requests()).slice(before);
	const entries = deduplicationStore().entriesOf(WORKFLOW_ID, NODE_ID);
	return {
		run: label,
		items: items.length,
		requests: requests.length,
		attributeObjects: requests.reduce((sum, request: RecordedRequest) => sum + attributesIn(request), 0),
		unchanged: result.output('Sync').filter(({ json }) => json.status === 'unchanged').length,
		wallMs,
		storeEntries: entries.length,
		storeRecordMb: recordMb(entries),
	};
}

const attributesIn = (request: RecordedRequest) =>
	((request.body as { attributes?: unknown[] } | undefined)?.attributes ?? []).length;

/** The record as n8n's database keeps it: {"mode":"entries","data":[...]} as JSON. */
const recordMb = (entries: string[]) =>
	+(Buffer.byteLength(JSON.stringify({ mode: 'entries', data: entries })) / 1024 / 1024).toFixed(2);

export async function sendOnlyChanges(
	client: SandboxClient,
	sandboxUrl: string,
	latencyMs: number,
	open: RateLimits,
): Promise<IDataObject> {
	console.log(
		`\n6. Send Only Changes: a nightly sync of ${CONTACTS.toLocaleString('en')} contacts (${ATTRIBUTES_PER_CONTACT} attributes each) run again with ${CHANGED_SHARE * 100}% changed, then unchanged; ${latencyMs} ms latency\n`,
	);
	const store = deduplicationStore();
	store.reset();
	await prepareSandbox(client, latencyMs, open);
	await client.configure({ logBodies: true });

	const changed = Math.round(CONTACTS * CHANGED_SHARE);
	const runs: SyncRun[] = [];
	runs.push(await sync(client, sandboxUrl, 'first run', contacts(CONTACTS)));
	runs.push(await sync(client, sandboxUrl, `${changed.toLocaleString('en')} changed`, contacts(CONTACTS, changed)));
	runs.push(await sync(client, sandboxUrl, 'nothing changed', contacts(CONTACTS, changed)));
	console.table(runs);

	const share = runs[1].attributeObjects / runs[0].attributeObjects;
	console.log(
		`   second run against the first: ${runs[1].requests} / ${runs[0].requests} requests, ${runs[1].attributeObjects} / ${runs[0].attributeObjects} attribute objects = ${(share * 100).toFixed(2)}% (target at most ${TARGET_SHARE * 100}%: ${share <= TARGET_SHARE ? 'met' : 'NOT met'})`,
	);

	// Past History Size: a store capped at the number of contacts loses the oldest to each run's changes.
	store.reset();
	await client.reset();
	await client.configure({ latencyMs, logBodies: true, rateLimits: open });
	const capped: SyncRun[] = [];
	capped.push(await sync(client, sandboxUrl, 'capped: first run', contacts(CONTACTS), CONTACTS));
	capped.push(await sync(client, sandboxUrl, `capped: ${changed} changed`, contacts(CONTACTS, changed), CONTACTS));
	capped.push(await sync(client, sandboxUrl, 'capped: nothing changed', contacts(CONTACTS, changed), CONTACTS));
	console.log(`   History Size ${CONTACTS.toLocaleString('en')} (equal to the contacts):`);
	console.table(capped);

	const sizes = storeSizes(200_000, ATTRIBUTES_PER_CONTACT);
	console.table(sizes);
	await client.configure({ logBodies: false });
	return { runs, attributeObjectShare: +share.toFixed(4), target: TARGET_SHARE, capped, storeSizes: sizes };
}

/**
 * The record per user against per user and attribute, at `users` users: its size, and the time n8n's
 * check takes over it (load the set, hash the run's values, look each up), as n8n's store does it.
 */
function storeSizes(users: number, attributes: number): IDataObject[] {
	const md5 = (value: string) => createHash('md5').update(value).digest('base64');
	return [
		['per user', users],
		['per user and attribute', users * attributes],
	].map(([kind, count]) => {
		const entries = Array.from({ length: Number(count) }, (_, i) => md5(`fingerprint ${i}`));
		const started = Date.now();
		const seen = new Set(entries);
		let unchanged = 0;
		for (let i = 0; i < Number(count); i++) if (seen.has(md5(`fingerprint ${i}`))) unchanged++;
		if (unchanged !== Number(count)) throw new Error('the check lost an entry');
		return {
			fingerprints: kind,
			users,
			entries: Number(count),
			recordMb: recordMb(entries),
			checkMs: Date.now() - started,
		};
	});
}
