import type { RouteDeclaration } from '../core/route';
import { SCIM_ROUTE } from '../scim/scimRoute';
import { userNotFound } from '../scim/scimUserErrors';

/** DELETE /scim/v2/Users/{id}: removes the account for good. Braze and RFC 7644 §3.6: 204, no body. */
export const scimUsersDelete: RouteDeclaration = {
	method: 'DELETE',
	path: '/scim/v2/Users/{id}',
	...SCIM_ROUTE,
	handle({ params, state }) {
		return state.dashboardUsers.delete(params.id) ? { status: 204, body: undefined } : userNotFound();
	},
};
