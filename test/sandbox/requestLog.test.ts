import { AT, useSandbox } from './sandboxTestKit';

describe('sandbox: request log, state and stats', () => {
	const sandbox = useSandbox();

	it('records what went over the wire, with the API key redacted', async () => {
		const body = { events: [{ external_id: 'u-1', name: 'e', time: AT }] };
		await sandbox.call('POST', '/users/track?debug=1', body);

		const [entry] = await sandbox.admin.requests();
		expect(entry).toMatchObject({
			seq: 1,
			method: 'POST',
			path: '/users/track',
			query: { debug: '1' },
			body,
			status: 201,
			response: { message: 'success', events_processed: 1 },
		});
		expect(entry.headers.authorization).toBe('Bearer ***');
		expect(entry.headers['content-type']).toBe('application/json');
		expect(entry.receivedAt).toBeGreaterThan(Date.now() - 60_000);
		expect(JSON.stringify(entry)).not.toContain('sandbox-demo-key');
	});

	it('filters by path and method, and does not log admin calls', async () => {
		await sandbox.track({ attributes: [] });
		await sandbox.call('GET', '/users/export/ids');
		await sandbox.admin.stats();

		expect((await sandbox.admin.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'POST /users/track 201',
			'GET /users/export/ids 404',
		]);
		expect(await sandbox.admin.requests({ path: '/users/track' })).toHaveLength(1);
		expect(await sandbox.admin.requests({ method: 'get' })).toHaveLength(1);
	});

	it('keeps bodies out of the log when logBodies is false', async () => {
		await sandbox.admin.configure({ logBodies: false });
		await sandbox.track({ attributes: [{ external_id: 'u-1' }] });
		const [entry] = await sandbox.admin.requests();
		expect(entry.body).toBeUndefined();
		expect(entry.response).toBeUndefined();
		expect(entry.status).toBe(201);
	});

	it('counts profiles, events, purchases, requests and answers by status', async () => {
		await sandbox.track({
			events: [{ external_id: 'u-1', name: 'e', time: AT }],
			purchases: [{ external_id: 'u-1', product_id: 'p', currency: 'USD', price: 1, time: AT }],
		});
		await sandbox.track({}, 'wrong-key');
		expect(await sandbox.admin.stats()).toEqual({
			profiles: 1,
			events: 1,
			purchases: 1,
			requests: 2,
			responsesByStatus: { '201': 1, '401': 1 },
		});
	});

	it('clears state and log on reset, and seeds the demo workspace on request', async () => {
		await sandbox.track({ attributes: [{ external_id: 'u-1' }] });
		await sandbox.admin.reset();
		expect(await sandbox.admin.stats()).toEqual({
			profiles: 0,
			events: 0,
			purchases: 0,
			requests: 0,
			responsesByStatus: {},
		});

		await sandbox.admin.reset({ seed: 'demo' });
		const { profiles, subscriptionGroups } = await sandbox.admin.state();
		expect(profiles.some((p) => p.external_id === 'demo-user-1')).toBe(true);
		expect(profiles.some((p) => p.external_id === undefined && p.user_aliases.length === 1)).toBe(true);
		expect(profiles.some((p) => p.external_id === undefined && p.user_aliases.length === 0 && p.email)).toBe(true);
		expect(Object.keys(subscriptionGroups).length).toBeGreaterThanOrEqual(2);
	});

	it('seeds profiles, groups and API keys directly', async () => {
		const result = await sandbox.admin.seed({
			profiles: [
				{
					external_id: 'seeded',
					email: 'seeded@example.com',
					custom_attributes: { plan: 'pro' },
					subscription_groups: { g1: 'subscribed' },
				},
			],
			subscriptionGroups: ['g2'],
			apiKeys: [{ key: 'seeded-key', permissions: ['users.track'] }],
		});
		expect(result.profiles[0]).toMatchObject({
			external_id: 'seeded',
			custom_attributes: { plan: 'pro' },
			subscription_groups: { g1: 'subscribed' },
		});
		expect((await sandbox.admin.state()).subscriptionGroups).toEqual({
			g1: { [result.profiles[0].service_id]: 'subscribed' },
			g2: {},
		});
		expect((await sandbox.track({ attributes: [] }, 'seeded-key')).status).toBe(201);
		await expect(sandbox.admin.seed({ profiles: [{ external_id: 'seeded' }] })).rejects.toThrow(/already in use/);
	});
});
