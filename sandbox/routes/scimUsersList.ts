import type { RouteDeclaration } from '../core/route';
import { scimError } from '../core/scimErrorBody';
import { readListPage } from '../scim/readListPage';
import { readUserFilter } from '../scim/readUserFilter';
import { SCIM_LIST_RESPONSE_SCHEMA, SCIM_ROUTE } from '../scim/scimRoute';
import { invalidValue } from '../scim/scimUserErrors';
import { scimUserView } from '../scim/scimUserView';

/**
 * GET /scim/v2/Users?filter=userName eq "<email>": the users matching (userName compared without regard
 * to case), or every user without a filter, a page at a time. Not shown: the answer. RFC 7644 §3.4.2's
 * ListResponse; Braze's sample has its schemas, totalResults and Resources, the RFC adds startIndex and
 * itemsPerPage. Other query parameters (attributes, sortBy, ...) are ignored.
 */
export const scimUsersList: RouteDeclaration = {
	method: 'GET',
	path: '/scim/v2/Users',
	...SCIM_ROUTE,
	handle({ query, state }) {
		const filter = readUserFilter(query.filter);
		if (!filter.ok) return scimError(400, filter.error, 'invalidFilter');
		const page = readListPage(query);
		if (!page.ok) return invalidValue(page.error);
		const wanted = filter.value?.toLowerCase();
		const matches = state.dashboardUsers
			.all()
			.filter((user) => wanted === undefined || user.userName.toLowerCase() === wanted);
		const { startIndex, count } = page.value;
		const resources = matches.slice(startIndex - 1, startIndex - 1 + count).map(scimUserView);
		return {
			status: 200,
			body: {
				schemas: [SCIM_LIST_RESPONSE_SCHEMA],
				totalResults: matches.length,
				startIndex,
				itemsPerPage: resources.length,
				Resources: resources,
			},
		};
	},
};
