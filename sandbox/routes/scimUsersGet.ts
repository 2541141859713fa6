import type { RouteDeclaration } from '../core/route';
import { SCIM_ROUTE } from '../scim/scimRoute';
import { userNotFound } from '../scim/scimUserErrors';
import { scimUserView } from '../scim/scimUserView';

/** GET /scim/v2/Users/{id}: the full user object. */
export const scimUsersGet: RouteDeclaration = {
	method: 'GET',
	path: '/scim/v2/Users/{id}',
	...SCIM_ROUTE,
	handle({ params, state }) {
		const user = state.dashboardUsers.get(params.id);
		// The spec lists "User not found" for PUT; Braze answers GET and DELETE of an unknown ID the same way.
		return user ? { status: 200, body: scimUserView(user) } : userNotFound();
	},
};
