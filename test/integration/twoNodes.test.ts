/**
 * A workflow is several nodes. A profile sync split into two Update Attributes nodes (profile fields,
 * then scores) on the same contacts, Send Only Changes on both: each leaves out what the platform holds,
 * night after night, and the workflow's memory stays right under the last word.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../harness';
import { runWorkflow } from '../harness';
import { SHAPE_STAND_INS } from '../harness/shapeStandIns';
import { deduplicationStore } from '../harness/deduplicationStore';
import { SUBSCRIPTION_NODE, USER_NODE } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();
const store = deduplicationStore();
beforeEach(() => store.reset());

const WORKFLOW_ID = 'two-node-sync';
const PROFILE = 'Profile';
const SCORES = 'Scores';

const updateAttributes = (attributes: string): INodeParameters => ({
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	attributesInput: 'json',
	attributesJson: `={{ ${attributes} }}`,
	options: { sendOnlyChanges: true },
});

/** Profile fields, then scores, of the same contacts: one node after the other. */
async function nightlySync(rows: IDataObject[]): Promise<RunResult> {
	return await runWorkflow({
		workflowId: WORKFLOW_ID,
		nodes: [
			{
				id: 'a1a1a1a1-0000-4000-8000-000000000001',
				name: PROFILE,
				type: USER_NODE,
				parameters: updateAttributes('{ first_name: $json.name, plan: $json.plan }'),
			},
			{
				id: 'a1a1a1a1-0000-4000-8000-000000000002',
				name: SCORES,
				type: USER_NODE,
				parameters: updateAttributes('{ score: $json.score, tier: $json.tier }'),
			},
		],
		connections: {
			Start: { main: [[{ node: PROFILE, type: 'main', index: 0 }]] },
			[PROFILE]: { main: [[{ node: SCORES, type: 'main', index: 0 }]] },
		},
		items: rows,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
	});
}

const CONTACTS = ['c-1', 'c-2', 'c-3'].map((id, index) => ({
	id,
	name: `Name ${index}`,
	plan: 'gold',
	score: 10 + index,
	tier: 'A',
}));

/** The attribute values the platform received since request `after`, as "contact key=value". */
async function valuesSent(after: number): Promise<string[]> {
	const requests = (await client().requests({ path: '/users/track' })).filter((request) => request.seq > after);
	return requests.flatMap((request) =>
		((request.body as { attributes?: IDataObject[] }).attributes ?? []).flatMap((object) =>
			Object.entries(object)
				.filter(([key]) => key !== 'external_id')
				.map(([key, value]) => `${String(object.external_id)} ${key}=${JSON.stringify(value)}`),
		),
	);
}

const lastSeq = async () => Math.max(0, ...(await client().requests()).map((request) => request.seq));
const statuses = (result: RunResult, node: string) => result.output(node).map((item) => statusOf(item.json));

test('two Update Attributes nodes on the same contacts: a night with nothing changed sends nothing, a changed score alone', async () => {
	const first = await nightlySync(CONTACTS);
	expect(first.error).toBeUndefined();
	expect(await valuesSent(0)).toHaveLength(12);

	const quiet = await lastSeq();
	const second = await nightlySync(CONTACTS);
	expect(await valuesSent(quiet)).toEqual([]);
	expect(statuses(second, PROFILE)).toEqual(['unchanged', 'unchanged', 'unchanged']);
	expect(statuses(second, SCORES)).toEqual(['unchanged', 'unchanged', 'unchanged']);

	const changed = await lastSeq();
	const third = await nightlySync(CONTACTS.map((row) => (row.id === 'c-2' ? { ...row, score: 99 } : row)));
	expect(await valuesSent(changed)).toEqual(['c-2 score=99']);
	expect(statuses(third, PROFILE)).toEqual(['unchanged', 'unchanged', 'unchanged']);
	expect(statuses(third, SCORES)).toEqual(['unchanged', 'updated', 'unchanged']);
});

test('two nodes setting one attribute to different values: the later node’s stays, and its run says why the next run sends everything', async () => {
	const twoTiers = async () =>
		await runWorkflow({
			workflowId: WORKFLOW_ID,
			nodes: [
				{
					id: 'a1a1a1a1-0000-4000-8000-000000000003',
					name: PROFILE,
					type: USER_NODE,
					parameters: updateAttributes('{ plan: $json.plan, tier: "A" }'),
				},
				{
					id: 'a1a1a1a1-0000-4000-8000-000000000004',
					name: SCORES,
					type: USER_NODE,
					parameters: updateAttributes('{ score: $json.score, tier: "B" }'),
				},
			],
			connections: {
				Start: { main: [[{ node: PROFILE, type: 'main', index: 0 }]] },
				[PROFILE]: { main: [[{ node: SCORES, type: 'main', index: 0 }]] },
			},
			items: CONTACTS,
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		});

	await twoTiers();
	const second = await twoTiers();

	const { profiles } = await client().state();
	expect(profiles.map((profile) => profile.custom_attributes.tier)).toEqual(['B', 'B', 'B']);
	const hints = (second.run.data.resultData.runData[SCORES][0].hints ?? []).map(({ message }) => message);
	expect(hints).toContainEqual(expect.stringMatching(/set "tier" of 3 contacts to another value in this execution/));
	// The earlier node's value was not held after the later one's: it is sent, never answered unchanged.
	expect(statuses(second, PROFILE)).not.toContain('unchanged');
	// The run after says why it sent every item, on both nodes.
	for (const node of [PROFILE, SCORES])
		expect((second.run.data.resultData.runData[node][0].hints ?? []).map(({ message }) => message)).toContainEqual(
			expect.stringMatching(/^Send Only Changes sent every item: nothing was remembered to compare with/),
		);
});

describe('a chain: Track Purchase → Update Attributes, default options', () => {
	const chain = async (updateParameters: INodeParameters) =>
		await runWorkflow({
			workflowId: 'order-flow',
			nodes: [
				{
					id: 'b2b2b2b2-0000-4000-8000-000000000001',
					name: 'Track Purchase',
					type: USER_NODE,
					parameters: {
						operation: 'trackPurchase',
						identifyBy: 'external_id',
						externalId: '={{ $json.id }}',
						productId: '={{ $json.sku }}',
						currency: 'EUR',
						price: '={{ $json.price }}',
						time: '2026-11-20T09:00:00Z',
					},
				},
				{
					id: 'b2b2b2b2-0000-4000-8000-000000000002',
					name: 'Update Attributes',
					type: USER_NODE,
					parameters: updateParameters,
				},
			],
			connections: {
				Start: { main: [[{ node: 'Track Purchase', type: 'main', index: 0 }]] },
				'Track Purchase': { main: [[{ node: 'Update Attributes', type: 'main', index: 0 }]] },
			},
			items: [
				{ id: 'c-1', sku: 'sku-1', price: '9.90', 'First Name': 'Lena' },
				{ id: 'c-2', sku: 'sku-2', price: '19.90', 'First Name': 'Ben' },
			],
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		});
	const hintsOf = (result: RunResult, node: string) =>
		(result.run.data.resultData.runData[node][0].hints ?? []).map(({ message }) => message);

	test('the run says whose words it replaced and how to keep both', async () => {
		const result = await chain({
			operation: 'updateAttributes',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
			attributesInput: 'json',
			attributesJson: '={{ { last_order: $json.sku } }}',
		});

		expect(statuses(result, 'Update Attributes')).toEqual(['updated', 'updated']);
		const [hint] = hintsOf(result, 'Update Attributes').filter((message) => message.includes('replace'));
		expect(hint).toContain('"Track Purchase"');
		expect(hint).toContain('"tracked"');
		expect(hint).toContain("{{ $('Track Purchase').item.json.engagementPlatform.status }}");
		expect(hint).toContain('Output Field Name');
	});

	test('Map Automatically does not offer the earlier node’s words as a column to send', async () => {
		const result = await chain({
			operation: 'updateAttributes',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
			standardAttributes: { mappingMode: 'autoMapInputData', value: null },
		});

		const [columns] = hintsOf(result, 'Update Attributes').filter((message) => message.includes('Map Automatically'));
		expect(columns).toContain('"First Name" as first_name');
		expect(columns).not.toContain('engagementPlatform');
	});
});

// Found by the state sequences (a quiet night after a run whose end n8n could not record), kept in its shrunk form.
test.each([false, true])(
	'after a run whose end n8n could not record, the next run and the one after it send everything and say why, then a quiet night sends nothing (a second node: %s)',
	async (withSecondNode) => {
		const crm = {
			id: 'd4d4d4d4-0000-4000-8000-000000000001',
			name: PROFILE,
			type: USER_NODE,
			parameters: updateAttributes('{ email_subscribe: "subscribed" }'),
		};
		const webForm = {
			id: 'd4d4d4d4-0000-4000-8000-000000000002',
			name: SCORES,
			type: USER_NODE,
			parameters: updateAttributes('{ city: "Lisbon" }'),
		};
		const run = async (nodes: Array<typeof crm>) =>
			await runWorkflow({
				workflowId: 'crashed-then-two',
				nodes,
				connections: {
					Start: { main: [[{ node: PROFILE, type: 'main', index: 0 }]] },
					...(nodes.length > 1 && { [PROFILE]: { main: [[{ node: SCORES, type: 'main', index: 0 }]] } }),
				},
				items: [{ id: 'u1' }],
				credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
			});
		const sendsAllBecause = (result: RunResult) =>
			(result.run.data.resultData.runData[PROFILE][0].hints ?? [])
				.map(({ message }) => message)
				.find((message) => message.startsWith('Send Only Changes sent every item'));
		await client().seed({ profiles: [{ external_id: 'u1' }] });
		await run([crm]);
		const from = store.calls.length;
		store.failWhen = (_, calls) =>
			calls.slice(from).filter((call) => call.method === 'checkProcessedAndRecord').length >= 3;
		await run([crm]);
		store.failWhen = undefined;
		const nodes = withSecondNode ? [crm, webForm] : [crm];

		// In doubt, a run cannot trust what it writes either (the run it found unfinished may still be running).
		expect(sendsAllBecause(await run(nodes))).toMatch(
			/another run of this workflow had not finished.*the next run sends every item once more/,
		);
		const after = await lastSeq();
		await run(nodes);
		expect(await valuesSent(after)).toContain('u1 email_subscribe="subscribed"');
		const quiet = await lastSeq();
		const next = await run(nodes);
		expect(await valuesSent(quiet)).toEqual([]);
		expect(statuses(next, PROFILE)).toEqual(['unchanged']);
	},
);

// Found by the state sequences (a sync, then the newsletter node), kept in its shrunk form.
test('a sync unsubscribes, the newsletter node after it subscribes: the sync alone the next night sends its state again', async () => {
	await client().seed({ subscriptionGroups: ['newsletter'], profiles: [{ external_id: 'u1' }] });
	const sync = {
		id: 'f6f6f6f6-0000-4000-8000-000000000001',
		name: PROFILE,
		type: USER_NODE,
		parameters: updateAttributes(
			'{ tier: "gold", subscription_groups: [{ subscription_group_id: "newsletter", subscription_state: "unsubscribed" }] }',
		),
	};
	const optIn = {
		id: 'f6f6f6f6-0000-4000-8000-000000000002',
		name: 'Newsletter Opt-In',
		type: SUBSCRIPTION_NODE,
		parameters: {
			operation: 'subscribe',
			subscriptionGroupId: 'newsletter',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		},
	};
	const run = async (nodes: Array<typeof sync | typeof optIn>) =>
		await runWorkflow({
			workflowId: 'sync-then-newsletter',
			nodes,
			connections: {
				Start: { main: [[{ node: PROFILE, type: 'main', index: 0 }]] },
				...(nodes.length > 1 && { [PROFILE]: { main: [[{ node: 'Newsletter Opt-In', type: 'main', index: 0 }]] } }),
			},
			items: [{ id: 'u1' }],
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		});
	await run([sync, optIn]);
	expect(Object.values((await client().state()).subscriptionGroups.newsletter)).toEqual(['subscribed']);

	const alone = await run([sync]);

	expect(statuses(alone, PROFILE)).not.toContain('unchanged');
	const { profiles, subscriptionGroups } = await client().state();
	const u1 = profiles.find((profile) => profile.external_id === 'u1')!;
	expect(subscriptionGroups.newsletter[u1.service_id]).toBe('unsubscribed');
});

// Found by the state sequences (three in a chain), kept in its shrunk form.
test('three in a chain: the last node names the node right before it as the one whose answer it replaced', async () => {
	await client().seed({ subscriptionGroups: ['newsletter'] });
	const result = await runWorkflow({
		workflowId: 'three-in-a-chain',
		nodes: [
			{
				name: 'Sync CRM Attributes',
				type: USER_NODE,
				parameters: updateAttributes('{ email_subscribe: "subscribed" }'),
			},
			{ name: 'Sync Web Form Attributes', type: USER_NODE, parameters: updateAttributes('{ city: "Lisbon" }') },
			{
				name: 'Newsletter Opt-In',
				type: SUBSCRIPTION_NODE,
				parameters: {
					operation: 'subscribe',
					subscriptionGroupId: 'newsletter',
					identifyBy: 'external_id',
					externalId: '={{ $json.id }}',
				},
			},
		],
		connections: {
			Start: { main: [[{ node: 'Sync CRM Attributes', type: 'main', index: 0 }]] },
			'Sync CRM Attributes': { main: [[{ node: 'Sync Web Form Attributes', type: 'main', index: 0 }]] },
			'Sync Web Form Attributes': { main: [[{ node: 'Newsletter Opt-In', type: 'main', index: 0 }]] },
		},
		items: [{ id: 'u1' }],
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
	});

	const [hint] = (result.run.data.resultData.runData['Newsletter Opt-In'][0].hints ?? [])
		.map(({ message }) => message)
		.filter((message) => message.includes("another Engagement Platform node's answer"));
	expect(hint).toContain(`{{ $('Sync Web Form Attributes').item.json.engagementPlatform.status }}`);
	expect(hint).not.toContain('Sync CRM Attributes');
});

describe('a form’s opt-ins through an IF into Subscribe and Unsubscribe', () => {
	const groupNode = (operation: string) => ({
		operation,
		subscriptionGroupId: 'newsletter',
		identifyBy: 'email',
		email: '={{ $json.email }}',
	});

	test('Lena opts out at 09:02 and back in at 17:15: the later node says whose state it replaced, for whom, and what to use instead', async () => {
		await client().seed({ subscriptionGroups: ['newsletter'] });
		const result = await runWorkflow({
			workflowId: 'form-opt-ins',
			nodes: [
				{
					id: 'c3c3c3c3-0000-4000-8000-000000000001',
					name: 'Opted In?',
					type: 'n8n-nodes-base.if',
					parameters: { field: 'optIn' },
				},
				{
					id: 'c3c3c3c3-0000-4000-8000-000000000002',
					name: 'Subscribe',
					type: SUBSCRIPTION_NODE,
					parameters: groupNode('subscribe'),
				},
				{
					id: 'c3c3c3c3-0000-4000-8000-000000000003',
					name: 'Unsubscribe',
					type: SUBSCRIPTION_NODE,
					parameters: groupNode('unsubscribe'),
				},
			],
			connections: {
				Start: { main: [[{ node: 'Opted In?', type: 'main', index: 0 }]] },
				'Opted In?': {
					main: [[{ node: 'Subscribe', type: 'main', index: 0 }], [{ node: 'Unsubscribe', type: 'main', index: 0 }]],
				},
			},
			items: [
				{ email: 'lena@example.com', at: '09:02', optIn: false },
				{ email: 'ben@example.com', at: '12:40', optIn: true },
				{ email: 'lena@example.com', at: '17:15', optIn: true },
			],
			nodeTypes: SHAPE_STAND_INS,
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		});

		expect(result.error).toBeUndefined();
		const later =
			result.executionOrder.indexOf('Subscribe') < result.executionOrder.indexOf('Unsubscribe')
				? 'Unsubscribe'
				: 'Subscribe';
		const earlier = later === 'Unsubscribe' ? 'Subscribe' : 'Unsubscribe';
		const hints = (result.run.data.resultData.runData[later][0].hints ?? []).map(({ message }) => message);
		expect(hints).toContainEqual(expect.stringContaining(`"${earlier}"`));
		expect(hints).toContainEqual(expect.stringContaining('Set Group State'));
		const lena = result.output(later).find(({ json }) => json.email === 'lena@example.com')!;
		expect(String(wordsOf(lena.json).overrode)).toContain(`"${earlier}"`);
		// Ben was set by one node only: nothing to say.
		const ben = result.output('Subscribe').find(({ json }) => json.email === 'ben@example.com')!;
		expect(wordsOf(ben.json).overrode).toBeUndefined();
	});
});
