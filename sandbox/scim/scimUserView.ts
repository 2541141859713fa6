import type { ScimUserView } from '../dashboardApiTypes';
import type { DashboardUser } from '../state/dashboardUserStore';
import { SCIM_USER_SCHEMA } from './scimRoute';
import { signInTimeText } from './signInTime';

/** The full user object every SCIM endpoint answers (a copy). Unset `name` and `department` are left out, as RFC 7643 §2.5 allows. */
export function scimUserView(user: DashboardUser): ScimUserView {
	return {
		schemas: [SCIM_USER_SCHEMA],
		id: user.id,
		userName: user.userName,
		...(user.name === undefined ? {} : { name: { ...user.name } }),
		...(user.department === undefined ? {} : { department: user.department }),
		// Braze's sample shows the epoch for a user who never signed in; we answer null, which cannot be
		// mistaken for a real sign-in time.
		lastSignInAt: user.lastSignInAtMs === null ? null : signInTimeText(user.lastSignInAtMs),
		permissions: structuredClone(user.permissions),
	};
}
