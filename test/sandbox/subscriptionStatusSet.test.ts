import { useSandbox } from './sandboxTestKit';

describe('sandbox: POST /v2/subscription/status/set', () => {
	const GROUP = 'group-newsletter';
	const sandbox = useSandbox({ subscriptionGroups: [GROUP, 'group-sms'] });
	const setStatus = (body: unknown, path = '/v2/subscription/status/set') => sandbox.call('POST', path, body);
	const element = (ids: Record<string, unknown>, state = 'subscribed') => ({
		subscription_group_id: GROUP,
		subscription_state: state,
		...ids,
	});
	const fifty = (make: (i: number) => string) => [...Array(51).keys()].map(make);
	const ids = (count: number, prefix: string) => [...Array(count).keys()].map((i) => `${prefix}-${i}`);
	const emails = (count: number) => [...Array(count).keys()].map((i) => `u${i}@example.com`);

	it.each([
		['no subscription_groups', {}, /^subscription_groups is required/],
		['an empty subscription_groups', { subscription_groups: [] }, /^subscription_groups is required/],
		[
			'a missing group id',
			{ subscription_groups: [{ subscription_state: 'subscribed', external_ids: ['a'] }] },
			/^subscription_groups\[0\]\.subscription_group_id is required/,
		],
		[
			'an unknown state',
			{ subscription_groups: [element({ external_ids: ['a'] }, 'opted_in')] },
			/^subscription_groups\[0\]\.subscription_state must be subscribed or unsubscribed/,
		],
		[
			'emails and phones together',
			{
				subscription_groups: [
					element({ external_ids: ['a'] }),
					element({ emails: ['a@example.com'], phones: ['+14155550100'] }),
				],
			},
			/^subscription_groups\[1\]: emails and phones cannot both be in one element/,
		],
		[
			'no ids',
			{ subscription_groups: [element({})] },
			/^subscription_groups\[0\]: one of external_ids, emails or phones is required/,
		],
		[
			'external_ids with emails',
			{ subscription_groups: [element({ external_ids: ['a'], emails: 'a@example.com' })] },
			/give only one of external_ids, emails or phones, got external_ids and emails/,
		],
		[
			'an empty external_ids',
			{ subscription_groups: [element({ external_ids: [] })] },
			/^subscription_groups\[0\]\.external_ids must contain at least 1 entry/,
		],
		[
			'51 external_ids',
			{ subscription_groups: [element({ external_ids: fifty((i) => `u-${i}`) })] },
			/^subscription_groups\[0\]\.external_ids may contain at most 50 entries; received 51/,
		],
		[
			'51 emails',
			{ subscription_groups: [element({ emails: fifty((i) => `u${i}@example.com`) })] },
			/^subscription_groups\[0\]\.emails may contain at most 50/,
		],
		[
			'51 phones',
			{ subscription_groups: [element({ phones: fifty((i) => `+1415555${String(i).padStart(4, '0')}`) })] },
			/^subscription_groups\[0\]\.phones may contain at most 50/,
		],
		[
			'a phone not in E.164',
			{ subscription_groups: [element({ phones: ['+14155550100', '415-555-0101'] })] },
			/^subscription_groups\[0\]\.phones\[1\] "415-555-0101" is not a valid E\.164 phone number/,
		],
		[
			'a malformed email',
			{ subscription_groups: [element({ emails: 'not-an-email' })] },
			/^subscription_groups\[0\]\.emails\[0\] "not-an-email" is not a valid email address/,
		],
		[
			'phones as a string',
			{ subscription_groups: [element({ phones: '+14155550100' })] },
			/^subscription_groups\[0\]\.phones must be an array$/,
		],
		[
			'51 users over several elements',
			{
				subscription_groups: [
					element({ external_ids: ids(25, 'u') }),
					element({ emails: emails(25) }),
					element({ phones: ['+14155550100'] }, 'unsubscribed'),
				],
			},
			/^subscription_groups may name at most 50 users per request \(external_ids, emails and phones of all elements together\); received 51$/,
		],
		[
			'51 users, one of them an email given as a string',
			{ subscription_groups: [element({ external_ids: ids(50, 'u') }), element({ emails: 'a@example.com' })] },
			/received 51$/,
		],
	])('refuses %s with 400 and changes nothing', async (_case, body, message) => {
		await sandbox.admin.seed({ profiles: [{ external_id: 'a', email: 'a@example.com' }] });
		const answer = await setStatus(body);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
		expect(answer.body.errors).toEqual([answer.body.message]);
		expect((await sandbox.admin.state()).subscriptionGroups).toEqual({ [GROUP]: {}, 'group-sms': {} });
	});

	it('sets the state of users given by external_id, ignoring unknown IDs', async () => {
		const { profiles } = await sandbox.admin.seed({
			profiles: [{ external_id: 'a' }, { external_id: 'b', deprecated_external_ids: ['b-old'] }],
		});
		const answer = await setStatus({
			subscription_groups: [
				element({ external_ids: ['a', 'b-old', 'ghost'] }),
				{ subscription_group_id: 'group-sms', subscription_state: 'unsubscribed', external_ids: ['a'] },
			],
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({ message: 'success' });

		const state = await sandbox.admin.state();
		expect(state.profiles).toHaveLength(2);
		expect(state.subscriptionGroups).toEqual({
			[GROUP]: { [profiles[0].service_id]: 'subscribed', [profiles[1].service_id]: 'subscribed' },
			'group-sms': { [profiles[0].service_id]: 'unsubscribed' },
		});
		expect(state.profiles[0].subscription_groups).toEqual({ [GROUP]: 'subscribed', 'group-sms': 'unsubscribed' });
	});

	it('updates every profile sharing an email, whatever its case, and creates an email-only profile for an unknown email', async () => {
		const { profiles } = await sandbox.admin.seed({
			profiles: [
				{ external_id: 'a', email: 'shared@example.com', subscription_groups: { [GROUP]: 'subscribed' } },
				{ email: 'Shared@Example.com' },
				{ external_id: 'c', email: 'other@example.com' },
			],
		});
		const answer = await setStatus({
			subscription_groups: [element({ emails: ['SHARED@example.com', 'new@example.com'] }, 'unsubscribed')],
		});
		expect(answer.body).toEqual({ message: 'success' });

		const state = await sandbox.admin.state();
		const created = state.profiles[3];
		expect(created).toMatchObject({
			email: 'new@example.com',
			user_aliases: [],
			subscription_groups: { [GROUP]: 'unsubscribed' },
		});
		expect(created.external_id).toBeUndefined();
		expect(state.subscriptionGroups[GROUP]).toEqual({
			[profiles[0].service_id]: 'unsubscribed',
			[profiles[1].service_id]: 'unsubscribed',
			[created.service_id]: 'unsubscribed',
		});
		expect(state.profiles[2].subscription_groups).toEqual({});
	});

	it('takes emails as one string', async () => {
		await sandbox.admin.seed({ profiles: [{ external_id: 'a', email: 'a@example.com' }] });
		await setStatus({ subscription_groups: [element({ emails: 'a@example.com' })] });
		expect((await sandbox.admin.state()).profiles[0].subscription_groups).toEqual({ [GROUP]: 'subscribed' });
	});

	it('updates every profile with a phone, and creates a phone-only profile for an unknown one', async () => {
		await sandbox.admin.seed({ profiles: [{ external_id: 'a', phone: '+14155550100' }, { phone: '+14155550100' }] });
		await setStatus({ subscription_groups: [element({ phones: ['+14155550100', '+442071838750'] })] });
		const { profiles } = await sandbox.admin.state();
		expect(profiles.map((profile) => [profile.phone, profile.subscription_groups])).toEqual([
			['+14155550100', { [GROUP]: 'subscribed' }],
			['+14155550100', { [GROUP]: 'subscribed' }],
			['+442071838750', { [GROUP]: 'subscribed' }],
		]);
	});

	it('takes several elements whose users add up to 50', async () => {
		await sandbox.admin.seed({ profiles: [{ external_id: 'u-0' }, { external_id: 'v-0' }] });
		const answer = await setStatus({
			subscription_groups: [
				element({ external_ids: ids(20, 'u') }),
				element({ external_ids: ids(20, 'v') }, 'unsubscribed'),
				element({ emails: emails(9) }),
				{ subscription_group_id: 'group-sms', subscription_state: 'subscribed', phones: ['+14155550100'] },
			],
		});
		expect(answer.status).toBe(201);
		const state = await sandbox.admin.state();
		expect(state.profiles.map((profile) => profile.subscription_groups)).toEqual([
			{ [GROUP]: 'subscribed' },
			{ [GROUP]: 'unsubscribed' },
			...emails(9).map(() => ({ [GROUP]: 'subscribed' })),
			{ 'group-sms': 'subscribed' },
		]);
	});

	it('serves the earlier /subscription/status/set too, on the same rate limit', async () => {
		await sandbox.admin.configure({ rateLimits: { 'subscription.status.set': { limit: 2, windowMs: 60_000 } } });
		await sandbox.admin.seed({ profiles: [{ external_id: 'a' }] });
		const body = { subscription_groups: [element({ external_ids: ['a'] })] };
		expect((await setStatus(body, '/subscription/status/set')).status).toBe(201);
		expect((await setStatus(body)).status).toBe(201);
		const refused = await setStatus(body, '/subscription/status/set');
		expect(refused.status).toBe(429);
		expect(refused.headers.get('x-ratelimit-limit')).toBe('2');
		expect((await sandbox.admin.state()).profiles[0].subscription_groups).toEqual({ [GROUP]: 'subscribed' });
	});

	it('needs the subscription.status.set permission', async () => {
		await sandbox.admin.addApiKey('tracker', ['users.track']);
		const answer = await sandbox.call(
			'POST',
			'/v2/subscription/status/set',
			{ subscription_groups: [element({ external_ids: ['a'] })] },
			{ apiKey: 'tracker' },
		);
		expect(answer.status).toBe(403);
	});
});
