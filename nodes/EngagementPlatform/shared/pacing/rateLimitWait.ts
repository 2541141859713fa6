import type { ApiResponse } from '../engine/transport';

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
