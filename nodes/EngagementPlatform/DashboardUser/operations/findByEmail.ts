import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { scimUserOperation } from '../shared/scimUserOperation';
import { USER_EMAIL } from '../shared/userFields';

export const option: INodePropertyOptions = {
	name: 'Find by Email',
	value: 'findByEmail',
	action: 'Find a dashboard user by email',
	description: 'Look a dashboard user up by email, e.g. to get the ID for Update or Delete (standard SCIM 2.0 filter)',
	builderHint: {
		propertyHint:
			'Pick to look an account up by email, for example to get the ID that get, update and delete need; a miss outputs found false.',
	},
};

export const description: INodeProperties[] = USER_EMAIL.properties;

export const operation = scimUserOperation({
	method: 'GET',
	byId: false,
	safeToResend: true,
	read(item) {
		const userName = USER_EMAIL.read(item);
		// RFC 7644 §3.4.2.2: the compared value is a JSON string, so quotes and backslashes are escaped.
		return { call: { query: { filter: `userName eq ${JSON.stringify(userName)}` } }, subject: { userName } };
	},
	// The spec does not show this response: it is read as RFC 7644's ListResponse. Only the accounts
	// whose userName is the one asked for count (compared without case, as RFC 7643 has userName): a
	// list answering more (a filter the server ignored) must not hand other accounts to Update or
	// Delete. An item always gets a result, so a miss says found: false.
	result(list, subject) {
		const asked = String(subject.userName).toLowerCase();
		const users = (Array.isArray(list.Resources) ? (list.Resources as IDataObject[]) : []).filter(
			(user) => typeof user.userName === 'string' && user.userName.toLowerCase() === asked,
		);
		if (users.length === 0) return [{ found: false, ...subject }];
		return users.map((user) => ({ found: true, ...user }));
	},
});
