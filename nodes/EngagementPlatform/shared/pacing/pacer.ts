import { sleep } from 'n8n-workflow';

import type { RateLimit } from '../limits/rateLimits';

/** Whether a request may leave now, or how long it would have had to wait. */
export type Acquired = { ok: true } | { ok: false; waitMs: number };

/**
 * Keeps one run's requests of one endpoint group within a documented limit, and holds them
 * while the platform says the window is spent (X-RateLimit-Remaining 0, or a 429).
 * One pacer per run and group: nothing is shared between executions.
 */
export class Pacer {
	private readonly sentAt: number[] = [];
	private pausedUntil = 0;

	constructor(
		private readonly limit: RateLimit | undefined,
		private readonly onWait: (waitMs: number, reason: string) => void = () => {},
	) {}

	/**
	 * Resolves when one more request may leave. A single wait longer than `maxWaitMs` (a daily
	 * limit spent, a reset hours away) is not slept: the caller learns how long it would be.
	 */
	async acquire(maxWaitMs = Number.POSITIVE_INFINITY): Promise<Acquired> {
		for (;;) {
			const now = Date.now();
			const waitMs = Math.max(this.pausedUntil - now, this.windowWait(now));
			if (waitMs <= 0) break;
			if (waitMs > maxWaitMs) return { ok: false, waitMs };
			this.onWait(waitMs, this.pausedUntil > now ? 'the platform asked to wait' : 'the documented rate limit');
			await sleep(waitMs);
		}
		if (this.limit) this.sentAt.push(Date.now());
		return { ok: true };
	}

	/** Holds every request of this group until `untilMs` (epoch milliseconds). */
	pauseUntil(untilMs: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, untilMs);
	}

	private windowWait(now: number): number {
		if (!this.limit) return 0;
		const windowStart = now - this.limit.windowMs;
		let expired = 0;
		while (expired < this.sentAt.length && this.sentAt[expired] <= windowStart) expired++;
		if (expired > 0) this.sentAt.splice(0, expired);
		if (this.sentAt.length < this.limit.requests) return 0;
		return this.sentAt[0] + this.limit.windowMs - now + 1;
	}
}
