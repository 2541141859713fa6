/** A documented request limit: at most `requests` in any `windowMs`. */
export interface RateLimit {
	requests: number;
	windowMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The spec's Limits table, one named limit per row (endpoints that share one share its name). Where the spec shows no number (catalogs,
 * transactional send) the limit has none here: the platform's 429s and X-RateLimit
 * headers still pace those requests.
 */
export const RATE_LIMITS = {
	'users.track': { requests: 3000, windowMs: 3 * SECOND },
	'subscription.status.set': { requests: 5000, windowMs: MINUTE },
	'users.export.ids': { requests: 250, windowMs: MINUTE },
	// "/canvas/trigger/send, /campaigns/trigger/send, /messages/send with a segment or connected audience".
	'messaging.segment': { requests: 250, windowMs: MINUTE },
	// "the same endpoints with external IDs ... shared among the three".
	'messaging.external_ids': { requests: 250_000, windowMs: HOUR },
	'users.identify': { requests: 20_000, windowMs: MINUTE },
	'users.external_ids.rename': { requests: 1000, windowMs: MINUTE },
	scim: { requests: 5000, windowMs: DAY },
	preference_center: { requests: 10, windowMs: MINUTE },
	// "250,000 requests per hour each".
	'translations.campaigns': { requests: 250_000, windowMs: HOUR },
	'translations.canvas': { requests: 250_000, windowMs: HOUR },
	'canvas.schedule': { requests: 250_000, windowMs: HOUR },
	catalogs: undefined,
	transactional: undefined,
} as const satisfies Record<string, RateLimit | undefined>;

/** A limit of the Limits table: a name outside it does not compile. */
export type RateLimitName = keyof typeof RATE_LIMITS;
