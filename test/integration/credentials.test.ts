import { EngagementPlatformApi } from '../../credentials/EngagementPlatformApi.credentials';
import { EngagementPlatformScimApi } from '../../credentials/EngagementPlatformScimApi.credentials';
import { DEMO_SCIM_ORIGIN, DEMO_SCIM_TOKEN } from '../../sandbox';
import { testCredential } from '../support/testCredential';
import { USER } from '../support/nodeTypes';
import { wordsOf } from '../support/nodeWords';
import { orderEvents, runUserNode, trackEventParameters } from '../support/userRuns';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

describe('credentials', () => {
	const credentialTest = new EngagementPlatformApi().test;

	test('the credential test passes for a key with users.track, and stores nothing', async () => {
		expect(await testCredential(credentialTest, { restEndpoint: sandbox().url, apiKey })).toEqual({ status: 'OK' });
		expect((await client().requests())[0]).toMatchObject({ method: 'POST', path: '/users/track', status: 201 });
		expect(await client().stats()).toMatchObject({ profiles: 0, events: 0 });
	});

	test('the credential test tells a refused key from a key without the permission', async () => {
		await client().addApiKey('exports-only', ['users.export.ids']);

		const refused = await testCredential(credentialTest, { restEndpoint: sandbox().url, apiKey: 'not-a-key' });
		const unpermitted = await testCredential(credentialTest, { restEndpoint: sandbox().url, apiKey: 'exports-only' });

		expect(refused).toEqual({ status: 'Error', message: expect.stringContaining('Error authenticating credentials') });
		expect(unpermitted).toEqual({
			status: 'Error',
			message: expect.stringContaining('lacks the "users.track" permission'),
		});
	});

	test('a key without users.track but valid for subscription groups is told what it may and may not do; nothing is stored', async () => {
		await client().addApiKey('subscriptions-only', ['subscription.status.set']);

		const result = await testCredential(credentialTest, { restEndpoint: sandbox().url, apiKey: 'subscriptions-only' });

		expect(result.status).toBe('Error');
		const message = result.status === 'Error' ? result.message : '';
		expect(message).toMatch(/^The API key works, but not for every node/);
		expect(message).toMatch(/It may: set subscription group states \(subscription\.status\.set\)\./);
		expect(message).toMatch(/It may not: track users and update their attributes \(users\.track\)/);
		expect(message).toMatch(/users\.export\.ids/);
		expect(message).toContain('save the credential as it is');
		expect(message).not.toContain('subscriptions-only');
		// What answered it: the empty track call and probes that change nothing.
		const requests = await client().requests();
		expect(requests.map(({ path, status }) => [path, status])).toEqual(
			expect.arrayContaining([
				['/users/track', 403],
				['/v2/subscription/status/set', 400],
			]),
		);
		expect(await client().stats()).toMatchObject({ profiles: 0, events: 0 });
		expect((await client().state()).subscriptionGroups).toEqual({});
	});

	test('the key is sent as a Bearer token, and a refused key fails the node with advice and without the key', async () => {
		const secretKey = 'sk-live-5f1e9c0a7b2d4e8f';
		const result = await runUserNode({
			items: orderEvents(3),
			parameters: trackEventParameters(),
			endpoint: sandbox().url,
			apiKey: secretKey,
		});

		// A refused key is the run's failure, said once: no item is blamed for it.
		expect(result.error?.message).toBe('Error authenticating credentials');
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBeUndefined();
		expect((result.error as { description?: string }).description).toContain('Open the credential and check the key');
		const [request] = await client().requests();
		expect(request.status).toBe(401);
		expect(JSON.stringify(result.run)).not.toContain(secretKey);
		expect(JSON.stringify(result.logs)).not.toContain(secretKey);
		expect(`${result.error?.message} ${(result.error as { description?: string }).description}`).not.toContain(
			secretKey,
		);
	});

	test('the API key appears in no output, error or log, whatever happens to the requests', async () => {
		await client().addApiKey('sk-live-0a9b8c7d6e5f', '*');
		await client().injectFaults([
			{ path: '/users/track', times: 1, kind: 'reset-after' },
			{ path: '/users/track', times: 1, kind: 'status', status: 500 },
			{ path: '/users/track', times: 1, kind: 'status', status: 429 },
		]);
		const items = orderEvents(400);
		items[10].userId = 'undefined';
		(items[20].properties as Record<string, unknown>).$bad = 1;

		const result = await runUserNode({
			items,
			parameters: trackEventParameters({ parallelRequests: 1 }),
			endpoint: sandbox().url,
			apiKey: 'sk-live-0a9b8c7d6e5f',
			continueOnFail: true,
		});

		const output = result.output(USER);
		expect(output).toHaveLength(400);
		expect(output.some((item) => wordsOf(item.json).delivery === 'maybe_applied')).toBe(true);
		expect(JSON.stringify(result.run)).not.toContain('sk-live-0a9b8c7d6e5f');
		expect(JSON.stringify(result.logs)).not.toContain('sk-live-0a9b8c7d6e5f');
	});

	test('an endpoint without https is refused before the key is sent', async () => {
		const result = await runUserNode({
			items: orderEvents(1),
			parameters: trackEventParameters(),
			endpoint: 'http://rest.example.com',
			apiKey,
		});

		expect(result.error?.message).toContain('does not use https');
		expect(await client().requests()).toHaveLength(0);
	});

	describe('SCIM credential', () => {
		const scimTest = new EngagementPlatformScimApi().test;
		const scim = (overrides: Record<string, string> = {}) => ({
			scimEndpoint: sandbox().url,
			scimToken: DEMO_SCIM_TOKEN,
			requestOrigin: DEMO_SCIM_ORIGIN,
			...overrides,
		});

		test('the test reads a userName filter with the token and the origin, and changes nothing', async () => {
			expect(await testCredential(scimTest, scim(), 'engagementPlatformScimApi')).toEqual({ status: 'OK' });
			const [request] = await client().requests();
			expect(request).toMatchObject({
				method: 'GET',
				path: '/scim/v2/Users',
				status: 200,
				query: { filter: 'userName eq "credential-test@example.com"' },
			});
			expect(request.headers['x-request-origin']).toBe(DEMO_SCIM_ORIGIN);
		});

		test('a refused token or origin fails the test with what to check', async () => {
			const refusals: Array<Record<string, string>> = [
				{ scimToken: 'not-a-token' },
				{ requestOrigin: 'elsewhere.example.com' },
			];
			for (const overrides of refusals) {
				expect(await testCredential(scimTest, scim(overrides), 'engagementPlatformScimApi')).toEqual({
					status: 'Error',
					message: 'The platform refused this SCIM token or request origin. Check both in the credential.',
				});
			}
		});
	});
});
