import { DEMO_API_KEY, DEMO_SCIM_ORIGIN, DEMO_SCIM_TOKEN } from '../../sandbox';
import { useSandbox } from './sandboxTestKit';
import { scimCaller, scimErrorBody, USER_SCHEMA } from './scimTestKit';

describe('sandbox: SCIM credentials, limits and pipeline errors', () => {
	const sandbox = useSandbox();
	const scim = scimCaller(sandbox);
	const invalidCredentials = scimErrorBody(401, 'Error authenticating credentials');
	const newUser = (userName: string) => ({ schemas: [USER_SCHEMA], userName });

	it('accepts the demo token from the demo origin', async () => {
		expect(DEMO_SCIM_TOKEN).toBe('sandbox-demo-scim-token');
		expect(DEMO_SCIM_ORIGIN).toBe('sandbox.local');
		const answer = await scim('GET', '/scim/v2/Users');
		expect(answer.status).toBe(200);
	});

	it.each([
		['an unknown token', { token: 'not-a-token' }],
		['no Authorization header', { token: null }],
		['another origin', { origin: 'evil.example' }],
		['no X-Request-Origin header', { origin: null }],
		['a REST API key instead of a SCIM token', { token: DEMO_API_KEY }],
	])('refuses %s with 401 in the SCIM error shape and changes nothing', async (_case, credentials) => {
		const answer = await scim('POST', '/scim/v2/Users', newUser('someone@example.com'), credentials);
		expect(answer.status).toBe(401);
		expect(answer.body).toEqual(invalidCredentials);
		expect((await sandbox.admin.state()).dashboardUsers).toEqual([]);
	});

	it('does not take a SCIM token on a REST endpoint (REST error shape there)', async () => {
		const answer = await sandbox.call(
			'POST',
			'/users/track',
			{ attributes: [] },
			{ apiKey: DEMO_SCIM_TOKEN, headers: { 'X-Request-Origin': DEMO_SCIM_ORIGIN } },
		);
		expect(answer.status).toBe(401);
		expect(answer.body).toEqual({ message: 'Error authenticating credentials' });
	});

	it('accepts a token added through the admin API only from its own origin, and forgets it on reset', async () => {
		await sandbox.admin.addScimToken('okta-token', 'okta.example.com');
		expect(
			(await scim('GET', '/scim/v2/Users', undefined, { token: 'okta-token', origin: 'okta.example.com' })).status,
		).toBe(200);
		expect((await scim('GET', '/scim/v2/Users', undefined, { token: 'okta-token' })).status).toBe(401);
		await sandbox.admin.reset();
		expect(
			(await scim('GET', '/scim/v2/Users', undefined, { token: 'okta-token', origin: 'okta.example.com' })).status,
		).toBe(401);
		expect((await scim('GET', '/scim/v2/Users')).status).toBe(200);
	});

	it('takes tokens from a seed, and refuses unusable ones', async () => {
		await sandbox.admin.seed({ scimTokens: [{ token: 'seeded-token', origin: 'idp.example.com' }] });
		expect(
			(await scim('GET', '/scim/v2/Users', undefined, { token: 'seeded-token', origin: 'idp.example.com' })).status,
		).toBe(200);
		await expect(sandbox.admin.seed({ scimTokens: [{ token: 'x', origin: '' }] })).rejects.toThrow(
			/scimTokens\[0\]: origin/,
		);
		await expect(sandbox.admin.addScimToken('', 'idp.example.com')).rejects.toThrow(/token must be a non-empty string/);
	});

	it('answers a malformed JSON body 400 in the SCIM error shape', async () => {
		const answer = await scim('POST', '/scim/v2/Users', '{"userName": ');
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual(scimErrorBody(400, /^Invalid JSON body/));
	});

	it('answers injected faults in the SCIM error shape, a 429 with its group limit', async () => {
		await sandbox.admin.injectFaults([
			{ method: 'GET', path: '/scim/v2/Users', times: 1, kind: 'status', status: 503 },
			{ method: 'POST', path: '/scim/v2/Users', times: 1, kind: 'status', status: 429 },
		]);
		const unavailable = await scim('GET', '/scim/v2/Users');
		expect(unavailable.status).toBe(503);
		expect(unavailable.body).toEqual(scimErrorBody(503, 'Service Unavailable (injected fault)'));
		const limited = await scim('POST', '/scim/v2/Users', newUser('someone@example.com'));
		expect(limited.status).toBe(429);
		expect(limited.body).toEqual(scimErrorBody(429, 'Rate limit exceeded'));
		expect(limited.headers.get('x-ratelimit-limit')).toBe('5000');
		expect((await sandbox.admin.state()).dashboardUsers).toEqual([]);
	});

	describe('rate limit', () => {
		const DAY_MS = 86_400_000;
		const nextUtcMidnightSeconds = () => (Math.floor(Date.now() / DAY_MS) + 1) * (DAY_MS / 1000);

		it('counts every SCIM endpoint against one daily budget of 5,000', async () => {
			const created = await scim('POST', '/scim/v2/Users', newUser('someone@example.com'));
			expect(created.headers.get('x-ratelimit-limit')).toBe('5000');
			expect(created.headers.get('x-ratelimit-remaining')).toBe('4999');
			expect(Number(created.headers.get('x-ratelimit-reset'))).toBe(nextUtcMidnightSeconds());
			const read = await scim('GET', `/scim/v2/Users/${created.body.id}`);
			expect(read.headers.get('x-ratelimit-remaining')).toBe('4998');
			const removed = await scim('DELETE', `/scim/v2/Users/${created.body.id}`);
			expect(removed.headers.get('x-ratelimit-remaining')).toBe('4997');
		});

		it('answers 429 past the limit in the SCIM error shape, resetting at the end of the UTC day, and changes nothing', async () => {
			await sandbox.admin.configure({ rateLimits: { scim: { limit: 2, windowMs: DAY_MS } } });
			expect((await scim('GET', '/scim/v2/Users')).headers.get('x-ratelimit-remaining')).toBe('1');
			expect(
				(await scim('POST', '/scim/v2/Users', newUser('first@example.com'))).headers.get('x-ratelimit-remaining'),
			).toBe('0');

			const refused = await scim('POST', '/scim/v2/Users', newUser('second@example.com'));
			expect(refused.status).toBe(429);
			expect(refused.body).toEqual(scimErrorBody(429, 'Rate limit exceeded'));
			expect(refused.headers.get('x-ratelimit-limit')).toBe('2');
			expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
			expect(Number(refused.headers.get('x-ratelimit-reset'))).toBe(nextUtcMidnightSeconds());
			expect(refused.headers.get('retry-after')).toBeNull();
			expect((await sandbox.admin.state()).dashboardUsers.map((user) => user.userName)).toEqual(['first@example.com']);
		});

		it('counts each token separately, and refused credentials count against nobody', async () => {
			await sandbox.admin.configure({ rateLimits: { scim: { limit: 1, windowMs: DAY_MS } } });
			await sandbox.admin.addScimToken('second-token', DEMO_SCIM_ORIGIN);
			expect((await scim('GET', '/scim/v2/Users', undefined, { origin: 'elsewhere' })).status).toBe(401);
			expect((await scim('GET', '/scim/v2/Users')).status).toBe(200);
			expect((await scim('GET', '/scim/v2/Users', undefined, { token: 'second-token' })).status).toBe(200);
			expect((await scim('GET', '/scim/v2/Users')).status).toBe(429);
		});
	});
});
