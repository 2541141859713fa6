import type { ApiResponse } from '../../nodes/EngagementPlatform/shared/engine/send/transport';
import { Pacer } from '../../nodes/EngagementPlatform/shared/engine/send/pacer';
import { PlatformWindow } from '../../nodes/EngagementPlatform/shared/engine/send/pacer';

/** An answer carrying the platform's window figures, as every client of the key receives them. */
function answer(statusCode: number, remaining: number, resetAtMs: number): ApiResponse {
	return {
		statusCode,
		headers: { 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetAtMs / 1000) },
		body: {},
	};
}

/** A reset a whole number of seconds ahead, as X-RateLimit-Reset gives it (epoch seconds). */
function resetInSeconds(seconds: number): number {
	return (Math.floor(Date.now() / 1000) + seconds) * 1000;
}

const isPending = async (promise: Promise<unknown>): Promise<boolean> => {
	const marker = Symbol('pending');
	return (await Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(marker), 50))])) === marker;
};

describe('PlatformWindow: what the platform said of its current window', () => {
	test('answers out of order: within a window the lowest remaining wins; a later window replaces it', () => {
		const window = new PlatformWindow();
		window.observe(40, 3_000, 0);
		window.observe(55, 3_000, 0);
		expect(window.budget(0)).toBe(40);
		window.observe(99, 6_000, 0);
		expect(window.budget(0)).toBe(99);
		window.observe(10, 3_000, 0);
		expect(window.budget(0)).toBe(99);
	});

	test('a window spent whose reset is already past is held for the floor of every wait, 0.5 s', () => {
		const window = new PlatformWindow();
		window.observe(0, 1_000, 5_000);
		expect(window.isOpen(5_000)).toBe(true);
		expect(window.untilReset(5_000)).toBe(500);
		expect(window.hasReset(5_500)).toBe(true);
	});

	test("the run's own unanswered requests come off the budget", () => {
		const window = new PlatformWindow();
		window.observe(5, 3_000, 0);
		expect(window.budget(3)).toBe(2);
		expect(window.budget(7)).toBe(-2);
	});

	test('the budget is spread evenly over the time left, never past the documented window length', () => {
		const window = new PlatformWindow();
		window.observe(9, 10_000, 0);
		expect(window.spacingMs(7_000, 0)).toBe(300);
		expect(window.spacingMs(7_000, 0, 1_000)).toBe(100);
		expect(window.spacingMs(7_000, 9)).toBe(3_000);
	});

	test('other clients are told from the drop: four sharing a window spread four times as wide, carried to the next window', () => {
		const window = new PlatformWindow();
		window.observe(100, 3_000, 0);
		expect(window.sharers()).toBe(1);
		// Each of our answers shows the budget 4 lower: 1 ours, 3 others'.
		window.observe(96, 3_000, 0);
		window.observe(92, 3_000, 0);
		expect(window.sharers()).toBe(4);
		expect(window.spacingMs(1_000, 0)).toBeCloseTo((4 * 2_000) / 93);
		window.observe(100, 6_000, 0);
		expect(window.sharers()).toBe(4);
	});

	test('open until its reset; after it, a reset window says nothing of the next one', () => {
		const window = new PlatformWindow();
		expect(window.isOpen(0)).toBe(false);
		expect(window.hasReset(0)).toBe(false);
		window.observe(1, 3_000, 0);
		expect(window.isOpen(2_999)).toBe(true);
		expect(window.hasReset(3_000)).toBe(true);
	});
});

describe('Pacer: one run of one endpoint group', () => {
	test('a run whose requests all fit in what the window has left sends them at once', async () => {
		const pacer = new Pacer({ limit: undefined, parallel: 8, planned: 5 });
		pacer.settle(answer(201, 100, resetInSeconds(3)));
		const started = Date.now();
		for (let index = 0; index < 4; index++) expect(await pacer.acquire()).toEqual({ ok: true });
		expect(Date.now() - started).toBeLessThan(500);
	});

	test('a run with more than the window has left starts no more than it has left before the reset', async () => {
		const pacer = new Pacer({ limit: undefined, parallel: 8, planned: 20 });
		// Taken at a whole second, so the window is about a second long.
		await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
		const resetAtMs = resetInSeconds(1);
		expect(await pacer.acquire()).toEqual({ ok: true });
		pacer.settle(answer(201, 3, resetAtMs));

		const startedAt: number[] = [];
		for (let index = 0; index < 4; index++) {
			await pacer.acquire();
			startedAt.push(Date.now());
			pacer.settle(answer(201, Math.max(0, 2 - index), Date.now() < resetAtMs ? resetAtMs : resetAtMs + 1000));
		}

		expect(startedAt.filter((time) => time < resetAtMs)).toHaveLength(3);
		// Spread, not a burst: the three starts before the reset take a good part of the window.
		expect(startedAt[2] - startedAt[0]).toBeGreaterThan(200);
	});

	test('after a 429 half as many requests go at once, growing back by one per accepted answer', async () => {
		const pacer = new Pacer({ limit: undefined, parallel: 4, planned: 100 });
		for (let index = 0; index < 4; index++) await pacer.acquire();
		pacer.settle({ statusCode: 429, headers: {}, body: {} });
		pacer.settle(answer(201, 1000, resetInSeconds(60)));
		pacer.settle(answer(201, 1000, resetInSeconds(60)));
		// One still on the wire; the 429 halved 4 to 2 and two accepted answers grew it back to 4.
		const acquired = [pacer.acquire(), pacer.acquire(), pacer.acquire()];
		await Promise.all(acquired);
		expect(await isPending(pacer.acquire())).toBe(true);
	});

	test('after a 429, with nothing answered since, the third request at once waits', async () => {
		const pacer = new Pacer({ limit: undefined, parallel: 4, planned: 100 });
		for (let index = 0; index < 4; index++) await pacer.acquire();
		pacer.settle({ statusCode: 429, headers: {}, body: {} });
		// Three on the wire, two allowed: the next waits for an answer.
		const next = pacer.acquire();
		expect(await isPending(next)).toBe(true);
		pacer.settle(answer(201, 1000, resetInSeconds(60)));
		pacer.settle(answer(201, 1000, resetInSeconds(60)));
		expect(await next).toEqual({ ok: true });
	});

	test('a spent window whose reset is past the wait the node allows is not slept: the caller learns the wait', async () => {
		const pacer = new Pacer({ limit: undefined, parallel: 2, planned: 2 });
		await pacer.acquire();
		pacer.settle(answer(201, 0, resetInSeconds(3600)));

		const acquired = await pacer.acquire(60_000);

		expect(acquired.ok).toBe(false);
		expect(acquired.ok === false && acquired.waitMs).toBeGreaterThan(3_500_000);
	});
});
