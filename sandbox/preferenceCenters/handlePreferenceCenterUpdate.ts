import { badRequest } from '../badRequest';
import type { RouteContext, RouteResult } from '../core/route';
import { readPreferenceCenterUpdate } from './readPreferenceCenterUpdate';

// Not shown: the body of an unknown preference center (the spec shows no 404 at all). 404 with `message`,
// as the sandbox's other not-found answers.
const NOT_FOUND: RouteResult = { status: 404, body: { message: 'Preference center not found' } };

/**
 * PUT and POST /preference_center/v1/{preferenceCenterExternalID}: the fields sent replace the stored
 * ones (options whole). The preference center named is looked up first, as the catalog endpoints do.
 */
export function handlePreferenceCenterUpdate({ body, params, state, now }: RouteContext): RouteResult {
	const center = state.preferenceCenters.get(params.preferenceCenterExternalID);
	if (!center) return NOT_FOUND;
	const update = readPreferenceCenterUpdate(body);
	if (!update.ok) return badRequest(update.error);
	Object.assign(center, update.value, { updated_at: now.toISOString() });
	// Not shown: the status. 200, as Braze answers this endpoint.
	return {
		status: 200,
		body: {
			preference_center_api_id: center.preference_center_api_id,
			created_at: center.created_at,
			updated_at: center.updated_at,
			message: 'success',
		},
	};
}
