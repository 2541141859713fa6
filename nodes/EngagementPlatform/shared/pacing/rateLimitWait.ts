import type { ApiResponse } from '../engine/transport';

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;

/**
 * How long to wait after a 429: the platform's Retry-After (seconds or an HTTP date), else
 * its X-RateLimit-Reset (epoch seconds), else exponential backoff with full jitter.
 */
export function rateLimitWaitMs(response: ApiResponse, attempt: number, now = Date.now()): number {
	const retryAfter = header(response, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = Number(retryAfter);
		if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return Math.max(0, date - now);
	}
	const reset = Number(header(response, 'x-ratelimit-reset'));
	if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
	return backoffMs(attempt);
}

/** Exponential backoff with full jitter: random in [base, base * 2^attempt], capped. */
export function backoffMs(attempt: number): number {
	const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
	return BACKOFF_BASE_MS + Math.random() * (ceiling - BACKOFF_BASE_MS);
}

/** The platform's figures for the window an answer fell in: requests it still takes, and when it resets (epoch ms). */
export function platformWindowOf(response: ApiResponse): { remaining: number; resetAtMs: number } | undefined {
	const remaining = Number(header(response, 'x-ratelimit-remaining'));
	const reset = Number(header(response, 'x-ratelimit-reset'));
	if (!Number.isFinite(remaining) || !Number.isFinite(reset) || reset <= 0) return undefined;
	return { remaining: Math.max(0, remaining), resetAtMs: reset * 1000 };
}

function header(response: ApiResponse, name: string): string | undefined {
	const value = response.headers[name] ?? response.headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}
