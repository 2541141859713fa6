import type { RateLimit } from './adminApiTypes';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Default limits per rate-limit group, from the spec's Limits table. A route names its group; routes
 * that share a documented limit share a group. `null`: the platform answers no 429 for that group.
 */
export const DEFAULT_RATE_LIMITS: Readonly<Record<string, RateLimit | null>> = {
	'users.track': { limit: 3000, windowMs: 3 * SECOND },
	// Shared by /v2/subscription/status/set and /subscription/status/set.
	'subscription.status.set': { limit: 5000, windowMs: MINUTE },
	'users.export.ids': { limit: 250, windowMs: MINUTE },
	// /canvas/trigger/send, /campaigns/trigger/send, /messages/send with a segment or connected audience
	// (or a broadcast), whether or not they also name users: see messaging/rateLimitGroup.ts.
	'messaging.segment': { limit: 250, windowMs: MINUTE },
	// The same three endpoints aimed at users alone: one shared budget.
	'messaging.external_ids': { limit: 250_000, windowMs: HOUR },
	// Shared with /users/delete, /users/alias/new, /users/merge, /users/alias/update.
	'users.identify': { limit: 20_000, windowMs: MINUTE },
	'users.external_ids.rename': { limit: 1000, windowMs: MINUTE },
	// Per company in the spec, shared by all SCIM endpoints; per token here.
	scim: { limit: 5000, windowMs: DAY },
	// Per workspace in the spec; per API key here (one workspace per key in the sandbox).
	preference_center: { limit: 10, windowMs: MINUTE },
	// "250,000 requests per hour each".
	'canvas.translations': { limit: 250_000, windowMs: HOUR },
	'campaigns.translations': { limit: 250_000, windowMs: HOUR },
	// Schedule update and delete: one budget.
	'canvas.trigger.schedule': { limit: 250_000, windowMs: HOUR },
	// Not shown in the spec. Braze shares 100 requests per minute among its asynchronous catalog item endpoints.
	catalogs: { limit: 100, windowMs: MINUTE },
	// The spec: transactional send keeps accepting calls past its limit instead of answering 429.
	transactional: null,
};
