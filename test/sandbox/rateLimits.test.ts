import { useSandbox } from './sandboxTestKit';

describe('sandbox: rate limits', () => {
	const sandbox = useSandbox({ subscriptionGroups: ['g'] });
	const oneAttribute = { attributes: [{ external_id: 'rate-user', visits: 1 }] };

	it('tells every rate-limited answer its limit, what remains and when the window resets', async () => {
		const before = Math.floor(Date.now() / 1000);
		const answer = await sandbox.track(oneAttribute);
		expect(answer.status).toBe(201);
		expect(answer.headers.get('x-ratelimit-limit')).toBe('3000');
		expect(answer.headers.get('x-ratelimit-remaining')).toBe('2999');
		const reset = Number(answer.headers.get('x-ratelimit-reset'));
		expect(reset).toBeGreaterThanOrEqual(before);
		expect(reset).toBeLessThanOrEqual(before + 4);
	});

	it('answers 429 past the limit, processes nothing, and sends no Retry-After by default', async () => {
		await sandbox.admin.configure({ rateLimits: { 'users.track': { limit: 2, windowMs: 60_000 } } });
		expect((await sandbox.track(oneAttribute)).headers.get('x-ratelimit-remaining')).toBe('1');
		expect((await sandbox.track(oneAttribute)).headers.get('x-ratelimit-remaining')).toBe('0');

		const refused = await sandbox.track({
			events: [{ external_id: 'rate-user', name: 'late', time: '2024-05-01T10:00:00Z' }],
		});
		expect(refused.status).toBe(429);
		expect(refused.body.message).toBe('Rate limit exceeded');
		expect(refused.headers.get('x-ratelimit-limit')).toBe('2');
		expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
		expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
		expect(refused.headers.get('retry-after')).toBeNull();
		expect((await sandbox.admin.stats()).events).toBe(0);
	});

	it('adds Retry-After (whole seconds, at least 1) when configured to', async () => {
		await sandbox.admin.configure({
			rateLimits: { 'users.track': { limit: 1, windowMs: 60_000 } },
			retryAfterOn429: true,
		});
		await sandbox.track(oneAttribute);
		const refused = await sandbox.track(oneAttribute);
		expect(refused.status).toBe(429);
		const retryAfter = Number(refused.headers.get('retry-after'));
		expect(Number.isInteger(retryAfter)).toBe(true);
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(60);
	});

	it('counts each API key separately', async () => {
		await sandbox.admin.configure({ rateLimits: { 'users.track': { limit: 1, windowMs: 60_000 } } });
		await sandbox.admin.addApiKey('second-key', ['users.track']);
		expect((await sandbox.track(oneAttribute)).status).toBe(201);
		expect((await sandbox.track(oneAttribute, 'second-key')).status).toBe(201);
		expect((await sandbox.track(oneAttribute)).status).toBe(429);
	});

	it('lifts a limit configured as null, and restores the defaults on reset', async () => {
		await sandbox.admin.configure({ rateLimits: { 'users.track': null } });
		const unlimited = await sandbox.track(oneAttribute);
		expect(unlimited.status).toBe(201);
		expect(unlimited.headers.get('x-ratelimit-limit')).toBeNull();

		await sandbox.admin.reset();
		expect((await sandbox.track(oneAttribute)).headers.get('x-ratelimit-limit')).toBe('3000');
	});

	it('counts each new endpoint against its own group', async () => {
		const calls: Array<[string, unknown, string]> = [
			['/users/export/ids', { external_ids: ['x'], fields_to_export: ['external_id'] }, '250'],
			[
				'/users/identify',
				{ aliases_to_identify: [{ external_id: 'x', user_alias: { alias_name: 'a', alias_label: 'b' } }] },
				'20000',
			],
			[
				'/users/external_ids/rename',
				{ external_id_renames: [{ current_external_id: 'x', new_external_id: 'y' }] },
				'1000',
			],
			[
				'/v2/subscription/status/set',
				{
					subscription_groups: [{ subscription_group_id: 'g', subscription_state: 'subscribed', external_ids: ['x'] }],
				},
				'5000',
			],
		];
		for (const [path, body, limit] of calls) {
			const answer = await sandbox.call('POST', path, body);
			expect([
				path,
				answer.status,
				answer.headers.get('x-ratelimit-limit'),
				answer.headers.get('x-ratelimit-remaining'),
			]).toEqual([path, 201, limit, String(Number(limit) - 1)]);
		}
	});

	it('counts a messaging request with a segment or an audience per minute, even when it also names users', async () => {
		// Scaled down: 2 a minute with a segment or audience, 1,000 an hour to external IDs.
		await sandbox.admin.configure({
			rateLimits: {
				'messaging.segment': { limit: 2, windowMs: 60_000 },
				'messaging.external_ids': { limit: 1000, windowMs: 3_600_000 },
			},
		});
		await sandbox.admin.seed({
			profiles: [{ external_id: 'u1', custom_attributes: { tier: 'gold' } }],
			campaigns: [{ id: 'welcome' }],
			canvases: [{ id: 'onboarding' }],
			segments: [{ id: 'seg-1', external_ids: ['u1'] }],
		});
		const EMAIL = { email: { app_id: 'app', subject: 'Hello', body: '<p>Hi</p>' } };
		const audience = { custom_attribute: { custom_attribute_name: 'tier', comparison: 'equals', value: 'gold' } };
		const limits = async (path: string, body: unknown) => {
			const answer = await sandbox.call('POST', path, body);
			return [answer.status, answer.headers.get('x-ratelimit-limit'), answer.headers.get('x-ratelimit-remaining')];
		};

		expect(await limits('/messages/send', { external_user_ids: ['u1'], segment_id: 'seg-1', messages: EMAIL })).toEqual(
			[201, '2', '1'],
		);
		expect(
			await limits('/campaigns/trigger/send', {
				campaign_id: 'welcome',
				recipients: [{ external_user_id: 'u1' }],
				audience,
			}),
		).toEqual([201, '2', '0']);
		expect(
			await limits('/canvas/trigger/send', {
				canvas_id: 'onboarding',
				recipients: [{ external_user_id: 'u1' }],
				audience,
			}),
		).toEqual([429, '2', '0']);
		expect(
			await limits('/messages/send', {
				user_aliases: [{ alias_name: 'a', alias_label: 'b' }],
				audience,
				messages: EMAIL,
			}),
		).toEqual([429, '2', '0']);
		// Users alone still count against the hourly budget.
		expect(await limits('/messages/send', { external_user_ids: ['u1'], messages: EMAIL })).toEqual([
			201,
			'1000',
			'999',
		]);
		expect(
			await limits('/canvas/trigger/send', { canvas_id: 'onboarding', recipients: [{ external_user_id: 'u1' }] }),
		).toEqual([201, '1000', '998']);
		expect((await sandbox.admin.state()).dispatches).toHaveLength(4);
	});

	it('starts from the spec Limits table', async () => {
		const config = await sandbox.admin.configure({});
		expect(config.rateLimits['users.track']).toEqual({ limit: 3000, windowMs: 3000 });
		expect(config.rateLimits['subscription.status.set']).toEqual({ limit: 5000, windowMs: 60_000 });
		expect(config.rateLimits['users.export.ids']).toEqual({ limit: 250, windowMs: 60_000 });
		expect(config.rateLimits['messaging.external_ids']).toEqual({ limit: 250_000, windowMs: 3_600_000 });
		expect(config.rateLimits['users.identify']).toEqual({ limit: 20_000, windowMs: 60_000 });
		expect(config.rateLimits['users.external_ids.rename']).toEqual({ limit: 1000, windowMs: 60_000 });
		expect(config.rateLimits.preference_center).toEqual({ limit: 10, windowMs: 60_000 });
		expect(config.rateLimits.scim).toEqual({ limit: 5000, windowMs: 86_400_000 });
	});
});
