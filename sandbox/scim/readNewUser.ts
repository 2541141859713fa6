import { unknownFieldsProblem } from '../badRequest';
import type { ScimName, ScimPermissionsView } from '../dashboardApiTypes';
import { isEmailAddress, isPlainObject } from '../formats';
import type { DashboardDirectory } from '../state/dashboardDirectory';
import { accept, refuse, type Checked } from '../track/checked';
import { noPermissions, readPermissions } from './readPermissions';
import { readDepartment, readName, schemasProblem } from './readUserFields';

export interface NewUser {
	userName: string;
	name?: ScimName;
	department?: string;
	permissions: ScimPermissionsView;
}

const FIELDS = ['schemas', 'userName', 'name', 'department', 'permissions'];

/** The body of POST /scim/v2/Users: the dashboard user object without `id`. */
export function readNewUser(body: unknown, directory: DashboardDirectory): Checked<NewUser> {
	if (!isPlainObject(body))
		return refuse(`Request body must be a JSON object: the dashboard user { ${FIELDS.join(', ')} }`);
	if (body.id !== undefined) return refuse('id must not be sent: the platform assigns it');
	const unknown = unknownFieldsProblem(body, FIELDS);
	if (unknown) return refuse(unknown);
	const badSchemas = schemasProblem(body.schemas);
	if (badSchemas) return refuse(badSchemas);
	if (!isEmailAddress(body.userName))
		return refuse(`userName is required: the user's email address, got ${JSON.stringify(body.userName)}`);

	const user: NewUser = { userName: body.userName, permissions: noPermissions() };
	if (body.name !== undefined) {
		const name = readName(body.name);
		if (!name.ok) return name;
		user.name = name.value;
	}
	if (body.department !== undefined) {
		const department = readDepartment(body.department);
		if (!department.ok) return department;
		user.department = department.value;
	}
	if (body.permissions !== undefined) {
		const permissions = readPermissions(body.permissions, directory);
		if (!permissions.ok) return permissions;
		user.permissions = permissions.value;
	}
	return accept(user);
}
