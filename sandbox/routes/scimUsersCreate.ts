import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { RouteDeclaration } from '../core/route';
import { readNewUser } from '../scim/readNewUser';
import { SCIM_ROUTE } from '../scim/scimRoute';
import { invalidValue, userAlreadyExists } from '../scim/scimUserErrors';
import { scimUserView } from '../scim/scimUserView';
import type { DashboardUser } from '../state/dashboardUserStore';

/** POST /scim/v2/Users: creates a dashboard user account. 201 with the full user object. */
export const scimUsersCreate: RouteDeclaration = {
	method: 'POST',
	path: '/scim/v2/Users',
	...SCIM_ROUTE,
	handle({ body, state, headers }) {
		const request = readNewUser(body, state.dashboardDirectory);
		if (!request.ok) return invalidValue(request.error);
		if (state.dashboardUsers.withUserName(request.value.userName)) return userAlreadyExists();
		// Not shown: the form of the resource ID ("a string"). A random UUID. A new account has never signed in.
		const user: DashboardUser = { id: randomUUID(), ...request.value, lastSignInAtMs: null };
		state.dashboardUsers.put(user);
		return { status: 201, body: scimUserView(user), headers: locationOf(headers, user.id) };
	},
};

/** RFC 7644 §3.3: a created resource's URI in Location (not shown in the spec). */
function locationOf(headers: IncomingHttpHeaders, id: string): Record<string, string> {
	return headers.host === undefined
		? {}
		: { Location: `http://${headers.host}/scim/v2/Users/${encodeURIComponent(id)}` };
}
