import { AT, useSandbox } from './sandboxTestKit';

describe('sandbox: injected faults and latency', () => {
	const sandbox = useSandbox();
	const oneEvent = { events: [{ external_id: 'fault-user', name: 'clicked', time: AT }] };

	it('answers a status fault without processing, then serves normally once it is used up', async () => {
		await sandbox.admin.injectFaults([{ path: '/users/track', times: 2, kind: 'status', status: 503 }]);

		const first = await sandbox.track(oneEvent);
		const second = await sandbox.track(oneEvent);
		const third = await sandbox.track(oneEvent);

		expect([first.status, second.status, third.status]).toEqual([503, 503, 201]);
		expect(first.body.message).toMatch(/Service Unavailable/);
		expect((await sandbox.admin.stats()).events).toBe(1);
		const log = await sandbox.admin.requests({ path: '/users/track' });
		expect(log.map((entry) => entry.fault)).toEqual(['status', 'status', undefined]);
	});

	it('answers an unplaced-error fault 201 with a plain-string error and applies nothing', async () => {
		await sandbox.admin.injectFaults([{ path: '/users/track', times: 1, kind: 'unplaced-error', message: 'oops' }]);

		const answered = await sandbox.track(oneEvent);

		expect(answered.status).toBe(201);
		expect(answered.body).toEqual({ message: 'success', errors: ['oops'] });
		expect((await sandbox.admin.stats()).events).toBe(0);
		expect((await sandbox.track(oneEvent)).status).toBe(201);
		expect((await sandbox.admin.stats()).events).toBe(1);
	});

	it('checks faults before credentials', async () => {
		await sandbox.admin.injectFaults([{ path: '/users/track', times: 1, kind: 'status', status: 500 }]);
		expect((await sandbox.track(oneEvent, 'unknown-key')).status).toBe(500);
	});

	it('gives an injected 429 the rate-limit headers, and Retry-After when asked', async () => {
		await sandbox.admin.injectFaults([
			{
				path: '/users/track',
				times: 1,
				kind: 'status',
				status: 429,
				retryAfterSeconds: 7,
				rateLimitResetInSeconds: 30,
			},
			{ path: '/users/track', times: 1, kind: 'status', status: 429 },
		]);
		const now = Math.floor(Date.now() / 1000);

		const withRetryAfter = await sandbox.track(oneEvent);
		expect(withRetryAfter.status).toBe(429);
		expect(withRetryAfter.body.message).toBe('Rate limit exceeded');
		expect(withRetryAfter.headers.get('retry-after')).toBe('7');
		expect(withRetryAfter.headers.get('x-ratelimit-limit')).toBe('3000');
		expect(withRetryAfter.headers.get('x-ratelimit-remaining')).toBe('0');
		const reset = Number(withRetryAfter.headers.get('x-ratelimit-reset'));
		expect(reset).toBeGreaterThanOrEqual(now + 29);
		expect(reset).toBeLessThanOrEqual(now + 32);

		const plain = await sandbox.track(oneEvent);
		expect(plain.status).toBe(429);
		expect(plain.headers.get('retry-after')).toBeNull();
		expect(plain.headers.get('x-ratelimit-reset')).not.toBeNull();
		expect((await sandbox.admin.stats()).events).toBe(0);
	});

	it('reset-before: the socket closes and nothing is processed', async () => {
		await sandbox.admin.injectFaults([{ path: '/users/track', times: 1, kind: 'reset-before' }]);
		await expect(sandbox.track(oneEvent)).rejects.toThrow();
		expect((await sandbox.admin.stats()).events).toBe(0);
		const [entry] = await sandbox.admin.requests();
		expect(entry).toMatchObject({ fault: 'reset-before', status: 0 });
		expect((await sandbox.admin.stats()).responsesByStatus).toEqual({ reset: 1 });
	});

	it('reset-after: the request is processed, then the socket closes without an answer', async () => {
		await sandbox.admin.injectFaults([{ method: 'POST', path: '/users/track', times: 1, kind: 'reset-after' }]);
		await expect(sandbox.track(oneEvent)).rejects.toThrow();
		expect((await sandbox.admin.stats()).events).toBe(1);
		const [entry] = await sandbox.admin.requests();
		expect(entry).toMatchObject({ fault: 'reset-after', status: 201 });
	});

	it('slow: the request is processed and answered after the delay', async () => {
		await sandbox.admin.injectFaults([{ path: '/users/track', times: 1, kind: 'slow', delayMs: 300 }]);
		const started = Date.now();
		const answer = await sandbox.track(oneEvent);
		expect(answer.status).toBe(201);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect((await sandbox.admin.stats()).events).toBe(1);
	});

	it('matches the method when one is given', async () => {
		await sandbox.admin.injectFaults([{ method: 'GET', path: '/users/track', times: 1, kind: 'status', status: 502 }]);
		expect((await sandbox.track(oneEvent)).status).toBe(201);
		expect((await sandbox.call('GET', '/users/track')).status).toBe(502);
	});

	it('applies to the other endpoints too: an injected 429 on /users/identify carries its group limit and identifies nobody', async () => {
		await sandbox.admin.seed({ profiles: [{ user_aliases: [{ alias_name: 'v', alias_label: 'web' }] }] });
		await sandbox.admin.injectFaults([{ path: '/users/identify', times: 1, kind: 'status', status: 429 }]);
		const body = {
			aliases_to_identify: [{ external_id: 'customer', user_alias: { alias_name: 'v', alias_label: 'web' } }],
		};
		const refused = await sandbox.call('POST', '/users/identify', body);
		expect(refused.status).toBe(429);
		expect(refused.headers.get('x-ratelimit-limit')).toBe('20000');
		expect((await sandbox.admin.state()).profiles[0].external_id).toBeUndefined();
		expect((await sandbox.call('POST', '/users/identify', body)).body).toEqual({
			aliases_processed: 1,
			message: 'success',
		});
	});

	it('refuses a fault rule it cannot use', async () => {
		await expect(sandbox.admin.injectFaults([{ path: '/users/track', times: 1, kind: 'status' }])).rejects.toThrow(
			/status between 400 and 599/,
		);
	});

	it('delays every API answer by the configured latency, but not admin calls', async () => {
		await sandbox.admin.configure({ latencyMs: 400 });
		const started = Date.now();
		let answered = false;
		const pending = sandbox.track(oneEvent).then((answer) => {
			answered = true;
			return answer;
		});
		await sandbox.admin.stats();
		expect(answered).toBe(false);
		expect((await pending).status).toBe(201);
		expect(Date.now() - started).toBeGreaterThanOrEqual(390);
	});
});
