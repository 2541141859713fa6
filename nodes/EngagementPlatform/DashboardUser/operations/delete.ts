import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { scimUserOperation } from '../shared/scimUserOperation';
import { userIdField } from '../shared/userFields';
import { readPathSegment } from '../../shared/fields/pathSegment';

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

export const description: INodeProperties[] = [userIdField()];

export const operation = scimUserOperation({
	method: 'DELETE',
	byId: true,
	// A resend after a lost answer would get 404 for a user it did delete: reported as "may have been applied" instead.
	safeToResend: false,
	read: (item) => {
		const id = readPathSegment(item, 'userId');
		return { call: { id }, subject: { id } };
	},
	result: (_, subject) => [{ deleted: true, ...subject }],
	oneItemPerUser: { field: 'User ID', keyOf: (subject) => String(subject.id) },
});
