import { useSandbox } from './sandboxTestKit';

describe('sandbox: connected audience', () => {
	const sandbox = useSandbox();
	const DAY = 24 * 60 * 60 * 1000;
	const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

	/** External IDs a broadcast to this audience reaches (all subscription states). */
	const reached = async (audience: unknown): Promise<string[]> => {
		const answer = await sandbox.call('POST', '/messages/send', {
			audience,
			broadcast: true,
			recipient_subscription_state: 'all',
			messages: { webhook: { url: 'https://hooks.example.com' } },
		});
		expect(answer.status).toBe(201);
		const { dispatches } = await sandbox.admin.state();
		return dispatches[dispatches.length - 1].recipients.map((r) => r.external_id ?? r.service_id);
	};

	beforeEach(async () => {
		await sandbox.admin.seed({
			profiles: [
				{
					external_id: 'gold',
					email_subscribe: 'opted_in',
					custom_attributes: { tier: 'gold', interests: ['books', 'tea'], signed_up: daysAgo(2) },
					standard_attributes: { date_of_last_session: daysAgo(1), push_subscribe: 'opted_in' },
				},
				{
					external_id: 'silver',
					email_subscribe: 'unsubscribed',
					custom_attributes: { tier: 'silver', interests: ['tea'], signed_up: daysAgo(40) },
					standard_attributes: { date_of_last_session: daysAgo(30) },
				},
				{ external_id: 'blank' },
			],
		});
	});

	const attribute = (name: string, comparison: string, value: unknown) => ({
		custom_attribute: { custom_attribute_name: name, comparison, value },
	});

	it.each([
		['equals', attribute('tier', 'equals', 'gold'), ['gold']],
		['is_not (absent counts as different)', attribute('tier', 'is_not', 'gold'), ['silver', 'blank']],
		['includes_value on an array attribute', attribute('interests', 'includes_value', 'tea'), ['gold', 'silver']],
		['after on a datetime attribute', attribute('signed_up', 'after', daysAgo(10)), ['gold']],
		['less_than_x_days_ago on a datetime attribute', attribute('signed_up', 'less_than_x_days_ago', 7), ['gold']],
		[
			'email_subscription_status is (never set counts as subscribed)',
			{ email_subscription_status: { comparison: 'is', value: 'subscribed' } },
			['blank'],
		],
		[
			'email_subscription_status is_not',
			{ email_subscription_status: { comparison: 'is_not', value: 'unsubscribed' } },
			['gold', 'blank'],
		],
		['push_subscription_status is', { push_subscription_status: { comparison: 'is', value: 'opted_in' } }, ['gold']],
		['last_used_app after', { last_used_app: { comparison: 'after', value: daysAgo(7) } }, ['gold']],
		[
			'last_used_app less_than_x_days_ago (no session: never used)',
			{ last_used_app: { comparison: 'less_than_x_days_ago', value: 60 } },
			['gold', 'silver'],
		],
		[
			'AND of OR',
			{
				AND: [
					{ OR: [attribute('tier', 'equals', 'gold'), attribute('tier', 'equals', 'silver')] },
					{ email_subscription_status: { comparison: 'is_not', value: 'opted_in' } },
				],
			},
			['silver'],
		],
	])('resolves %s', async (_case, audience, expected) => {
		expect(await reached(audience)).toEqual(expected);
	});

	it.each([
		['an empty object', {}, /^audience must have exactly one key/],
		['two keys at once', { AND: [], OR: [] }, /^audience must have exactly one key .*got AND, OR/],
		[
			'an unknown condition',
			{ AND: [{ country: { comparison: 'is', value: 'GB' } }] },
			/^audience\.AND\[0\]: unknown condition 'country'/,
		],
		['an AND that is not an array', { AND: { custom_attribute: {} } }, /^audience\.AND must be a non-empty array/],
		[
			'a missing attribute name',
			{ OR: [attribute('tier', 'equals', 'gold'), { custom_attribute: { comparison: 'equals', value: 'x' } }] },
			/^audience\.OR\[1\]\.custom_attribute\.custom_attribute_name is required/,
		],
		[
			'a missing value',
			{ custom_attribute: { custom_attribute_name: 'tier', comparison: 'equals' } },
			/^audience\.custom_attribute\.value is required/,
		],
		[
			'an unknown comparison',
			attribute('tier', 'matches_regex', 'g.*'),
			/^audience\.custom_attribute\.comparison must be one of equals, includes_value, less_than_x_days_ago, is, is_not, after/,
		],
		[
			'a subscription comparison of a custom attribute kind',
			{ email_subscription_status: { comparison: 'equals', value: 'opted_in' } },
			/^audience\.email_subscription_status\.comparison must be one of is, is_not/,
		],
		[
			'an unknown subscription value',
			{ push_subscription_status: { comparison: 'is', value: 'yes' } },
			/^audience\.push_subscription_status\.value must be one of opted_in, subscribed, unsubscribed/,
		],
		[
			'last_used_app with is',
			{ last_used_app: { comparison: 'is', value: '2024-01-01T00:00:00Z' } },
			/^audience\.last_used_app\.comparison must be one of after, less_than_x_days_ago/,
		],
		[
			'last_used_app after a non-datetime',
			{ last_used_app: { comparison: 'after', value: 'yesterday' } },
			/^audience\.last_used_app\.value must be an ISO 8601 datetime/,
		],
		[
			'a number of days that is not a number',
			attribute('signed_up', 'less_than_x_days_ago', '7'),
			/^audience\.custom_attribute\.value must be a number of days/,
		],
		[
			'an unknown leaf field',
			{ email_subscription_status: { comparison: 'is', value: 'opted_in', channel: 'x' } },
			/^audience\.email_subscription_status: unknown field 'channel'/,
		],
	])('refuses %s with 400 naming the path', async (_case, audience, message) => {
		const answer = await sandbox.call('POST', '/campaigns/trigger/send', {
			campaign_id: 'any',
			broadcast: true,
			audience,
		});
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
	});
});
