import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { isEmptyPermissions, permissionFields, readPermissions } from '../shared/permissionFields';
import { SCIM_USER_SCHEMA, scimUserOperation } from '../shared/scimUserOperation';
import { emailField, profileFields, readEmail, readProfile } from '../shared/userFields';

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a dashboard user',
	description: 'Create a dashboard user account with its permissions',
	builderHint: {
		propertyHint: 'Pick to create a dashboard login account, named by its email, with its permissions.',
	},
};

export const description: INodeProperties[] = [emailField(), ...profileFields(false), ...permissionFields()];

export const operation = scimUserOperation({
	method: 'POST',
	byId: false,
	// A second create after a lost answer would be refused as a duplicate (409): not resent.
	safeToResend: false,
	read(item) {
		const userName = readEmail(item);
		const permissions = readPermissions(item);
		const body = {
			schemas: [SCIM_USER_SCHEMA],
			userName,
			...readProfile(item, false),
			...(isEmptyPermissions(permissions) ? {} : { permissions }),
		};
		return { call: { body }, subject: { userName } };
	},
	result: (user) => [user],
	// userName is unique without regard to case (RFC 7643).
	oneItemPerUser: { field: 'Email', keyOf: (subject) => String(subject.userName).toLowerCase() },
});
