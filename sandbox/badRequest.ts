import type { RouteResult } from './core/route';

/**
 * A request the platform refuses as a whole. The spec shows the fatal body of /users/track
 * (`message` plus `errors` holding it) but no status; we answer 400 with that body on every endpoint,
 * as Braze does for a malformed request.
 */
export function badRequest(message: string): RouteResult {
	return { status: 400, body: { message, errors: [message] } };
}

/**
 * Top-level fields the endpoint does not take, as a message, or undefined. A misspelt array would
 * otherwise vanish silently and the request would "succeed" doing nothing.
 */
export function unknownFieldsProblem(body: Record<string, unknown>, accepted: readonly string[]): string | undefined {
	const unknown = Object.keys(body).filter((key) => !accepted.includes(key));
	if (unknown.length === 0) return undefined;
	return `Unknown request field(s): ${unknown.join(', ')}; accepted: ${accepted.join(', ')}`;
}
