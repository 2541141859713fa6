import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SUBSCRIPTION, SUBSCRIPTION_NODE } from '../support/nodeTypes';
import { OUTPUT_FIELD, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox({ subscriptionGroups: ['newsletter', 'offers', 'sms', 'g'] });

const run = async (items: IDataObject[], parameters: INodeParameters, continueOnFail = false) =>
	await runNode(SUBSCRIPTION_NODE, { items, parameters, endpoint: sandbox().url, apiKey, continueOnFail });

const setState = (identifyBy: string, field: string): INodeParameters => ({
	operation: 'setGroupState',
	subscriptionGroupId: '={{ $json.group }}',
	subscriptionState: '={{ $json.state }}',
	identifyBy,
	[field]: '={{ $json.id }}',
});

type Element = {
	subscription_group_id: string;
	subscription_state: string;
	external_ids?: string[];
	emails?: string[];
	phones?: string[];
};

describe('Subscription node: Set Group State', () => {
	test('130 newsletter sign-ups and 20 opt-outs become three calls of 50 users, the last with one element per state', async () => {
		await client().seed({ profiles: Array.from({ length: 150 }, (_, i) => ({ external_id: `crm-${i}` })) });
		const items = Array.from({ length: 150 }, (_, i) => ({
			id: `crm-${i}`,
			group: 'newsletter',
			state: i < 130 ? 'subscribed' : 'unsubscribed',
		}));

		const result = await run(items, setState('external_id', 'externalId'));

		expect(result.error).toBeUndefined();
		const requests = await client().requests({ path: '/v2/subscription/status/set' });
		const elementsOf = (request: (typeof requests)[number]) =>
			(request.body as { subscription_groups: Element[] }).subscription_groups;
		expect(
			requests.map((request) => elementsOf(request).map((e) => [e.subscription_state, e.external_ids?.length])),
		).toEqual([
			[['subscribed', 50]],
			[['subscribed', 50]],
			[
				['subscribed', 30],
				['unsubscribed', 20],
			],
		]);
		const groups = (await client().state()).subscriptionGroups.newsletter;
		expect(Object.values(groups).filter((state) => state === 'subscribed')).toHaveLength(130);
		expect(Object.values(groups).filter((state) => state === 'unsubscribed')).toHaveLength(20);
		// The answer says the state set, beside the item's fields as they came.
		expect(result.output(SUBSCRIPTION)[140]).toEqual({
			json: {
				...items[140],
				[OUTPUT_FIELD]: {
					status: 'unsubscribed',
					subscription_group_id: 'newsletter',
					subscription_state: 'unsubscribed',
					external_id: 'crm-140',
				},
			},
			pairedItem: { item: 140 },
		});
	});

	test('a state that is neither subscribed nor unsubscribed (or none, as an AI agent may leave it) is the item’s error and never sent', async () => {
		await client().seed({ profiles: ['a', 'b', 'c', 'd'].map((id) => ({ external_id: id })) });
		const items = [
			{ id: 'a', group: 'newsletter', state: 'subscribed' },
			{ id: 'b', group: 'newsletter' },
			{ id: 'c', group: 'newsletter', state: 'Subscribed!' },
			{ id: 'd', group: 'newsletter', state: 'unsubscribed' },
		];

		const result = await run(items, setState('external_id', 'externalId'), true);

		expect(result.error).toBeUndefined();
		const requests = await client().requests({ path: '/v2/subscription/status/set' });
		expect(requests.map((request) => [request.status, request.body])).toEqual([
			[
				201,
				{
					subscription_groups: [
						{ subscription_group_id: 'newsletter', subscription_state: 'subscribed', external_ids: ['a'] },
						{ subscription_group_id: 'newsletter', subscription_state: 'unsubscribed', external_ids: ['d'] },
					],
				},
			],
		]);
		expect(result.output(SUBSCRIPTION).map((item) => item.json.error ?? statusOf(item.json))).toEqual([
			'subscribed',
			expect.stringContaining('State'),
			expect.stringContaining('must be subscribed or unsubscribed, got "Subscribed!"'),
			'unsubscribed',
		]);
	});

	test('Identify User By mapped to a way the endpoint does not take is the item’s error, naming the ways; nothing of it is sent', async () => {
		await client().seed({ profiles: [{ external_id: 'crm-1' }] });
		const items = [
			{ by: 'external_id', id: 'crm-1', group: 'newsletter', state: 'subscribed' },
			{ by: 'user_alias', id: 'visitor-9', group: 'newsletter', state: 'subscribed' },
		];

		const result = await run(
			items,
			{
				...setState('={{ $json.by }}', 'externalId'),
				// An expression in Identify User By shows, and so requires, every way's field.
				email: '={{ $json.id }}',
				phone: '={{ $json.id }}',
				aliasName: '={{ $json.id }}',
				aliasLabel: 'web',
			},
			true,
		);

		const output = result.output(SUBSCRIPTION).map((item) => item.json.error ?? statusOf(item.json));
		expect(output[0]).toBe('subscribed');
		expect(output[1]).toMatch(
			/Identify User By.*User Alias, but this operation takes only External ID, Email or Phone/,
		);
		const requests = await client().requests({ path: '/v2/subscription/status/set' });
		expect(requests.map((request) => request.body)).toEqual([
			{
				subscription_groups: [
					{ subscription_group_id: 'newsletter', subscription_state: 'subscribed', external_ids: ['crm-1'] },
				],
			},
		]);
	});

	test('an email updates every profile that shares it', async () => {
		await client().seed({
			profiles: [
				{ external_id: 'web', email: 'pat@example.com' },
				{ external_id: 'app', email: 'pat@example.com' },
			],
		});

		await run([{ id: 'pat@example.com', group: 'offers', state: 'subscribed' }], setState('email', 'email'));

		const { profiles } = await client().state();
		expect(profiles.map((p) => p.subscription_groups.offers)).toEqual(['subscribed', 'subscribed']);
	});

	test('emails and phones never share an element', async () => {
		const emails = [{ id: 'a@example.com', group: 'g', state: 'subscribed' }];
		const phones = [{ id: '+14155552671', group: 'g', state: 'subscribed' }];

		await run(emails, setState('email', 'email'));
		await run(phones, setState('phone', 'phone'));

		const bodies = (await client().requests({ path: '/v2/subscription/status/set' })).map(
			(r) => (r.body as { subscription_groups: Element[] }).subscription_groups,
		);
		expect(bodies).toEqual([
			[{ subscription_group_id: 'g', subscription_state: 'subscribed', emails: ['a@example.com'] }],
			[{ subscription_group_id: 'g', subscription_state: 'subscribed', phones: ['+14155552671'] }],
		]);
	});

	test('a phone not in E.164 is refused on its item; the others are still set', async () => {
		const items = [
			{ id: '+14155552671', group: 'sms', state: 'subscribed' },
			{ id: '0171 5550', group: 'sms', state: 'subscribed' },
		];

		const result = await run(items, setState('phone', 'phone'), true);

		expect(statusOf(result.output(SUBSCRIPTION)[0].json)).toBe('subscribed');
		expect(wordsOf(result.output(SUBSCRIPTION)[1].json)).toMatchObject({
			status: 'failed',
			field: 'Phone',
			delivery: 'invalid',
		});
		expect((await client().requests({ path: '/v2/subscription/status/set' }))[0].body).toEqual({
			subscription_groups: [
				{ subscription_group_id: 'sms', subscription_state: 'subscribed', phones: ['+14155552671'] },
			],
		});
	});
});

describe('Subscription node: Subscribe and Unsubscribe', () => {
	test('Unsubscribe opts every item out, with no State to pick; a State left in the parameters is not read', async () => {
		await client().seed({
			subscriptionGroups: ['newsletter'],
			profiles: ['a', 'b', 'c'].map((id) => ({ external_id: id, subscription_groups: { newsletter: 'subscribed' } })),
		});
		const items = ['a', 'b', 'c'].map((id) => ({ id, group: 'newsletter' }));

		// Switched from Set Group State in the editor: its State stays in the saved parameters.
		const result = await run(items, {
			operation: 'unsubscribe',
			subscriptionGroupId: '={{ $json.group }}',
			subscriptionState: 'subscribed',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		});

		expect(result.error).toBeUndefined();
		const requests = await client().requests({ path: '/v2/subscription/status/set' });
		expect(requests.map((request) => request.body)).toEqual([
			{
				subscription_groups: [
					{ subscription_group_id: 'newsletter', subscription_state: 'unsubscribed', external_ids: ['a', 'b', 'c'] },
				],
			},
		]);
		expect(Object.values((await client().state()).subscriptionGroups.newsletter)).toEqual([
			'unsubscribed',
			'unsubscribed',
			'unsubscribed',
		]);
		expect(
			result.output(SUBSCRIPTION).map(({ json, pairedItem }) => [wordsOf(json).subscription_state, pairedItem]),
		).toEqual([
			['unsubscribed', { item: 0 }],
			['unsubscribed', { item: 1 }],
			['unsubscribed', { item: 2 }],
		]);
	});

	test('Subscribe opts emails in, one request for the group', async () => {
		const items = ['a@example.com', 'b@example.com'].map((id) => ({ id, group: 'offers' }));

		const result = await run(items, {
			operation: 'subscribe',
			subscriptionGroupId: '={{ $json.group }}',
			identifyBy: 'email',
			email: '={{ $json.id }}',
		});

		expect(result.error).toBeUndefined();
		expect((await client().requests({ path: '/v2/subscription/status/set' })).map((r) => r.body)).toEqual([
			{
				subscription_groups: [
					{ subscription_group_id: 'offers', subscription_state: 'subscribed', emails: items.map(({ id }) => id) },
				],
			},
		]);
		expect(result.output(SUBSCRIPTION).map(({ json }) => statusOf(json))).toEqual(['subscribed', 'subscribed']);
	});
});

describe('Subscription node: a group ID the workspace does not have', () => {
	const WEEKLY = 'newsletter';
	const byEmail = (items: IDataObject[]) =>
		run(
			items,
			{
				operation: 'unsubscribe',
				subscriptionGroupId: '={{ $json.group }}',
				identifyBy: 'email',
				email: '={{ $json.email }}',
			},
			true,
		);

	test("opt-outs to a group's name instead of its ID fail, each naming the field, the ID and where the ID is; nobody is unsubscribed", async () => {
		const { profiles } = await client().seed({
			profiles: [
				{ email: 'ada@example.com', subscription_groups: { [WEEKLY]: 'subscribed' } },
				{ email: 'grace@example.com', subscription_groups: { [WEEKLY]: 'subscribed' } },
			],
		});
		const items = [
			{ email: 'ada@example.com', group: 'Weekly newsletter' },
			{ email: 'grace@example.com', group: 'Weekly newsletter' },
		];

		const result = await byEmail(items);

		const output = result.output(SUBSCRIPTION);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const { json } of output) {
			expect(statusOf(json)).toBe('failed');
			expect(json.error).toMatch(/Subscription Group ID "Weekly newsletter"/);
			expect(String(wordsOf(json).description)).toContain("use the ID from the dashboard's Subscription Groups page");
		}
		const state = await client().state();
		expect(state.subscriptionGroups[WEEKLY]).toEqual({
			[profiles[0].service_id]: 'subscribed',
			[profiles[1].service_id]: 'subscribed',
		});
		expect(state.subscriptionGroups['Weekly newsletter']).toBeUndefined();
	});

	test('an item of a known group refused with the request of an unknown one says so, apart from the item at fault', async () => {
		await client().seed({ profiles: [{ email: 'ada@example.com' }, { email: 'grace@example.com' }] });
		const items = [
			{ email: 'ada@example.com', group: WEEKLY },
			{ email: 'grace@example.com', group: 'weekly-newsleter' },
		];

		const result = await byEmail(items);

		const [known, unknown] = result.output(SUBSCRIPTION).map((item) => item.json);
		expect(unknown.error).toMatch(/Subscription Group ID "weekly-newsleter"/);
		expect(known.error).toMatch(/not sent/i);
		expect(known.error).toMatch(/"weekly-newsleter"/);
		expect(String(wordsOf(known).description)).toMatch(/run (this item|it) again/i);
		// Every request the platform answered was refused whole: nothing is answered as set.
		const requests = await client().requests({ path: '/v2/subscription/status/set' });
		expect(requests.map((request) => request.status)).toEqual([400]);
		expect(result.output(SUBSCRIPTION).every((item) => statusOf(item.json) === 'failed')).toBe(true);
	});
});
