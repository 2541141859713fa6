import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ItemInputError } from '../../shared/engine/read/itemInputError';
import { isEmptyPermissions, permissionFields, readPermissions } from '../shared/permissionFields';
import { SCIM_USER_SCHEMA, scimUserOperation } from '../shared/scimUserOperation';
import { profileFields, readProfile, userIdField } from '../shared/userFields';
import { readPathSegment } from '../../shared/fields/pathSegment';

export const option: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a dashboard user',
	description: "Replace a dashboard user's name, department and permissions (the email cannot change)",
	builderHint: {
		propertyHint:
			"Pick to replace an account's name, department and permissions whole (permissions not given are removed); the email cannot change.",
	},
};

export const description: INodeProperties[] = [
	userIdField(),
	{
		displayName: 'Update replaces the name, department and permissions whole: permissions not given here are removed',
		name: 'replaceNotice',
		type: 'notice',
		default: '',
	},
	...profileFields(true),
	...permissionFields(),
];

export const operation = scimUserOperation({
	method: 'PUT',
	byId: true,
	// The same replacement twice leaves the same user.
	safeToResend: true,
	read(item) {
		const id = readPathSegment(item, 'userId');
		const permissions = readPermissions(item);
		// Empty fields most likely mean none were filled in, not "remove every permission".
		if (isEmptyPermissions(permissions) && item.raw('permissionsInput', 'fields') === 'fields') {
			throw new ItemInputError(
				'Permissions',
				'are empty, and Update replaces them whole, so the user would lose every permission',
				'Add the permissions the user keeps. To remove them all on purpose, set Permissions Input to JSON and give {}.',
			);
		}
		return {
			call: { id, body: { schemas: [SCIM_USER_SCHEMA], ...readProfile(item, true), permissions } },
			subject: { id },
		};
	},
	result: (user) => [user],
	oneItemPerUser: { field: 'User ID', keyOf: (subject) => String(subject.id) },
});
