/**
 * Section 6: Send Only Changes on a nightly attribute sync. One saved workflow (fixed workflow and node
 * ids) runs in this process through n8n's engine with a stand-in of n8n's deduplication store that
 * keeps n8n's own record format and algorithm (MD5 entries in one record, oldest dropped past
 * maxEntries). Counts come from the sandbox's request log: requests, attribute objects and attribute
 * values on the wire (the values are the data points the platform counts; an object changed in one
 * attribute sends that one alone). The second night changes 2% of all attribute values, spread over
 * the contacts (one value in 50, so about one contact in six changes one or two of its attributes).
 * Runs with the periodic resend off (what the store saves) and at its default (what a user gets). Then
 * the record at its largest, while a run of as many contacts checks (see `storeSizes`).
 */
import { createHash } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RecordedRequest, SandboxClient } from '../sandbox';
import { DEMO_API_KEY } from '../sandbox';
import { runWorkflow } from '../test/harness';
import { deduplicationStore } from '../test/harness/deduplicationStore';
import { statusOf } from '../test/support/nodeWords';
import type { RateLimits } from './prepareSandbox';
import { prepareSandbox } from './prepareSandbox';

const USER_NODE = 'n8n-nodes-engagement-platform.engagementPlatformUser';
const WORKFLOW_ID = 'bench-nightly-sync';
const NODE_ID = 'bench-sync-node';
const CONTACTS = 100_000;
/** The share of all attribute values the second night changes. */
const CHANGED_SHARE = 0.02;
const TARGET_SHARE = 0.03;
const ATTRIBUTES_PER_CONTACT = 8;

/** Every contact's turn to be sent again comes once in this many days (the option's default). */
const RESEND_EVERY_DAYS = 30;

const parameters = (historySize?: number, resendEveryDays = 0): INodeParameters => ({
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	attributesInput: 'json',
	attributesJson: '={{ $json.attributes }}',
	options: { sendOnlyChanges: true, resendEveryDays, ...(historySize ? { historySize } : {}) },
});

/**
 * A CRM export: every contact with its attributes; with `changedShare`, that share of all attribute
 * values changed, one in every 1/changedShare counted across the contacts in turn.
 */
function contacts(count: number, changedShare = 0): IDataObject[] {
	const every = changedShare > 0 ? Math.round(1 / changedShare) : 0;
	const changed = (i: number, a: number) => every > 0 && (i * ATTRIBUTES_PER_CONTACT + a) % every === 0;
	return Array.from({ length: count }, (_, i) => {
		const attributes: IDataObject = { plan: changed(i, 0) ? 'platinum' : ['gold', 'silver'][i % 2] };
		for (let a = 1; a < ATTRIBUTES_PER_CONTACT; a++)
			attributes[`field_${a}`] = changed(i, a) ? `new value ${a} of ${i}` : `value ${a} of ${i}`;
		return { id: `crm-${i}`, attributes };
	});
}

interface SyncRun {
	run: string;
	items: number;
	requests: number;
	attributeObjects: number;
	/** Attribute values sent: the data points the platform counts. */
	attributeValues: number;
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
	resendEveryDays = 0,
): Promise<SyncRun> {
	const before = (await client.requests()).length;
	const started = Date.now();
	const result = await runWorkflow({
		workflowId: WORKFLOW_ID,
		nodes: [{ id: NODE_ID, name: 'Sync', type: USER_NODE, parameters: parameters(historySize, resendEveryDays) }],
		connections: { Start: { main: [[{ node: 'Sync', type: 'main', index: 0 }]] } },
		items,
		credentials: { engagementPlatformApi: { restEndpoint: sandboxUrl, apiKey: DEMO_API_KEY } },
	});
	const wallMs = Date.now() - started;
	if (result.error) throw result.error;
	const requests = (await client.requests()).slice(before);
	const entries = deduplicationStore().workflowEntriesOf(WORKFLOW_ID);
	return {
		run: label,
		items: items.length,
		requests: requests.length,
		attributeObjects: requests.reduce((sum, request: RecordedRequest) => sum + attributesIn(request), 0),
		attributeValues: requests.reduce((sum, request: RecordedRequest) => sum + valuesIn(request), 0),
		unchanged: result.output('Sync').filter(({ json }) => statusOf(json) === 'unchanged').length,
		wallMs,
		storeEntries: entries.length,
		storeRecordMb: recordMb(entries),
	};
}

const objectsOf = (request: RecordedRequest) =>
	(request.body as { attributes?: IDataObject[] } | undefined)?.attributes ?? [];
const attributesIn = (request: RecordedRequest) => objectsOf(request).length;
/** The keys an object sets, its identifier and the update-only flag aside (the bench sends external IDs). */
export const valuesIn = (request: RecordedRequest) =>
	objectsOf(request).reduce(
		(sum, object) =>
			sum + Object.keys(object).filter((key) => key !== 'external_id' && key !== '_update_existing_only').length,
		0,
	);

/** The record as n8n's database keeps it: {"mode":"entries","data":[...]} as JSON. */
const recordMb = (entries: string[]) =>
	+(Buffer.byteLength(JSON.stringify({ mode: 'entries', data: entries })) / 1024 / 1024).toFixed(2);

export async function sendOnlyChanges(
	client: SandboxClient,
	sandboxUrl: string,
	latencyMs: number,
	open: RateLimits,
	count = CONTACTS,
): Promise<IDataObject> {
	console.log(
		`\n6. Send Only Changes: a nightly sync of ${count.toLocaleString('en')} contacts (${ATTRIBUTES_PER_CONTACT} attributes each) run again with ${CHANGED_SHARE * 100}% of the attribute values changed, then unchanged; ${latencyMs} ms latency\n`,
	);
	const store = deduplicationStore();
	store.reset();
	await prepareSandbox(client, latencyMs, open);
	await client.configure({ logBodies: true });

	const changed = `${CHANGED_SHARE * 100}% of values changed`;
	const runs: SyncRun[] = [];
	runs.push(await sync(client, sandboxUrl, 'first run', contacts(count)));
	runs.push(await sync(client, sandboxUrl, changed, contacts(count, CHANGED_SHARE)));
	runs.push(await sync(client, sandboxUrl, 'nothing changed', contacts(count, CHANGED_SHARE)));
	console.table(runs);

	const share = runs[1].attributeValues / runs[0].attributeValues;
	const objectShare = runs[1].attributeObjects / runs[0].attributeObjects;
	console.log(
		`   second run against the first: ${runs[1].requests} / ${runs[0].requests} requests, ${runs[1].attributeObjects} / ${runs[0].attributeObjects} attribute objects = ${(objectShare * 100).toFixed(2)}%, ${runs[1].attributeValues} / ${runs[0].attributeValues} attribute values = ${(share * 100).toFixed(2)}% (target at most ${TARGET_SHARE * 100}% of the values: ${share <= TARGET_SHARE ? 'met' : 'NOT met'})`,
	);

	// The same nights with Resend Everything Every (Days) at its default: the share it adds.
	store.reset();
	await client.reset();
	await client.configure({ latencyMs, logBodies: true, rateLimits: open });
	const withResend: SyncRun[] = [];
	const night = (label: string, items: IDataObject[]) =>
		sync(client, sandboxUrl, `resend every ${RESEND_EVERY_DAYS} days: ${label}`, items, undefined, RESEND_EVERY_DAYS);
	withResend.push(await night('first run', contacts(count)));
	withResend.push(await night(changed, contacts(count, CHANGED_SHARE)));
	withResend.push(await night('nothing changed', contacts(count, CHANGED_SHARE)));
	console.table(withResend);
	const staleness = withResend[2].attributeValues / withResend[0].attributeValues;
	const resendShare = withResend[1].attributeValues / withResend[0].attributeValues;
	console.log(
		`   with the resend at ${RESEND_EVERY_DAYS} days: ${(resendShare * 100).toFixed(2)}% of the first run's attribute values when ${CHANGED_SHARE * 100}% changed, of which the resend's share is ${(staleness * 100).toFixed(2)}% (target at most ${TARGET_SHARE * 100}% plus that share: ${resendShare <= TARGET_SHARE + staleness ? 'met' : 'NOT met'})`,
	);

	// Past History Size: a store capped below what a run needs loses the oldest and sends them again.
	const cap = count * (ATTRIBUTES_PER_CONTACT + 1);
	store.reset();
	await client.reset();
	await client.configure({ latencyMs, logBodies: true, rateLimits: open });
	const capped: SyncRun[] = [];
	capped.push(await sync(client, sandboxUrl, 'capped: first run', contacts(count), cap));
	capped.push(await sync(client, sandboxUrl, `capped: ${changed}`, contacts(count, CHANGED_SHARE), cap));
	capped.push(await sync(client, sandboxUrl, 'capped: nothing changed', contacts(count, CHANGED_SHARE), cap));
	console.log(`   History Size ${cap.toLocaleString('en')} (about half of what a run checking needs):`);
	console.table(capped);

	const sizes = storeSizes(count);
	console.table(sizes);
	await client.configure({ logBodies: false });
	return {
		runs,
		attributeValueShare: +share.toFixed(4),
		attributeObjectShare: +objectShare.toFixed(4),
		target: TARGET_SHARE,
		withResend,
		resendShare: +resendShare.toFixed(4),
		stalenessShare: +staleness.toFixed(4),
		capped,
		storeSizes: sizes,
	};
}

/**
 * Resend Everything Every's entries a contact holds while a run checks: up to four asking when it is due,
 * written by the execution before and by the run itself, and the execution before's answer.
 */
const RESEND_ENTRIES_PER_CONTACT = 2 * 4 + 1;

/**
 * The record Send Only Changes keeps for `users` contacts of ATTRIBUTES_PER_CONTACT attributes at its
 * largest, while a run checks: per contact an entry for each attribute's value and one that the execution
 * wrote it, for the execution before and the run's own, and Resend Everything Every's. Its size as n8n's
 * database row, and the time n8n's check takes over it (load the set, hash a run's entries, look each up:
 * the run's own and the execution before's), as n8n's store does it.
 */
function storeSizes(users: number): IDataObject[] {
	const md5 = (value: string) => createHash('md5').update(value).digest('base64');
	const perExecution = users * (ATTRIBUTES_PER_CONTACT + 1);
	const perContact = 2 * (ATTRIBUTES_PER_CONTACT + 1) + RESEND_ENTRIES_PER_CONTACT;
	const entries = Array.from({ length: users * perContact }, (_, i) => md5(`entry ${i}`));
	const started = Date.now();
	const seen = new Set(entries);
	const looked = perExecution + users * ATTRIBUTES_PER_CONTACT;
	let found = 0;
	for (let i = 0; i < looked; i++) if (seen.has(md5(`entry ${i}`))) found++;
	if (found !== looked) throw new Error('the check lost an entry');
	return [{ users, entries: entries.length, recordMb: recordMb(entries), checkMs: Date.now() - started }];
}
