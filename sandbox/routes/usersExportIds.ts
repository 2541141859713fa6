import { badRequest } from '../badRequest';
import type { RouteDeclaration } from '../core/route';
import { buildExportObject } from '../export/exportObject';
import { findExportUsers } from '../export/findExportUsers';
import { readExportRequest } from '../export/readExportRequest';

/** POST /users/export/ids: the profiles named by the request, each restricted to `fields_to_export`. */
export const usersExportIds: RouteDeclaration = {
	method: 'POST',
	path: '/users/export/ids',
	auth: 'rest',
	permission: 'users.export.ids',
	rateLimitGroup: 'users.export.ids',
	handle({ body, state }) {
		const request = readExportRequest(body);
		if (!request.ok) return badRequest(request.error);
		const { profiles, invalidUserIds } = findExportUsers(state, request.value.lookup);
		const answer: Record<string, unknown> = {
			message: 'success',
			users: profiles.map((profile) => buildExportObject(state, profile, request.value.fields)),
		};
		if (invalidUserIds.length > 0) answer.invalid_user_ids = invalidUserIds;
		// The spec does not show the status of a successful export; 201 like the platform's other POSTs
		// (the contract the nodes are written against).
		return { status: 201, body: answer };
	},
};
