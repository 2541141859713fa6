import { DEMO_SEED, DEMO_SUBSCRIPTION_GROUPS, DEMO_SUBSCRIPTION_GROUP_NAMES } from '../../sandbox/seed';
import { useSandbox } from './sandboxTestKit';

/**
 * A subscription group is created in the dashboard; the API only sets states in groups that exist.
 * A group ID the workspace does not have (a name typed instead of the ID) is refused by every endpoint
 * that takes one, and nothing of what it came with is applied.
 */
describe('sandbox: subscription group IDs the workspace does not have', () => {
	const sandbox = useSandbox();
	const NEWSLETTER = '2f8c1a6e-0000-4c3e-9a10-0d1e2f3a4b01';
	const unknownGroupMessage = (path: string, id: string) =>
		`${path}.subscription_group_id "${id}" is not a subscription group of this workspace`;

	beforeEach(async () => {
		await sandbox.admin.seed({
			subscriptionGroups: [{ id: NEWSLETTER, name: 'Weekly newsletter' }],
			profiles: [{ external_id: 'u1', email: 'u1@example.com' }],
			campaigns: [{ id: 'welcome' }, { id: 'receipt', kind: 'transactional' }],
		});
	});

	it.each(['/v2/subscription/status/set', '/subscription/status/set'])(
		'%s refuses the request naming the element, and sets nothing',
		async (path) => {
			const answer = await sandbox.call('POST', path, {
				subscription_groups: [
					{ subscription_group_id: NEWSLETTER, subscription_state: 'unsubscribed', external_ids: ['u1'] },
					{ subscription_group_id: 'newsletter', subscription_state: 'unsubscribed', emails: ['u1@example.com'] },
				],
			});
			const message = unknownGroupMessage('subscription_groups[1]', 'newsletter');
			expect(answer.status).toBe(400);
			expect(answer.body).toEqual({ message, errors: [message] });
			const state = await sandbox.admin.state();
			expect(state.subscriptionGroups).toEqual({ [NEWSLETTER]: {} });
			expect(state.profiles).toHaveLength(1);
		},
	);

	it('/users/track refuses the attribute object (a non-fatal error at its index), and applies nothing of it', async () => {
		const answer = await sandbox.track({
			attributes: [
				{
					external_id: 'u1',
					first_name: 'Ada',
					subscription_groups: [{ subscription_group_id: 'newsletter', subscription_state: 'subscribed' }],
				},
				{
					external_id: 'u2',
					subscription_groups: [{ subscription_group_id: NEWSLETTER, subscription_state: 'subscribed' }],
				},
			],
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({
			message: 'success',
			attributes_processed: 1,
			errors: [
				{ type: unknownGroupMessage('subscription_groups[0]', 'newsletter'), input_array: 'attributes', index: 0 },
			],
		});
		const state = await sandbox.admin.state();
		const u1 = state.profiles.find((p) => p.external_id === 'u1');
		const u2 = state.profiles.find((p) => p.external_id === 'u2');
		expect(u1?.standard_attributes).toEqual({});
		expect(state.subscriptionGroups).toEqual({ [NEWSLETTER]: { [u2!.service_id]: 'subscribed' } });
	});

	it("/campaigns/trigger/send refuses a recipient's attributes naming an unknown group, and sends nothing", async () => {
		const answer = await sandbox.call('POST', '/campaigns/trigger/send', {
			campaign_id: 'welcome',
			recipients: [
				{
					external_user_id: 'u1',
					attributes: {
						subscription_groups: [{ subscription_group_id: 'newsletter', subscription_state: 'subscribed' }],
					},
				},
			],
		});
		expect(answer.status).toBe(400);
		expect(answer.body.message).toBe(
			unknownGroupMessage('recipients[0].attributes.subscription_groups[0]', 'newsletter'),
		);
		const state = await sandbox.admin.state();
		expect(state.dispatches).toEqual([]);
		expect(state.subscriptionGroups).toEqual({ [NEWSLETTER]: {} });
	});

	it("the transactional send refuses the recipient's attributes naming an unknown group, and sends nothing", async () => {
		const answer = await sandbox.call('POST', '/transactional/v1/campaigns/receipt/send', {
			recipient: {
				external_user_id: 'u1',
				attributes: {
					subscription_groups: [{ subscription_group_id: 'newsletter', subscription_state: 'subscribed' }],
				},
			},
		});
		expect(answer.status).toBe(400);
		expect(answer.body.message).toBe(unknownGroupMessage('recipient.attributes.subscription_groups[0]', 'newsletter'));
		expect((await sandbox.admin.state()).transactionalSends).toEqual([]);
	});

	it('a seeded group takes states at once, and the workspace lists each group with its name', async () => {
		const answer = await sandbox.call('POST', '/v2/subscription/status/set', {
			subscription_groups: [
				{ subscription_group_id: NEWSLETTER, subscription_state: 'subscribed', external_ids: ['u1'] },
			],
		});
		expect(answer.status).toBe(201);
		await sandbox.admin.seed({ subscriptionGroups: ['2f8c1a6e-0000-4c3e-9a10-0d1e2f3a4b02'] });
		const state = await sandbox.admin.state();
		expect(state.subscriptionGroupNames).toEqual({
			[NEWSLETTER]: 'Weekly newsletter',
			// A group seeded by its ID alone is named by it.
			'2f8c1a6e-0000-4c3e-9a10-0d1e2f3a4b02': '2f8c1a6e-0000-4c3e-9a10-0d1e2f3a4b02',
		});
	});

	it('the demo workspace names every group it seeds', () => {
		expect(DEMO_SEED.subscriptionGroups).toEqual(
			Object.values(DEMO_SUBSCRIPTION_GROUPS).map((id) => ({ id, name: DEMO_SUBSCRIPTION_GROUP_NAMES[id] })),
		);
		expect(Object.values(DEMO_SUBSCRIPTION_GROUP_NAMES)).toEqual(
			Object.values(DEMO_SUBSCRIPTION_GROUPS).map(() => expect.stringMatching(/^[A-Z]\w/)),
		);
	});
});
