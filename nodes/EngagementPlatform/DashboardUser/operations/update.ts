import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { isEmptyPermissions, PERMISSIONS } from '../shared/permissionFields';
import { SCIM_USER_SCHEMA, scimUserOperation } from '../shared/scimUserOperation';
import { profile, USER_ID } from '../shared/userFields';

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

const PROFILE = profile(true);

export const description: INodeProperties[] = [
	...USER_ID.properties,
	{
		displayName: 'Update replaces the name, department and permissions whole: permissions not given here are removed',
		name: 'replaceNotice',
		type: 'notice',
		default: '',
	},
	...PROFILE.properties,
	...PERMISSIONS.properties,
];

export const operation = scimUserOperation({
	method: 'PUT',
	byId: true,
	// The same replacement twice leaves the same user.
	safeToResend: true,
	read(item) {
		const id = USER_ID.read(item);
		const { permissions, givenAsFields } = PERMISSIONS.read(item);
		// Empty fields most likely mean none were filled in, not "remove every permission".
		if (isEmptyPermissions(permissions) && givenAsFields) {
			throw PERMISSIONS.problem(
				'are empty, and Update replaces them whole, so the user would lose every permission',
				'Add the permissions the user keeps. To remove them all on purpose, set Permissions Input to JSON and give {}.',
			);
		}
		return {
			call: { id, body: { schemas: [SCIM_USER_SCHEMA], ...PROFILE.read(item), permissions } },
			subject: { id },
		};
	},
	result: (user) => [user],
	oneItemPerUser: { input: USER_ID, keyOf: (subject) => String(subject.id) },
});
