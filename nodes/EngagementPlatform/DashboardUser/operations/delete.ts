import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { scimUserOperation } from '../shared/scimUserOperation';
import { USER_ID } from '../shared/userFields';

export const option: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a dashboard user',
	description: 'Delete a dashboard user account (standard SCIM 2.0 DELETE)',
	builderHint: {
		propertyHint:
			'Pick to delete a dashboard account by its ID; when only the email is known, get the ID with findByEmail first.',
	},
};

export const description: INodeProperties[] = USER_ID.properties;

export const operation = scimUserOperation({
	method: 'DELETE',
	byId: true,
	// A resend after a lost answer would get 404 for a user it did delete: reported as "may have been applied" instead.
	safeToResend: false,
	read: (item) => {
		const id = USER_ID.read(item);
		return { call: { id }, subject: { id } };
	},
	result: (_, subject) => [{ deleted: true, ...subject }],
	oneItemPerUser: { input: USER_ID, keyOf: (subject) => String(subject.id) },
});
