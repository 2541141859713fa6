import { isPlainObject } from '../formats';

export interface MessagingTargetFields {
	/** Body fields that name users (arrays): external IDs, aliases, recipients. */
	users: readonly string[];
	/** Body fields that aim at a segment or a connected audience. */
	audiences: readonly string[];
}

/**
 * Spec Limits: "/canvas/trigger/send, /campaigns/trigger/send, /messages/send with a segment or connected
 * audience: 250 requests per minute"; "the same endpoints with external IDs: 250,000 requests per hour".
 * A request with a segment or an audience (or a broadcast, which goes to a whole segment) counts against
 * the per-minute group even when it also names users; only a request naming users and nothing else
 * counts against the hourly one. A request with neither (refused later) counts per minute.
 */
export function messagingRateLimitName(fields: MessagingTargetFields): (body: unknown) => string {
	return (body) => {
		if (!isPlainObject(body)) return 'messaging.segment';
		const aimsAtAudience =
			body.broadcast === true || fields.audiences.some((field) => body[field] !== undefined && body[field] !== null);
		const namesUsers = fields.users.some((field) => Array.isArray(body[field]) && body[field].length > 0);
		return namesUsers && !aimsAtAudience ? 'messaging.external_ids' : 'messaging.segment';
	};
}
