import { AsyncLocalStorage } from 'node:async_hooks';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RecordedRequest } from '../../sandbox';
import type { RunResult } from '../harness';
import { runWorkflow } from '../harness';
import type { StoreRace } from '../harness/deduplicationStore';
import { deduplicationStore, duplicateKeyError, raceWithRoundTrips } from '../harness/deduplicationStore';
import { SUBSCRIPTION, SUBSCRIPTION_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { OUTPUT_FIELD, statusOf, wordsOf } from '../support/nodeWords';
import { useSandbox } from './sandboxLifecycle';

/**
 * Send Only Changes, as a nightly sync meets it: one saved workflow (its id and its node's id stay
 * the same from run to run) run again and again, with n8n's deduplication store (here an in-memory
 * implementation of n8n's own store interface) keeping what the node sent.
 */
const { sandbox, client, apiKey } = useSandbox({ subscriptionGroups: ['newsletter'] });
const store = deduplicationStore();
const WORKFLOW_ID = 'nightly-sync';
const NODE_ID = 'c0ffee00-0000-4000-8000-000000000001';

beforeEach(() => store.reset());

type Contact = { id: string; plan: string; city?: string };
const contacts = (count: number): Contact[] =>
	Array.from({ length: count }, (_, i) => ({ id: `crm-${i}`, plan: ['gold', 'silver', 'bronze'][i % 3] }));

async function runSync(
	type: string,
	name: string,
	items: IDataObject[],
	parameters: INodeParameters,
	continueOnFail = false,
): Promise<RunResult> {
	return await runWorkflow({
		workflowId: WORKFLOW_ID,
		nodes: [{ id: NODE_ID, name, type, parameters, continueOnFail }],
		connections: { Start: { main: [[{ node: name, type: 'main', index: 0 }]] } },
		items,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
	});
}

const attributesSync = (options: IDataObject = {}): INodeParameters => ({
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	attributesInput: 'json',
	attributesJson: '={{ { plan: $json.plan, ...($json.city ? { home_city: $json.city } : {}) } }}',
	options: { sendOnlyChanges: true, resendEveryDays: 0, ...options },
});

const syncAttributes = async (items: IDataObject[], options: IDataObject = {}, continueOnFail = false) =>
	await runSync(USER_NODE, USER, items, attributesSync(options), continueOnFail);

/** The external IDs of the attribute objects of accepted requests since `after` (a request sequence number). */
async function attributesSent(after = 0): Promise<string[]> {
	const requests = (await client().requests({ path: '/users/track' })).filter(
		(request: RecordedRequest) => request.seq > after && request.status < 300,
	);
	return requests.flatMap((request) =>
		((request.body as { attributes?: IDataObject[] }).attributes ?? []).map((object) => String(object.external_id)),
	);
}

/** An answer's status word (where the node puts its words in an item). */
const statusOfItem = (entry: INodeExecutionData) => statusOf(entry.json);
/** An answer's error, as text. */
const errorOf = (entry: INodeExecutionData) => String(entry.json.error);

const pause = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const lastSeq = async () => (await client().requests()).reduce((max, request) => Math.max(max, request.seq), 0);
const itemOf = (entry: INodeExecutionData) => (entry.pairedItem as { item: number }).item;

describe('Send Only Changes on Update Attributes', () => {
	test('1,000 contacts synced three times: all sent, then none, then only the 20 that changed', async () => {
		const crm = contacts(1000);

		const first = await syncAttributes(crm);
		expect(first.error).toBeUndefined();
		expect(first.output(USER).map(({ json }) => statusOf(json))).toEqual(crm.map(() => 'updated'));
		const firstSent = await attributesSent();
		expect(firstSent.sort()).toEqual(crm.map(({ id }) => id).sort());

		const before = await lastSeq();
		const second = await syncAttributes(crm);
		expect(second.error).toBeUndefined();
		expect(await attributesSent(before)).toEqual([]);
		const answers = second.output(USER);
		expect(answers.map(itemOf)).toEqual(crm.map((_, index) => index));
		// The answer keeps the contact's fields as they came, the node's words beside them.
		expect(answers.map(({ json }) => json)).toEqual(
			crm.map((contact) => ({ ...contact, [OUTPUT_FIELD]: { status: 'unchanged', external_id: contact.id } })),
		);
		expect(second.logs.map(({ message }) => message)).toContainEqual(
			expect.stringContaining('1000 items → 0 requests: 0 succeeded, 0 failed, 1000 unchanged and not sent'),
		);
		expect(second.run.data.resultData.runData[USER][0].hints).toContainEqual(
			expect.objectContaining({ message: expect.stringContaining('1000 items were not sent') }),
		);

		const changed = new Set(Array.from({ length: 20 }, (_, i) => `crm-${i * 50 + 7}`));
		const tomorrow = crm.map((contact) => (changed.has(contact.id) ? { ...contact, plan: 'platinum' } : contact));
		const before3 = await lastSeq();
		const third = await syncAttributes(tomorrow);
		expect(third.error).toBeUndefined();
		expect((await attributesSent(before3)).sort()).toEqual([...changed].sort());
		expect(
			await client()
				.requests({ path: '/users/track' })
				.then((all) => all.filter((r) => r.seq > before3)),
		).toHaveLength(1);
		for (const [index, { json }] of third.output(USER).entries()) {
			expect(statusOf(json)).toBe(changed.has(tomorrow[index].id) ? 'updated' : 'unchanged');
		}
		const profiles = (await client().state()).profiles;
		expect(
			profiles
				.filter((profile) => profile.custom_attributes.plan === 'platinum')
				.map((p) => p.external_id)
				.sort(),
		).toEqual([...changed].sort());
	});

	test('a contact with one of five attributes changed sends that attribute alone, with its identifier', async () => {
		const crm = contacts(3).map((contact) => ({ ...contact, city: 'Porto', tier: 'member', region: 'EU', lang: 'pt' }));
		const five = {
			...attributesSync(),
			attributesJson:
				'={{ { plan: $json.plan, home_city: $json.city, tier: $json.tier, region: $json.region, language: $json.lang } }}',
		};
		const first = await runSync(USER_NODE, USER, crm, five);
		expect(first.output(USER).map(({ json }) => wordsOf(json).attributes_set)).toEqual([5, 5, 5]);

		const moved = crm.map((contact, index) => (index === 1 ? { ...contact, city: 'Lisbon' } : contact));
		const before = await lastSeq();
		const second = await runSync(USER_NODE, USER, moved, five);
		expect(second.error).toBeUndefined();
		const requests = (await client().requests({ path: '/users/track' })).filter((request) => request.seq > before);
		// One accepted request, holding one object: the identifier and the changed attribute, nothing else.
		expect(requests.map((request) => request.status < 300)).toEqual([true]);
		expect((requests[0].body as { attributes: IDataObject[] }).attributes).toEqual([
			{ external_id: 'crm-1', home_city: 'Lisbon' },
		]);
		expect(second.output(USER).map(itemOf)).toEqual([0, 1, 2]);
		expect(second.output(USER).map(({ json }) => wordsOf(json))).toEqual([
			{ status: 'unchanged', external_id: 'crm-0' },
			{
				status: 'updated',
				external_id: 'crm-1',
				attributes_set: 1,
				sent: { home_city: 'Lisbon' },
				unchanged: ['language', 'plan', 'region', 'tier'],
			},
			{ status: 'unchanged', external_id: 'crm-2' },
		]);
		// The platform holds all five, the four left out as the first run set them.
		const profile = (await client().state()).profiles.find(({ external_id }) => external_id === 'crm-1');
		expect({ ...profile?.standard_attributes, ...profile?.custom_attributes }).toMatchObject({
			plan: 'silver',
			home_city: 'Lisbon',
			tier: 'member',
			region: 'EU',
			language: 'pt',
		});

		// The run after: the new city is what the workflow last had accepted, so nothing is sent.
		const before3 = await lastSeq();
		const third = await runSync(USER_NODE, USER, moved, five);
		expect(await attributesSent(before3)).toEqual([]);
		expect(third.output(USER).map(({ json }) => statusOf(json))).toEqual(['unchanged', 'unchanged', 'unchanged']);
	});

	test('key order and a field newly added count as they should: reordered keys are unchanged, a new attribute is a change', async () => {
		const crm = contacts(10);
		const columns = (json: string) => ({ ...attributesSync(), attributesJson: json });
		await runSync(USER_NODE, USER, crm, columns('={{ { plan: $json.plan, tier: "member", region: "EU" } }}'));

		const before0 = await lastSeq();
		const reordered = await runSync(
			USER_NODE,
			USER,
			crm,
			columns('={{ { region: "EU", tier: "member", plan: $json.plan } }}'),
		);
		expect(await attributesSent(before0)).toEqual([]);
		expect(reordered.output(USER).map(({ json }) => statusOf(json))).toEqual(crm.map(() => 'unchanged'));

		const moved = crm.map((contact, index) => (index === 3 ? { ...contact, city: 'Lisbon' } : contact));
		const before = await lastSeq();
		const withCity = await runSync(
			USER_NODE,
			USER,
			moved,
			columns(
				'={{ { region: "EU", tier: "member", plan: $json.plan, ...($json.city ? { home_city: $json.city } : {}) } }}',
			),
		);
		expect(await attributesSent(before)).toEqual(['crm-3']);
		expect(wordsOf(withCity.output(USER)[3].json)).toMatchObject({ status: 'updated', external_id: 'crm-3' });
	});

	test('an object the platform refused is sent again next run; an accepted one is not', async () => {
		const crm = contacts(10);
		await client().seed({ profiles: crm.filter((_, index) => index !== 9).map(({ id }) => ({ external_id: id })) });
		const existingOnly = { additionalFields: { _update_existing_only: true } };

		const first = await runSync(USER_NODE, USER, crm, { ...attributesSync(), ...existingOnly }, true);
		expect(wordsOf(first.output(USER)[9].json)).toMatchObject({ status: 'failed', delivery: 'not_applied' });
		expect(first.output(USER).filter(({ json }) => statusOf(json) === 'updated')).toHaveLength(9);

		await client().seed({ profiles: [{ external_id: 'crm-9' }] });
		const before = await lastSeq();
		const second = await runSync(USER_NODE, USER, crm, { ...attributesSync(), ...existingOnly }, true);
		expect(await attributesSent(before)).toEqual(['crm-9']);
		expect(second.output(USER).map(({ json }) => statusOf(json))).toEqual([
			...crm.slice(0, 9).map(() => 'unchanged'),
			'updated',
		]);
	});

	test('with Forget What Was Sent every item is sent, and remembered anew', async () => {
		const crm = contacts(30);
		await syncAttributes(crm);

		const before = await lastSeq();
		const forgot = await syncAttributes(crm, { forgetSent: true });
		expect((await attributesSent(before)).length).toBe(30);
		expect(forgot.output(USER).map(({ json }) => statusOf(json))).toEqual(crm.map(() => 'updated'));
		expect(store.calls.map(({ method }) => method)).toContain('clearAllProcessedItems');

		const again = await syncAttributes(crm);
		expect(again.output(USER).map(({ json }) => statusOf(json))).toEqual(crm.map(() => 'unchanged'));
	});

	test('when n8n cannot record the end of a run, its items keep their answers and the next two runs send everything', async () => {
		const crm = contacts(40);
		await syncAttributes(crm);
		await syncAttributes(crm);
		const tomorrow = crm.map((contact, index) => (index < 5 ? { ...contact, plan: 'platinum' } : contact));

		// The database goes away once the run has checked its items (its third check: the run's
		// registers, what the run before left, then the items' values).
		const checksBefore = store.calls.length;
		store.failWhen = (_, calls) =>
			calls.slice(checksBefore).filter((call) => call.method === 'checkProcessedAndRecord').length >= 3;
		const cut = await syncAttributes(tomorrow);
		store.failWhen = undefined;
		expect(cut.error).toBeUndefined();
		expect(cut.output(USER).map(({ json }) => statusOf(json))).toEqual(
			tomorrow.map((_, index) => (index < 5 ? 'updated' : 'unchanged')),
		);
		expect(cut.run.data.resultData.runData[USER][0].hints).toContainEqual(
			expect.objectContaining({ message: expect.stringContaining('next run sends every item') }),
		);

		const before = await lastSeq();
		const next = await syncAttributes(tomorrow);
		expect(next.error).toBeUndefined();
		expect((await attributesSent(before)).length).toBe(40);
		expect(next.logs.map(({ message }) => message)).toContainEqual(
			expect.stringContaining('a run that did not finish or overlapped another'),
		);
		// The run after an unfinished one cannot tell a stopped run from one still sending: its own
		// generation is in doubt too, so the next run sends everything once more.
		const before2 = await lastSeq();
		await syncAttributes(tomorrow);
		expect((await attributesSent(before2)).length).toBe(40);
		const after = await syncAttributes(tomorrow);
		expect(after.output(USER).map(({ json }) => statusOf(json))).toEqual(crm.map(() => 'unchanged'));
	});

	test('when n8n cannot check what was sent, nothing is sent and every item leaves by the error branch, saying why', async () => {
		const crm = contacts(12);
		store.failOn = 'checkProcessedAndRecord';
		const before = await lastSeq();
		const result = await runWorkflow({
			workflowId: WORKFLOW_ID,
			nodes: [
				{ id: NODE_ID, name: USER, type: USER_NODE, parameters: attributesSync(), onError: 'continueErrorOutput' },
			],
			connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
			items: crm,
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		});
		const stopped = await syncAttributes(crm);
		store.failOn = undefined;

		expect(await lastSeq()).toBe(before);
		expect(result.output(USER, 0)).toEqual([]);
		const failed = result.output(USER, 1);
		expect(failed.map(itemOf)).toEqual(crm.map((_, index) => index));
		for (const { json } of failed) {
			expect(String(json.error)).toContain('Send Only Changes could not check what this node sent before');
			expect(String(json.message)).toContain('turn off Send Only Changes');
		}
		// The store is the run's: said once, no item blamed for it.
		expect(stopped.error?.message).toMatch(/^Send Only Changes could not check/);
		expect((stopped.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBeUndefined();
	});

	test("a night takes out of the workflow's record only the run's own entries: n8n searches the whole record for each", async () => {
		const crm = contacts(200);
		await syncAttributes(crm);
		const tomorrow = crm.map((contact, index) => (index % 10 === 0 ? { ...contact, plan: 'platinum' } : contact));
		for (const night of [crm, tomorrow, tomorrow]) {
			store.calls.length = 0;
			await syncAttributes(night);
			const takenOut = store.calls.filter(({ method, scope }) => method === 'removeProcessed' && scope === 'workflow');
			// The run's running mark, its own entry and the confirmation its new values replace.
			expect(takenOut.map(({ items }) => items)).toEqual([3]);
			expect(
				store.calls.filter(({ method, scope }) => method === 'checkProcessedAndRecord' && scope === 'workflow'),
			).toHaveLength(2);
		}
	});

	test("a small History Size bounds what is remembered of contacts, not the node's own record of its runs", async () => {
		// Three contacts of one attribute need about 20 entries of the workflow's record; the node's record of
		// its runs holds about 200 whatever the History Size.
		const crm = contacts(3);
		await syncAttributes(crm, { historySize: 40 });
		const again = await syncAttributes(crm, { historySize: 40 });
		expect(again.output(USER).map(statusOfItem)).toEqual(crm.map(() => 'unchanged'));
	});

	test('past History Size the oldest are forgotten and sent again once; every item still gets one answer', async () => {
		const crm = contacts(1000);
		await syncAttributes(crm, { historySize: 500 });
		expect(store.workflowEntriesOf(WORKFLOW_ID).length).toBeLessThanOrEqual(500);

		const before = await lastSeq();
		const second = await syncAttributes(crm, { historySize: 500 });
		const resent = await attributesSent(before);
		const statuses = second.output(USER).map(({ json }) => statusOf(json));
		expect(second.output(USER).map(itemOf)).toEqual(crm.map((_, index) => index));
		expect(resent.length).toBeGreaterThanOrEqual(500);
		expect(resent.length).toBeLessThan(1000);
		expect(statuses.filter((status) => status === 'updated')).toHaveLength(resent.length);
		expect(statuses.filter((status) => status === 'unchanged')).toHaveLength(1000 - resent.length);
		// The forgotten ones are the oldest: the first contacts of the first run.
		expect(resent).toContain('crm-0');
	});

	test('off by default: without the option nothing is kept and everything is sent', async () => {
		const crm = contacts(5);
		const parameters = { ...attributesSync(), options: {} };
		await runSync(USER_NODE, USER, crm, parameters);
		const before = await lastSeq();
		await runSync(USER_NODE, USER, crm, parameters);
		expect((await attributesSent(before)).length).toBe(5);
		// It only forgets what another node of the workflow may remember, at its start and its end, since
		// it writes past it: nothing about its users is kept.
		expect(store.calls.map(({ method }) => method)).toEqual(Array(4).fill('clearAllProcessedItems'));
		expect(store.workflowEntriesOf(WORKFLOW_ID)).toEqual([]);
	});
});

describe("Send Only Changes with two executions at once (queue mode: n8n's store read, then written, by each)", () => {
	// n8n's store as it is under concurrency: each call reads the row, waits a database round trip, then
	// inserts it (failing with Postgres' duplicate key error if another call created it meanwhile) or
	// writes it back whole (see StoreRace in test/harness/deduplicationStore.ts).
	beforeEach(() => {
		store.race = raceWithRoundTrips(5);
	});

	test('two first runs at once against an empty store: neither fails, both send, and the runs after them converge', async () => {
		const crm = contacts(30);
		const [a, b] = await Promise.all([syncAttributes(crm), syncAttributes(crm)]);
		// The race n8n's store has was run into: both read no row, the second insert failed.
		expect(store.raced.duplicateKeys).toBeGreaterThan(0);
		for (const run of [a, b]) {
			expect(run.error).toBeUndefined();
			expect(run.output(USER).map(statusOfItem)).toEqual(crm.map(() => 'updated'));
		}
		expect((await attributesSent()).length).toBe(60);
		store.race = undefined;

		// They overlapped: either may have landed last, so the next run sends everything once.
		const before = await lastSeq();
		const next = await syncAttributes(crm);
		expect(next.output(USER).map(statusOfItem)).toEqual(crm.map(() => 'updated'));
		expect((await attributesSent(before)).length).toBe(30);
		const after = await syncAttributes(crm);
		expect(after.output(USER).map(statusOfItem)).toEqual(crm.map(() => 'unchanged'));
	});

	for (const database of ['postgres', 'sqlite', 'mysql'] as const) {
		test(`the creation race as ${database} words it: the run that lost it makes its call again and sends`, async () => {
			store.race = raceWithRoundTrips(5, database);
			const crm = contacts(3);
			const runs = await Promise.all([syncAttributes(crm), syncAttributes(crm)]);
			expect(store.raced.duplicateKeys).toBeGreaterThan(0);
			for (const run of runs) {
				expect(run.error).toBeUndefined();
				expect(run.output(USER).map(statusOfItem)).toEqual(crm.map(() => 'updated'));
			}
		});
	}

	test('a store error other than a lost creation race is not made again: the run sends nothing and says why', async () => {
		store.race = undefined;
		// The first call fails (as when the database goes away for a moment); made again, it would pass.
		let calls = 0;
		store.failWhen = (method) => method === 'checkProcessedAndRecord' && ++calls === 1;
		const run = await syncAttributes(contacts(3), {}, true);
		expect(calls).toBe(1);
		expect(run.output(USER).map(errorOf)).toEqual(
			contacts(3).map(() => expect.stringContaining('could not check what this node sent before')),
		);
		expect(await attributesSent()).toEqual([]);
	});

	test('a creation race lost every time is given up after four calls: the run sends nothing and says why', async () => {
		store.race = undefined;
		let calls = 0;
		store.failWhen = (method) => method === 'checkProcessedAndRecord' && ++calls > 0;
		store.failWith = () => duplicateKeyError('postgres', WORKFLOW_ID, '');
		const run = await syncAttributes(contacts(3), {}, true);
		expect(calls).toBe(4);
		expect(errorOf(run.output(USER)[0])).toContain('duplicate key value violates unique constraint');
		expect(await attributesSent()).toEqual([]);
	});

	for (const gapMs of [0, 3]) {
		test(`two runs at once with different values (the second ${gapMs} ms after the first, whose request is answered late), on a store both read and write back whole: the next run leaves out nothing the platform does not hold`, async () => {
			const crm = contacts(12);
			store.race = undefined;
			await syncAttributes(crm);
			store.race = raceWithRoundTrips(2);
			// a moves every contact to gold, b to silver; a's request is applied at once and answered late.
			const gold = crm.map((contact) => ({ ...contact, plan: 'gold' }));
			const silver = crm.map((contact) => ({ ...contact, plan: 'silver' }));
			await client().injectFaults([{ path: '/users/track', kind: 'slow', delayMs: 5, times: 1 }]);
			const a = syncAttributes(gold);
			await pause(gapMs);
			const b = syncAttributes(silver);
			const [first, second] = await Promise.all([a, b]);
			expect(first.error).toBeUndefined();
			expect(second.error).toBeUndefined();
			store.race = undefined;

			// Each contact's other value: the store must not say the platform holds it.
			const held = async () => {
				const profiles = (await client().state()).profiles;
				return crm.map(({ id }) => profiles.find((profile) => profile.external_id === id)?.custom_attributes.plan);
			};
			const other = (await held()).map((plan, index) => ({ ...crm[index], plan: plan === 'gold' ? 'silver' : 'gold' }));
			const next = await syncAttributes(other);
			expect(next.output(USER).map(statusOfItem)).toEqual(crm.map(() => 'updated'));
			expect(await held()).toEqual(other.map(({ plan }) => plan));
		});
	}
});

/**
 * A scripted interleaving of two runs' calls to n8n's racing store. Calls are named by run and number
 * (`a3`: run a's third call, each a read then a write); `holds` says which call waits, before its read
 * or before its write, for which event of the other run (`b1 read`, `a4 written`), at most `timeoutMs`
 * (a run that does not make that call any more, having taken another way, does not stall the other).
 */
function scripted(holds: Record<string, string>, timeoutMs = 1000) {
	const runOf = new AsyncLocalStorage<string>();
	const calls = new Map<string, number>();
	const happened = new Set<string>();
	const waiting: Array<{ event: string; resolve: () => void }> = [];
	const current = () => `${runOf.getStore() ?? '?'}${calls.get(runOf.getStore() ?? '?') ?? 0}`;
	const happen = (event: string) => {
		happened.add(event);
		for (const waiter of waiting.filter((candidate) => candidate.event === event)) waiter.resolve();
	};
	const until = async (event: string | undefined) => {
		if (event === undefined || happened.has(event)) return;
		let timer: NodeJS.Timeout | undefined;
		await new Promise<void>((resolve) => {
			waiting.push({ event, resolve });
			timer = setTimeout(resolve, timeoutMs);
		});
		clearTimeout(timer);
	};
	const race: StoreRace = {
		database: 'postgres',
		before: async () => {
			const run = runOf.getStore() ?? '?';
			calls.set(run, (calls.get(run) ?? 0) + 1);
			await until(holds[`${current()} read`]);
		},
		between: async () => {
			const call = current();
			happen(`${call} read`);
			await until(holds[`${call} write`]);
		},
		after: () => happen(`${current()} written`),
	};
	return { race, run: async <T>(name: string, work: () => Promise<T>) => await runOf.run(name, work) };
}

describe("Send Only Changes when two runs overwrite each other in n8n's store", () => {
	test('two runs that both read the store before either wrote: the one whose entry was overwritten trusts nothing and makes the next run send', async () => {
		await syncAttributes([{ id: 'crm-1', plan: 'bronze' }]);
		// Calls: 1 reads the node's registers, 2 takes back its probes, 3 opens the run and reads what was
		// sent before, 4 records the end, 5 takes back, 6 and 7 keep the registers. a and b both read the
		// store before either wrote (each alone, by what it read), and b's write goes over a's. a sends gold,
		// answered 503 and sent again after a pause; b's silver lands meanwhile, so the platform ends on a's
		// gold. b's end reads the store before a's end writes it and writes it back after, over a's: b's
		// generation, with its silver, is what the store says the platform holds.
		const { race, run } = scripted({
			'a3 write': 'b3 read',
			'b3 write': 'a3 written',
			'b4 write': 'a5 written',
		});
		await client().injectFaults([{ path: '/users/track', kind: 'status', status: 503, times: 1 }]);
		store.race = race;
		const [a, b] = await Promise.all([
			run('a', async () => await syncAttributes([{ id: 'crm-1', plan: 'gold' }])),
			run('b', async () => await syncAttributes([{ id: 'crm-1', plan: 'silver' }])),
		]);
		store.race = undefined;
		expect([a, b].map((result) => result.output(USER).map(statusOfItem))).toEqual([['updated'], ['updated']]);
		const plan = async () =>
			(await client().state()).profiles.find((profile) => profile.external_id === 'crm-1')?.custom_attributes.plan;
		expect(await plan()).toBe('gold');

		const next = await syncAttributes([{ id: 'crm-1', plan: 'silver' }]);
		expect(next.output(USER).map(statusOfItem)).toEqual(['updated']);
		expect(await plan()).toBe('silver');
	});
});

describe('Send Only Changes on Track User Data', () => {
	const parameters = (options: IDataObject = {}): INodeParameters => ({
		operation: 'trackUserData',
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
		attributesInput: 'json',
		attributesJson: '={{ { plan: $json.plan } }}',
		eventsJson: '={{ [{ name: "synced", time: "2026-11-24T02:00:00Z" }] }}',
		options: { sendOnlyChanges: true, resendEveryDays: 0, ...options },
	});

	test('unchanged attributes are left out, the events of the same items are always sent', async () => {
		const crm = contacts(10);
		await runSync(USER_NODE, USER, crm, parameters());

		const before = await lastSeq();
		const second = await runSync(USER_NODE, USER, crm, parameters());
		expect(await attributesSent(before)).toEqual([]);
		expect((await client().state()).events.filter((event) => event.name === 'synced')).toHaveLength(20);
		// The answer says what happened, beside the contact's fields as they came.
		expect(second.output(USER)[0].json).toEqual({
			...crm[0],
			[OUTPUT_FIELD]: {
				status: 'tracked',
				external_id: 'crm-0',
				events_tracked: 1,
				unchanged: ['plan'],
			},
		});
	});

	test('attributes whose request may or may not have been stored (a reset with events aboard) are sent again next run', async () => {
		const crm = contacts(4);
		await client().injectFaults([{ path: '/users/track', times: 1, kind: 'reset-after' }]);
		const first = await runSync(USER_NODE, USER, crm, parameters(), true);
		expect(first.output(USER).map(({ json }) => wordsOf(json).delivery)).toEqual(crm.map(() => 'maybe_applied'));

		const before = await lastSeq();
		const second = await runSync(USER_NODE, USER, crm, parameters(), true);
		expect((await attributesSent(before)).sort()).toEqual(crm.map(({ id }) => id).sort());
		expect(second.output(USER).map(({ json }) => statusOf(json))).toEqual(crm.map(() => 'tracked'));

		const third = await runSync(USER_NODE, USER, crm, parameters(), true);
		expect(third.output(USER).map(({ json }) => wordsOf(json).unchanged)).toEqual(crm.map(() => ['plan']));
	});
});

describe('Send Only Changes on Set Group State', () => {
	const parameters = (state: string): INodeParameters => ({
		operation: 'setGroupState',
		subscriptionGroupId: 'newsletter',
		subscriptionState: state,
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
		options: { sendOnlyChanges: true, resendEveryDays: 0 },
	});
	const usersIn = async (after: number) =>
		(await client().requests({ path: '/v2/subscription/status/set' }))
			.filter((request) => request.seq > after)
			.flatMap((request) =>
				(request.body as { subscription_groups: Array<{ external_ids?: string[] }> }).subscription_groups.flatMap(
					(element) => element.external_ids ?? [],
				),
			);

	test('the subscription answer proves nothing, so every state is sent each run: a user unknown at first gets it once known', async () => {
		const users = contacts(6);
		await client().seed({ profiles: users.slice(0, 3).map(({ id }) => ({ external_id: id })) });
		await runSync(SUBSCRIPTION_NODE, SUBSCRIPTION, users, parameters('subscribed'));
		const groups = async () => (await client().state()).subscriptionGroups.newsletter ?? {};
		expect(Object.keys(await groups())).toHaveLength(3);

		await client().seed({ profiles: users.slice(3).map(({ id }) => ({ external_id: id })) });
		const before = await lastSeq();
		const again = await runSync(SUBSCRIPTION_NODE, SUBSCRIPTION, users, parameters('subscribed'));
		expect(await usersIn(before)).toEqual(users.map(({ id }) => id));
		expect(again.output(SUBSCRIPTION).map(({ json }) => statusOf(json))).toEqual(users.map(() => 'subscribed'));
		expect(Object.values(await groups())).toEqual(users.map(() => 'subscribed'));
	});
});

describe('never left out', () => {
	test('Track Event and Track Purchase have no Send Only Changes: every occurrence is sent', async () => {
		const events = Array.from({ length: 3 }, () => ({ id: 'crm-1' }));
		const parameters: INodeParameters = {
			operation: 'trackEvent',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
			eventName: 'visited',
			time: '2026-11-24T02:00:00Z',
			options: { sendOnlyChanges: true, resendEveryDays: 0 },
		};
		await runSync(USER_NODE, USER, events, parameters);
		await runSync(USER_NODE, USER, events, parameters);
		expect((await client().state()).events.filter((event) => event.name === 'visited')).toHaveLength(6);
		expect(store.calls).toEqual([]);
	});
});
