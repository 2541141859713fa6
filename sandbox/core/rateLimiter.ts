import type { RateLimit } from '../adminApiTypes';

export interface RateLimitDecision {
	allowed: boolean;
	limit: number;
	remaining: number;
	/** Epoch milliseconds at which the current window ends. */
	resetAtMs: number;
}

/**
 * Fixed windows per (principal, group), aligned to multiples of the window length since the epoch, so
 * a minute window resets on the minute as the platform's do. A refused request does not count.
 */
export class FixedWindowRateLimiter {
	private readonly windows = new Map<string, { start: number; count: number }>();

	constructor(private readonly limitOf: (group: string) => RateLimit | null | undefined) {}

	/** Counts one request. `undefined` when the group has no limit. */
	take(principal: string, group: string, nowMs: number): RateLimitDecision | undefined {
		const rule = this.limitOf(group);
		if (!rule) return undefined;
		const start = Math.floor(nowMs / rule.windowMs) * rule.windowMs;
		const key = `${group}\n${principal}`;
		let window = this.windows.get(key);
		if (!window || window.start !== start) {
			window = { start, count: 0 };
			this.windows.set(key, window);
		}
		const allowed = window.count < rule.limit;
		if (allowed) window.count++;
		return {
			allowed,
			limit: rule.limit,
			remaining: Math.max(0, rule.limit - window.count),
			resetAtMs: start + rule.windowMs,
		};
	}

	/** The window a request would fall in now, without counting it (for injected 429s). */
	peek(group: string, nowMs: number): { limit: number; resetAtMs: number } | undefined {
		const rule = this.limitOf(group);
		if (!rule) return undefined;
		return { limit: rule.limit, resetAtMs: (Math.floor(nowMs / rule.windowMs) + 1) * rule.windowMs };
	}

	clear(): void {
		this.windows.clear();
	}
}

export function rateLimitHeaders(limit: number, remaining: number, resetAtMs: number): Record<string, string> {
	return {
		'X-RateLimit-Limit': String(limit),
		'X-RateLimit-Remaining': String(remaining),
		'X-RateLimit-Reset': String(Math.ceil(resetAtMs / 1000)),
	};
}

/** Whole seconds until `resetAtMs`, at least 1. */
export function secondsUntil(resetAtMs: number, nowMs: number): number {
	return Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
}
