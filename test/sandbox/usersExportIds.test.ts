import { AT, useSandbox } from './sandboxTestKit';

describe('sandbox: POST /users/export/ids', () => {
	const sandbox = useSandbox();
	const exportIds = (body: unknown, apiKey?: string) => sandbox.call('POST', '/users/export/ids', body, { apiKey });
	const ids = (count: number) => [...Array(count).keys()].map((i) => `u-${i}`);
	const aliases = (count: number) =>
		[...Array(count).keys()].map((i) => ({ alias_name: `a-${i}`, alias_label: 'web' }));

	it.each([
		['no fields_to_export', { external_ids: ['u-1'] }, /^fields_to_export is required/],
		['an empty fields_to_export', { external_ids: ['u-1'], fields_to_export: [] }, /^fields_to_export is required/],
		[
			'an unknown field name',
			{ external_ids: ['u-1'], fields_to_export: ['email', 'favourite_colour'] },
			/unknown field\(s\) "favourite_colour"/,
		],
		[
			'51 external_ids',
			{ external_ids: [...Array(51).keys()].map((i) => `u-${i}`), fields_to_export: ['email'] },
			/external_ids may contain at most 50 entries per request; received 51/,
		],
		[
			'51 user_aliases',
			{
				user_aliases: [...Array(51).keys()].map((i) => ({ alias_name: `a-${i}`, alias_label: 'web' })),
				fields_to_export: ['email'],
			},
			/user_aliases may contain at most 50/,
		],
		[
			'30 external_ids and 21 user_aliases',
			{ external_ids: ids(30), user_aliases: aliases(21), fields_to_export: ['email'] },
			/^external_ids and user_aliases may name at most 50 users per request together; received 30 \+ 21 = 51$/,
		],
		[
			'50 external_ids and 1 user_alias',
			{ external_ids: ids(50), user_aliases: aliases(1), fields_to_export: ['email'] },
			/received 50 \+ 1 = 51$/,
		],
		[
			'an alias without a label',
			{ user_aliases: [{ alias_name: 'a' }], fields_to_export: ['email'] },
			/user_aliases\[0\] must be an object with non-empty strings alias_name and alias_label/,
		],
		[
			'two email addresses',
			{ email_address: ['a@example.com', 'b@example.com'], fields_to_export: ['email'] },
			/email_address must be one non-empty string \(one email_address per request\)/,
		],
		[
			'a misspelt identifier field',
			{ external_id: 'u-1', fields_to_export: ['email'] },
			/Unknown request field\(s\): external_id/,
		],
	])('refuses %s with 400 and the problem', async (_case, body, message) => {
		const answer = await exportIds(body);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
		expect(answer.body.errors).toEqual([answer.body.message]);
	});

	it('exports only the requested fields that have data, with events and purchases summarised', async () => {
		await sandbox.admin.seed({
			profiles: [
				{
					external_id: 'ada',
					email: 'ada@example.com',
					email_subscribe: 'opted_in',
					user_aliases: [{ alias_name: 'crm-1', alias_label: 'crm' }],
					standard_attributes: {
						first_name: 'Ada',
						country: 'GB',
						current_location: { latitude: 51.5, longitude: -0.12 },
					},
					custom_attributes: { tier: 'gold', tags: ['a', 'b'] },
				},
			],
		});
		await sandbox.track({
			events: [
				{ external_id: 'ada', name: 'viewed', time: '2024-05-03T10:00:00Z' },
				{ external_id: 'ada', name: 'viewed', time: '2024-05-01T08:00:00:000+0200' },
				{ external_id: 'ada', name: 'viewed', time: '2024-05-02T10:00:00Z' },
				{ external_id: 'ada', name: 'shared', time: AT },
			],
			purchases: [
				{
					external_id: 'ada',
					product_id: 'mug',
					currency: 'USD',
					price: 12.5,
					quantity: 2,
					time: '2024-05-04T10:00:00Z',
				},
				{ external_id: 'ada', product_id: 'mug', currency: 'USD', price: 10.1, time: '2024-05-02T10:00:00Z' },
			],
		});

		const fields = [
			'external_id',
			'user_aliases',
			'first_name',
			'last_name',
			'dob',
			'country',
			'email',
			'email_subscribe',
			'push_subscribe',
			'last_coordinates',
			'custom_attributes',
			'custom_events',
			'purchases',
			'total_revenue',
			'devices',
			'apps',
			'push_tokens',
		];
		const answer = await exportIds({ external_ids: ['ada'], fields_to_export: fields });

		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({
			message: 'success',
			users: [
				{
					external_id: 'ada',
					user_aliases: [{ alias_name: 'crm-1', alias_label: 'crm' }],
					first_name: 'Ada',
					country: 'GB',
					email: 'ada@example.com',
					email_subscribe: 'opted_in',
					last_coordinates: [-0.12, 51.5],
					custom_attributes: { tier: 'gold', tags: ['a', 'b'] },
					custom_events: [
						{ name: 'viewed', first: '2024-05-01T06:00:00.000Z', last: '2024-05-03T10:00:00.000Z', count: 3 },
						{ name: 'shared', first: '2024-05-01T10:00:00.000Z', last: '2024-05-01T10:00:00.000Z', count: 1 },
					],
					purchases: [{ name: 'mug', first: '2024-05-02T10:00:00.000Z', last: '2024-05-04T10:00:00.000Z', count: 2 }],
					total_revenue: 35.1,
				},
			],
		});
	});

	it('gives service_id, created_at and a random_bucket that stays the same', async () => {
		const { profiles } = await sandbox.admin.seed({ profiles: [{ external_id: 'bucketed' }] });
		const body = { external_ids: ['bucketed'], fields_to_export: ['service_id', 'created_at', 'random_bucket'] };
		const [first] = (await exportIds(body)).body.users;
		const [second] = (await exportIds(body)).body.users;
		expect(first).toEqual({
			service_id: profiles[0].service_id,
			created_at: profiles[0].created_at,
			random_bucket: expect.any(Number),
		});
		expect(first.random_bucket).toBeGreaterThanOrEqual(0);
		expect(first.random_bucket).toBeLessThan(10_000);
		expect(second.random_bucket).toBe(first.random_bucket);
	});

	it('finds a user by a deprecated external_id and shows the primary one', async () => {
		await sandbox.admin.seed({ profiles: [{ external_id: 'current', deprecated_external_ids: ['legacy'] }] });
		const answer = await exportIds({ external_ids: ['legacy'], fields_to_export: ['external_id'] });
		expect(answer.body).toEqual({ message: 'success', users: [{ external_id: 'current' }] });
	});

	it('exports every profile sharing an email or phone, each profile once', async () => {
		await sandbox.admin.seed({
			profiles: [
				{ external_id: 'a', email: 'shared@example.com', phone: '+14155550100' },
				{ external_id: 'b', email: 'SHARED@example.com' },
				{ email: 'shared@example.com', custom_attributes: { source: 'footer' } },
				{ external_id: 'c', email: 'other@example.com' },
			],
		});
		const answer = await exportIds({
			external_ids: ['a', 'c'],
			email_address: 'Shared@Example.com',
			phone: '+14155550100',
			fields_to_export: ['external_id', 'custom_attributes'],
		});
		expect(answer.body.users).toEqual([
			{ external_id: 'a' },
			{ external_id: 'c' },
			{ external_id: 'b' },
			{ custom_attributes: { source: 'footer' } },
		]);
		expect(answer.body.invalid_user_ids).toBeUndefined();
	});

	it('lists the identifiers that matched nobody in invalid_user_ids, aliases by alias_name', async () => {
		await sandbox.admin.seed({
			profiles: [{ external_id: 'known', user_aliases: [{ alias_name: 'v-1', alias_label: 'web' }] }],
		});
		const answer = await exportIds({
			external_ids: ['known', 'ghost'],
			user_aliases: [
				{ alias_name: 'v-1', alias_label: 'web' },
				{ alias_name: 'v-1', alias_label: 'crm' },
			],
			email_address: 'nobody@example.com',
			phone: '+14155559999',
			device_id: 'device-1',
			service_id: 'ffffffffffffffffffffffff',
			fields_to_export: ['external_id'],
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({
			message: 'success',
			users: [{ external_id: 'known' }],
			invalid_user_ids: ['ghost', 'v-1', 'device-1', 'nobody@example.com', '+14155559999', 'ffffffffffffffffffffffff'],
		});
	});

	it('takes up to 50 external_ids and user_aliases together', async () => {
		const answer = await exportIds({
			external_ids: ids(30),
			user_aliases: aliases(20),
			fields_to_export: ['external_id'],
		});
		expect(answer.status).toBe(201);
		expect(answer.body.invalid_user_ids).toHaveLength(50);
	});

	it('needs the users.export.ids permission and counts against its own rate limit', async () => {
		await sandbox.admin.addApiKey('tracker', ['users.track']);
		const body = { external_ids: ['x'], fields_to_export: ['external_id'] };
		expect((await exportIds(body, 'tracker')).status).toBe(403);
		const answer = await exportIds(body);
		expect(answer.headers.get('x-ratelimit-limit')).toBe('250');
		expect(answer.body).toEqual({ message: 'success', users: [], invalid_user_ids: ['x'] });
	});
});
