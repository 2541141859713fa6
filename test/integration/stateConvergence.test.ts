import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { DEMO_API_KEY, SandboxClient, startSandbox } from '../../sandbox';
import type { RunResult } from '../harness';
import { runWorkflow } from '../harness';
import { deduplicationStore, raceWithRoundTrips } from '../harness/deduplicationStore';
import { SUBSCRIPTION, SUBSCRIPTION_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { useSandbox } from './sandboxLifecycle';

/**
 * The platform ends a run on what the workflow last said, for every user and part of state, whatever
 * the batching, the requests in flight, the resends, the nodes and the runs before. Each test is one
 * of the sequences real workflows produce that once left the platform on an earlier word.
 */
const { sandbox, client, apiKey } = useSandbox({ subscriptionGroups: ['newsletter'] });
const store = deduplicationStore();
beforeEach(() => store.reset());

let runs = 0;
async function run(
	type: string,
	name: string,
	items: IDataObject[],
	parameters: INodeParameters,
	{ workflowId = 'state', nodeId = 'node-1', url = sandbox().url } = {},
): Promise<RunResult> {
	return await runWorkflow({
		workflowId,
		executionId: `state-${++runs}`,
		nodes: [{ id: nodeId, name, type, parameters, continueOnFail: true }],
		connections: { Start: { main: [[{ node: name, type: 'main', index: 0 }]] } },
		items,
		credentials: { engagementPlatformApi: { restEndpoint: url, apiKey } },
	});
}

const attributes = (options: INodeParameters = {}): INodeParameters => ({
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	attributesInput: 'json',
	attributesJson: '={{ $json.attrs }}',
	options,
});
const sendOnlyChanges = { sendOnlyChanges: true, resendEveryDays: 0 };

const groupState = (identifyBy: 'external_id' | 'email', options: INodeParameters = {}): INodeParameters => ({
	operation: 'setGroupState',
	subscriptionGroupId: 'newsletter',
	subscriptionState: '={{ $json.state }}',
	identifyBy,
	...(identifyBy === 'email' ? { email: '={{ $json.email }}' } : { externalId: '={{ $json.id }}' }),
	options,
});

/** An answer's status word (where the node puts its words in an item). */
const statusOfItem = (entry: INodeExecutionData) => statusOf(entry.json);

const profile = async (externalId: string) =>
	(await client().state()).profiles.find((candidate) => candidate.external_id === externalId);
const attribute = async (externalId: string, key: string) => (await profile(externalId))?.custom_attributes[key];

describe('the same user twice in one run: the later item has the last word', () => {
	for (const [first, last] of [
		['unsubscribed', 'subscribed'],
		['subscribed', 'unsubscribed'],
	]) {
		for (const identifyBy of ['external_id', 'email'] as const) {
			test(`Set Group State by ${identifyBy}: ${first}, then ${last} ends ${last}`, async () => {
				await client().seed({ profiles: [{ external_id: 'x-1', email: 'lena@example.com' }] });
				const items = [
					{ id: 'x-1', email: 'lena@example.com', state: first },
					{ id: 'x-1', email: 'Lena@Example.com', state: last },
				];
				const result = await run(SUBSCRIPTION_NODE, SUBSCRIPTION, items, groupState(identifyBy));
				const state = (await client().state()).subscriptionGroups.newsletter ?? {};
				expect(Object.values(state)).toEqual([last]);
				expect(result.output(SUBSCRIPTION).map(({ json }) => [statusOf(json), wordsOf(json).replacedBy])).toEqual([
					['replaced', 1],
					// The last item answers with the state set.
					[last, undefined],
				]);
				const sent = (await client().requests({ path: '/v2/subscription/status/set' })).flatMap((request) =>
					(request.body as { subscription_groups: IDataObject[] }).subscription_groups.map(
						(element) => element.subscription_state,
					),
				);
				expect(sent).toEqual([last]);
			});
		}
	}

	test('Update Attributes merges per key: a later item setting only tier keeps the earlier city', async () => {
		const items = [
			{ id: 'x', attrs: { city: 'Porto', tier: 'gold' } },
			{ id: 'y', attrs: { tier: 'bronze' } },
			{ id: 'x', attrs: { tier: 'silver' } },
		];
		const result = await run(USER_NODE, USER, items, attributes());
		expect(await attribute('x', 'city')).toBe('Porto');
		expect(await attribute('x', 'tier')).toBe('silver');
		expect(wordsOf(result.output(USER)[0].json)).toMatchObject({ status: 'updated', replaced: { tier: 2 } });
		const objects = (await client().requests({ path: '/users/track' })).flatMap(
			(request) => (request.body as { attributes: IDataObject[] }).attributes,
		);
		expect(objects.filter((object) => object.external_id === 'x')).toEqual([
			{ external_id: 'x', city: 'Porto' },
			{ external_id: 'x', tier: 'silver' },
		]);
	});

	test('76 items in two requests in flight, the first slower: the contact ends on the last item', async () => {
		const items = [
			{ id: 'x', attrs: { plan: 'free' } },
			...Array.from({ length: 74 }, (_, index) => ({ id: `other-${index}`, attrs: { plan: 'basic' } })),
			{ id: 'x', attrs: { plan: 'gold' } },
		];
		await client().injectFaults([{ path: '/users/track', kind: 'slow', delayMs: 300, times: 1 }]);
		const result = await run(USER_NODE, USER, items, attributes({ parallelRequests: 8, batchSize: 75 }));
		expect(await attribute('x', 'plan')).toBe('gold');
		expect(wordsOf(result.output(USER)[0].json)).toMatchObject({ status: 'replaced', replacedBy: 75 });
	});

	test('a 503 on the first request and its resend after the second: still the last item', async () => {
		const items = [
			{ id: 'x', attrs: { plan: 'free' } },
			{ id: 'z', attrs: { plan: 'basic' } },
			{ id: 'x', attrs: { plan: 'gold' } },
		];
		await client().injectFaults([{ path: '/users/track', kind: 'status', status: 503, times: 1 }]);
		await run(USER_NODE, USER, items, attributes({ parallelRequests: 8, batchSize: 1 }));
		expect(await attribute('x', 'plan')).toBe('gold');
	});
});

describe('Send Only Changes remembers the last value accepted, per workspace, user and part', () => {
	test('gold, silver, gold in three runs: the third is sent and 5 of 5 profiles end gold', async () => {
		const ids = ['a', 'b', 'c', 'd', 'e'];
		for (const tier of ['gold', 'silver', 'gold']) {
			const result = await run(
				USER_NODE,
				USER,
				ids.map((id) => ({ id, attrs: { tier } })),
				attributes(sendOnlyChanges),
			);
			expect(result.output(USER).map(({ json }) => statusOf(json))).toEqual(ids.map(() => 'updated'));
		}
		for (const id of ids) expect(await attribute(id, 'tier')).toBe('gold');
	});

	test('two Update Attributes nodes of one workflow: vip, regular, vip leaves vip', async () => {
		for (const [nodeId, segment] of [
			['vip-node', 'vip'],
			['regular-node', 'regular'],
			['vip-node', 'vip'],
		]) {
			await run(USER_NODE, USER, [{ id: 'x', attrs: { segment } }], attributes(sendOnlyChanges), { nodeId });
		}
		expect(await attribute('x', 'segment')).toBe('vip');
	});

	test('a 2xx whose error names no object proves nothing: the next run sends those contacts again', async () => {
		await client().injectFaults([{ path: '/users/track', kind: 'unplaced-error', times: 1 }]);
		const first = await run(USER_NODE, USER, [{ id: 'x', attrs: { tier: 'gold' } }], attributes(sendOnlyChanges));
		expect(wordsOf(first.output(USER)[0].json)).toMatchObject({ status: 'updated', warnings: [expect.any(String)] });
		expect(await attribute('x', 'tier')).toBeUndefined();

		const next = await run(USER_NODE, USER, [{ id: 'x', attrs: { tier: 'gold' } }], attributes(sendOnlyChanges));
		expect(statusOf(next.output(USER)[0].json)).toBe('updated');
		expect(await attribute('x', 'tier')).toBe('gold');
	});

	test('a run with the option off in between: silver, gold without it, silver leaves silver', async () => {
		for (const [tier, options] of [
			['silver', sendOnlyChanges],
			['gold', {}],
			['silver', sendOnlyChanges],
		] as const) {
			await run(USER_NODE, USER, [{ id: 'x', attrs: { tier } }], attributes(options), { nodeId: `${tier}-node` });
		}
		expect(await attribute('x', 'tier')).toBe('silver');
	});

	test('Subscribe and Unsubscribe nodes on IF branches: opt-out, opt-in, opt-out leaves the user unsubscribed', async () => {
		await client().seed({ profiles: [{ external_id: 'lena' }] });
		for (const state of ['unsubscribed', 'subscribed', 'unsubscribed']) {
			await run(SUBSCRIPTION_NODE, SUBSCRIPTION, [{ id: 'lena', state }], groupState('external_id', sendOnlyChanges), {
				nodeId: `${state}-node`,
			});
		}
		expect(Object.values((await client().state()).subscriptionGroups.newsletter ?? {})).toEqual(['unsubscribed']);
	});

	describe('another workspace', () => {
		let production: Sandbox;
		beforeAll(async () => (production = await startSandbox()));
		afterAll(async () => await production.close());

		test('the same workflow switched from staging to production sends everything to production', async () => {
			const items = [{ id: 'x', attrs: { tier: 'gold' } }];
			await run(USER_NODE, USER, items, attributes(sendOnlyChanges));
			const switched = await run(USER_NODE, USER, items, attributes(sendOnlyChanges), { url: production.url });
			expect(statusOf(switched.output(USER)[0].json)).toBe('updated');
			const productionProfiles = (await new SandboxClient(production.url).state()).profiles;
			expect(productionProfiles.find((candidate) => candidate.external_id === 'x')?.custom_attributes.tier).toBe(
				'gold',
			);
			expect(DEMO_API_KEY).toBe(apiKey);
		});
	});

	test('a manual run during the nightly one: the run after them sends, since either may have landed last', async () => {
		// The nightly run's request meets a 503 and is resent after a pause; the manual run's lands meanwhile.
		await client().injectFaults([{ path: '/users/track', kind: 'status', status: 503, times: 1 }]);
		const nightly = run(USER_NODE, USER, [{ id: 'x', attrs: { tier: 'gold' } }], attributes(sendOnlyChanges));
		while ((await client().requests({ path: '/users/track' })).length === 0)
			await new Promise((resolve) => setTimeout(resolve, 10));
		await run(USER_NODE, USER, [{ id: 'x', attrs: { tier: 'silver' } }], attributes(sendOnlyChanges));
		await nightly;
		expect(await attribute('x', 'tier')).toBe('gold');

		const next = await run(USER_NODE, USER, [{ id: 'x', attrs: { tier: 'silver' } }], attributes(sendOnlyChanges));
		expect(statusOf(next.output(USER)[0].json)).toBe('updated');
		expect(await attribute('x', 'tier')).toBe('silver');
	});

	test("found by the sequence suite: a run without the option overlapping one with it, then the second run's rows again", async () => {
		// Shrunk from seed 730362100: run a (option off) meets a 503 and resends after run b (option on) landed.
		await client().injectFaults([{ path: '/users/track', kind: 'status', status: 503, times: 1 }]);
		const a = run(USER_NODE, USER, [{ id: 'u4', attrs: { city: 'Lisbon' } }], attributes(), { nodeId: 'crm' });
		while ((await client().requests({ path: '/users/track' })).length === 0)
			await new Promise((resolve) => setTimeout(resolve, 10));
		await run(USER_NODE, USER, [{ id: 'u4', attrs: { city: 'Quito' } }], attributes(sendOnlyChanges), {
			nodeId: 'crm',
		});
		await a;
		expect(await attribute('u4', 'city')).toBe('Lisbon');

		const again = await run(USER_NODE, USER, [{ id: 'u4', attrs: { city: 'Quito' } }], attributes(sendOnlyChanges), {
			nodeId: 'crm',
		});
		expect(statusOf(again.output(USER)[0].json)).toBe('updated');
		expect(await attribute('u4', 'city')).toBe('Quito');
	});

	test("found by the sequence suite: a run with the option overlapped by one without it, then the first run's rows again", async () => {
		// Shrunk from seed 1261238763: run a (option on) meets a 503; run b (option off) lands silver after a's resend.
		await client().injectFaults([{ path: '/users/track', kind: 'status', status: 503, times: 1 }]);
		const a = run(USER_NODE, USER, [{ id: 'u2', attrs: { tier: 'gold' } }], attributes(sendOnlyChanges), {
			nodeId: 'crm',
		});
		while ((await client().requests({ path: '/users/track' })).length === 0)
			await new Promise((resolve) => setTimeout(resolve, 10));
		const b = run(USER_NODE, USER, [{ id: 'u2', attrs: { tier: 'silver' } }], attributes(), { nodeId: 'crm' });
		await Promise.all([a, b]);

		// Whichever landed last, the run repeating a's rows must leave gold.
		await run(USER_NODE, USER, [{ id: 'u2', attrs: { tier: 'gold' } }], attributes(sendOnlyChanges), { nodeId: 'crm' });
		expect(await attribute('u2', 'tier')).toBe('gold');
	});

	test("found by the sequence suite: two first runs at once on n8n's store, each reading it before the other wrote, then the rows again", async () => {
		// Shrunk from seed 42 (sequence 16): both runs found no store and inserted it; the second insert
		// failed on the row's primary key, and its run sent nothing, saying it could not check the store.
		store.race = raceWithRoundTrips(0);
		await client().injectFaults([{ path: '/users/track', kind: 'slow', delayMs: 5, times: 1 }]);
		const rows = [{ id: 'u1', attrs: { city: 'Lisbon' } }];
		const both = await Promise.all([
			run(USER_NODE, USER, rows, attributes(sendOnlyChanges), { nodeId: 'crm' }),
			run(USER_NODE, USER, rows, attributes(sendOnlyChanges), { nodeId: 'crm' }),
		]);
		store.race = undefined;
		// Both created the node's record and the workflow's at once: each record's second insert failed.
		expect(store.raced.duplicateKeys).toBe(2);
		expect(both.map((result) => result.output(USER).map(statusOfItem))).toEqual([['updated'], ['updated']]);
		expect(await attribute('u1', 'city')).toBe('Lisbon');

		// They overlapped: the next run sends once more, the one after leaves it out.
		const again = async () =>
			(await run(USER_NODE, USER, rows, attributes(sendOnlyChanges), { nodeId: 'crm' })).output(USER).map(statusOfItem);
		expect(await again()).toEqual(['updated']);
		expect(await again()).toEqual(['unchanged']);
	});
});
