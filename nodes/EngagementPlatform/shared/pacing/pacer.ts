import { sleep } from 'n8n-workflow';

import type { ApiResponse } from '../engine/transport';
import type { RateLimit } from '../limits/rateLimits';
import { PlatformWindow } from './platformWindow';
import { platformWindowOf } from './rateLimitWait';

/** Whether a request may leave now, or how long it would have had to wait. */
export type Acquired = { ok: true } | { ok: false; waitMs: number };

export interface PacerSettings {
	/** The spec's documented limit for the group, if it shows one. */
	limit: RateLimit | undefined;
	/** The most requests this run has on the wire at once. */
	parallel: number;
	/** How many requests of this group the run plans to send. */
	planned: number;
	onWait?: (waitMs: number, reason: string) => void;
}

const SPREADING = "the platform's remaining budget, shared with other executions";
/** Spreading waits shorter than this are the steady pace of a shared budget, not worth a log line each. */
const QUIET_SPREAD_MS = 1000;

/**
 * Keeps one run's requests of one endpoint group polite, alone and next to other executions:
 * - never past the spec's documented limit on its own (a sliding window of its own starts);
 * - never more starts than the platform's window has remaining (X-RateLimit-Remaining, less the
 *   run's own unanswered requests), and, when the run has more to send than that, the remaining
 *   budget spread evenly until the reset instead of all at once;
 * - after a window resets, one request until the platform describes the new one;
 * - after a 429, half as many requests at once, growing back by one per accepted answer.
 * Nothing is shared between executions but what the platform answers every client alike.
 */
export class Pacer {
	private readonly sentAt: number[] = [];
	private readonly window = new PlatformWindow();
	private readonly answerWaiters: Array<() => void> = [];
	private pausedUntil = 0;
	private inFlight = 0;
	private started = 0;
	private lastStartAt = 0;
	private concurrency: number;

	constructor(private readonly settings: PacerSettings) {
		this.concurrency = Math.max(1, settings.parallel);
	}

	/**
	 * Resolves when one more request may leave, and counts it as on the wire until `settle`. A single
	 * wait longer than `maxWaitMs` (a daily limit spent, a reset hours away) is not slept: the caller
	 * learns how long it would be.
	 */
	async acquire(maxWaitMs = Number.POSITIVE_INFINITY): Promise<Acquired> {
		for (;;) {
			const now = Date.now();
			if (this.inFlight > 0 && this.inFlight >= this.allowedInFlight(now)) {
				await this.nextAnswer();
				continue;
			}
			const spent = this.window.isOpen(now) && this.window.budget(this.inFlight) <= 0;
			if (spent && this.inFlight > 0) {
				// An answer on its way may describe the next window; wait for it rather than the clock.
				await this.nextAnswer();
				continue;
			}
			const [waitMs, reason] = this.longestWait(now, maxWaitMs, spent);
			if (waitMs <= 0) break;
			if (waitMs > maxWaitMs) return { ok: false, waitMs };
			if (reason !== SPREADING || waitMs >= QUIET_SPREAD_MS) this.settings.onWait?.(waitMs, reason);
			await sleep(waitMs);
		}
		const now = Date.now();
		if (this.settings.limit) this.sentAt.push(now);
		this.inFlight++;
		this.started++;
		this.lastStartAt = now;
		return { ok: true };
	}

	/** The request that `acquire` let go was answered (`response`) or failed without an answer. */
	settle(response?: ApiResponse): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		if (response) {
			// A 429's wait (Retry-After before X-RateLimit-Reset) is the caller's pauseUntil; here it only halves the parallelism.
			if (response.statusCode === 429) {
				this.concurrency = Math.max(1, Math.floor(this.concurrency / 2));
			} else {
				const figures = platformWindowOf(response);
				if (figures) this.window.observe(figures.remaining, figures.resetAtMs, Date.now());
				if (response.statusCode < 400) this.concurrency = Math.min(this.settings.parallel, this.concurrency + 1);
			}
		}
		for (const wake of this.answerWaiters.splice(0)) wake();
	}

	/** Holds every request of this group until `untilMs` (epoch milliseconds). */
	pauseUntil(untilMs: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, untilMs);
	}

	private allowedInFlight(now: number): number {
		return this.window.hasReset(now) ? 1 : this.concurrency;
	}

	private async nextAnswer(): Promise<void> {
		await new Promise<void>((resolve) => this.answerWaiters.push(resolve));
	}

	private longestWait(now: number, maxWaitMs: number, spent: boolean): [number, string] {
		const waits: Array<[number, string]> = [
			[this.pausedUntil - now, 'the platform asked to wait'],
			[this.documentedWait(now), 'the documented rate limit'],
			spent
				? [this.window.untilReset(now), "the platform's rate-limit window to reset (X-RateLimit-Remaining 0)"]
				: [this.spreadWait(now, maxWaitMs), SPREADING],
		];
		return waits.reduce((longest, wait) => (wait[0] > longest[0] ? wait : longest));
	}

	/** Zero unless the run has more to send than the window takes and will wait for the reset anyway. */
	private spreadWait(now: number, maxWaitMs: number): number {
		if (!this.window.isOpen(now)) return 0;
		const windowMs = this.settings.limit?.windowMs;
		const unsent = this.settings.planned - this.started;
		if (unsent <= this.window.budget(this.inFlight)) return 0;
		// Past the node's wait budget the rest fails at the reset anyway: spreading would only delay what the window takes.
		if (this.window.untilReset(now, windowMs) > maxWaitMs) return 0;
		// Never past the reset: the next window's budget is new, whatever this one's pace said.
		const untilReset = this.window.untilReset(now);
		return Math.min(this.lastStartAt + this.window.spacingMs(now, this.inFlight, windowMs) - now, untilReset);
	}

	private documentedWait(now: number): number {
		const limit = this.settings.limit;
		if (!limit) return 0;
		const windowStart = now - limit.windowMs;
		let expired = 0;
		while (expired < this.sentAt.length && this.sentAt[expired] <= windowStart) expired++;
		if (expired > 0) this.sentAt.splice(0, expired);
		if (this.sentAt.length < limit.requests) return 0;
		return this.sentAt[0] + limit.windowMs - now + 1;
	}
}
