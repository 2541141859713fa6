import { isPlainObject } from '../formats';

/**
 * Spec Limits: the three messaging endpoints aimed at external IDs share one hourly budget; aimed at a
 * segment or connected audience, a per-minute one. A request naming users (`fields`, any non-empty
 * array) counts against the first, anything else against the second.
 */
export function messagingRateLimitGroup(...fields: string[]): (body: unknown) => string {
	return (body) => {
		const namesUsers = isPlainObject(body) && fields.some((field) => Array.isArray(body[field]) && body[field].length > 0);
		return namesUsers ? 'messaging.external_ids' : 'messaging.segment';
	};
}
