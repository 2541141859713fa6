import type { RouteDeclaration } from '../core/route';
import { scimError } from '../core/scimErrorBody';
import { immutableChangeProblem, readUserReplacement } from '../scim/readUserReplacement';
import { SCIM_ROUTE } from '../scim/scimRoute';
import { invalidValue, userNotFound } from '../scim/scimUserErrors';
import { scimUserView } from '../scim/scimUserView';

/** PUT /scim/v2/Users/{id}: replaces name, department and permissions whole. 200 with the full user object. */
export const scimUsersReplace: RouteDeclaration = {
	method: 'PUT',
	path: '/scim/v2/Users/{id}',
	...SCIM_ROUTE,
	handle({ body, params, state }) {
		// An unknown ID is answered 404 whatever the body: the userName rule needs the stored user.
		const user = state.dashboardUsers.get(params.id);
		if (!user) return userNotFound();
		const immutable = immutableChangeProblem(body, user);
		if (immutable) return scimError(400, immutable, 'mutability');
		const replacement = readUserReplacement(body, state.dashboardDirectory);
		if (!replacement.ok) return invalidValue(replacement.error);
		const updated = { ...user, ...replacement.value };
		state.dashboardUsers.put(updated);
		return { status: 200, body: scimUserView(updated) };
	},
};
