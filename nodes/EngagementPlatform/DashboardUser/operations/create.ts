import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { isEmptyPermissions, PERMISSIONS } from '../shared/permissionFields';
import { SCIM_USER_SCHEMA, scimUserOperation } from '../shared/scimUserOperation';
import { profile, USER_EMAIL } from '../shared/userFields';

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a dashboard user',
	description: 'Create a dashboard user account with its permissions',
	builderHint: {
		propertyHint: 'Pick to create a dashboard login account, named by its email, with its permissions.',
	},
};

const PROFILE = profile(false);

export const description: INodeProperties[] = [
	...USER_EMAIL.properties,
	...PROFILE.properties,
	...PERMISSIONS.properties,
];

export const operation = scimUserOperation({
	method: 'POST',
	byId: false,
	// A second create after a lost answer would be refused as a duplicate (409): not resent.
	safeToResend: false,
	read(item) {
		const userName = USER_EMAIL.read(item);
		const { permissions } = PERMISSIONS.read(item);
		const body = {
			schemas: [SCIM_USER_SCHEMA],
			userName,
			...PROFILE.read(item),
			...(isEmptyPermissions(permissions) ? {} : { permissions }),
		};
		return { call: { body }, subject: { userName } };
	},
	result: (user) => [user],
	// userName is unique without regard to case (RFC 7643).
	oneItemPerUser: { input: USER_EMAIL, keyOf: (subject) => String(subject.userName).toLowerCase() },
});
