import { sleep } from 'n8n-workflow';

import type { ApiResponse } from './transport';
import type { RateLimit } from '../../limits/rateLimits';

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

/**
 * What the platform last said about the current rate-limit window of one endpoint group: how many
 * requests it still takes (X-RateLimit-Remaining) and when the window resets (X-RateLimit-Reset).
 * Every client of the same key hears the same figures, so pacing from them shares the budget among
 * executions on one worker or many without any state of our own outside this run.
 */
/** More sharers than this are not told apart: the spacing is already many times the window's pace. */
const MAX_SHARERS = 64;
/** How long a spent window with a reset in the past is held (the backoff's floor, rateLimitWaitMs below). */
const SPENT_WINDOW_FLOOR_MS = 500;

export class PlatformWindow {
	private remaining = 0;
	private resetAtMs = 0;
	/** The first figure this run heard of the current window, and its own answers since. */
	private firstRemaining = 0;
	private answersSinceFirst = 0;
	private sharersEstimate = 1;

	/**
	 * Takes in one answer's figures. Answers can arrive out of order: within one window the lowest
	 * remaining wins; a later window replaces an earlier one. A window spent whose reset is already
	 * past (the platform's clock behind ours) says nothing of when the next opens: it is held for the
	 * floor of every wait, as a 429 without headers is, never left open at once.
	 */
	observe(remaining: number, reportedResetAtMs: number, now: number): void {
		const resetAtMs = remaining <= 0 && reportedResetAtMs <= now ? now + SPENT_WINDOW_FLOOR_MS : reportedResetAtMs;
		if (resetAtMs > this.resetAtMs) {
			this.resetAtMs = resetAtMs;
			this.remaining = remaining;
			this.firstRemaining = remaining;
			this.answersSinceFirst = 0;
		} else if (resetAtMs === this.resetAtMs) {
			this.remaining = Math.min(this.remaining, remaining);
			this.answersSinceFirst++;
			// Each answer of ours is one request of ours counted; the rest of the drop is other clients'.
			if (this.answersSinceFirst >= 2) {
				const drop = this.firstRemaining - this.remaining;
				this.sharersEstimate = Math.min(MAX_SHARERS, Math.max(1, drop / this.answersSinceFirst));
			}
		}
	}

	/**
	 * How many clients spend this window's budget at our pace, ourselves included: the window's drop
	 * over our own share of it, carried from window to window.
	 */
	sharers(): number {
		return this.sharersEstimate;
	}

	/** Whether the platform has described a window that has not reset yet. */
	isOpen(now: number): boolean {
		return this.resetAtMs > now;
	}

	/** Whether a window was described and has since reset: nothing is known of the new one yet. */
	hasReset(now: number): boolean {
		return this.resetAtMs > 0 && this.resetAtMs <= now;
	}

	/** Requests the window still takes once this run's own unanswered ones are counted. */
	budget(inFlight: number): number {
		return this.remaining - inFlight;
	}

	/** Milliseconds until the window resets, never more than the documented window length. */
	untilReset(now: number, documentedWindowMs = Number.POSITIVE_INFINITY): number {
		return Math.min(this.resetAtMs - now, documentedWindowMs);
	}

	/**
	 * The pause between two starts that spreads the remaining budget evenly over the rest of the
	 * window. When every execution paces this way, their combined rate falls as the budget does and
	 * reaches the limit as the window ends, instead of all bursting at the reset and meeting 429s.
	 */
	spacingMs(now: number, inFlight: number, documentedWindowMs?: number): number {
		const budget = this.budget(inFlight);
		if (budget <= 0) return this.untilReset(now, documentedWindowMs);
		return (this.sharers() * this.untilReset(now, documentedWindowMs)) / (budget + 1);
	}
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;

/**
 * How long to wait after a 429: the platform's Retry-After (seconds or an HTTP date), else its
 * X-RateLimit-Reset (epoch seconds), else exponential backoff with full jitter. A wait the headers
 * put at zero or in the past (a proxy's clock, a reset already gone by) is no wait at all, and would
 * resend at once, again and again: it waits as a 429 without headers does. The ceiling is the
 * caller's budget (Max Rate Limit Wait).
 */
export function rateLimitWaitMs(response: ApiResponse, attempt: number, now = Date.now()): number {
	const told = headerWaitMs(response, now);
	return told !== undefined && told > 0 ? told : backoffMs(attempt);
}

function headerWaitMs(response: ApiResponse, now: number): number | undefined {
	const retryAfter = header(response, 'retry-after')?.trim();
	if (retryAfter) {
		const seconds = Number(retryAfter);
		if (Number.isFinite(seconds)) return seconds * 1000;
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return date - now;
	}
	const reset = Number(header(response, 'x-ratelimit-reset'));
	return Number.isFinite(reset) && reset > 0 ? reset * 1000 - now : undefined;
}

/** Exponential backoff with full jitter: random in [base, base * 2^attempt], capped. */
export function backoffMs(attempt: number): number {
	const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
	return BACKOFF_BASE_MS + Math.random() * (ceiling - BACKOFF_BASE_MS);
}

/** The platform's figures for the window an answer fell in: requests it still takes, and when it resets (epoch ms). */
function platformWindowOf(response: ApiResponse): { remaining: number; resetAtMs: number } | undefined {
	const remaining = Number(header(response, 'x-ratelimit-remaining'));
	const reset = Number(header(response, 'x-ratelimit-reset'));
	if (!Number.isFinite(remaining) || !Number.isFinite(reset) || reset <= 0) return undefined;
	return { remaining: Math.max(0, remaining), resetAtMs: reset * 1000 };
}

function header(response: ApiResponse, name: string): string | undefined {
	const value = response.headers[name] ?? response.headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}
