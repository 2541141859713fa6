import type { PreferenceCenterMethod } from '../adminApiTypes';
import type { RouteDeclaration } from '../core/route';
import { handlePreferenceCenterUpdate } from '../preferenceCenters/handlePreferenceCenterUpdate';
import { preferenceCenterMethodGate } from '../preferenceCenters/methodGate';

// The spec names the endpoint PUT and writes its sample request as POST, leaving the method unresolved:
// both are served by one handler (config.preferenceCenterMethods can turn either off).
function preferenceCenterUpdate(method: PreferenceCenterMethod): RouteDeclaration {
	return {
		method,
		path: '/preference_center/v1/{preferenceCenterExternalID}',
		auth: 'rest',
		permission: 'preference_center.update',
		rateLimitGroup: 'preference_center',
		gatewayAnswer: preferenceCenterMethodGate(method),
		handle: handlePreferenceCenterUpdate,
	};
}

/** PUT /preference_center/v1/{preferenceCenterExternalID}: 200 `{ preference_center_api_id, created_at, updated_at, message }`. */
export const preferenceCenterUpdatePut = preferenceCenterUpdate('PUT');
/** POST /preference_center/v1/{preferenceCenterExternalID}: the same endpoint by the spec's sample method. */
export const preferenceCenterUpdatePost = preferenceCenterUpdate('POST');
