import { unknownFieldsProblem } from '../badRequest';
import type { ScimName, ScimPermissionsView } from '../dashboardApiTypes';
import { isPlainObject } from '../formats';
import type { DashboardDirectory } from '../state/dashboardDirectory';
import type { DashboardUser } from '../state/dashboardUserStore';
import { accept, refuse, type Checked } from '../track/checked';
import { readPermissions } from './readPermissions';
import { readDepartment, readName, schemasProblem } from './readUserFields';

export interface UserReplacement {
	name: ScimName;
	department: string;
	permissions: ScimPermissionsView;
}

const REQUIRED = ['schemas', 'name', 'department', 'permissions'] as const;
// SCIM clients often send the resource back whole: its id and userName are taken when unchanged.
const FIELDS = [...REQUIRED, 'id', 'userName'];

/** The body of PUT /scim/v2/Users/{id}: the spec's four fields, all required, replacing the stored ones whole. */
export function readUserReplacement(body: unknown, directory: DashboardDirectory): Checked<UserReplacement> {
	if (!isPlainObject(body)) return refuse(`Request body must be a JSON object { ${REQUIRED.join(', ')} }`);
	const unknown = unknownFieldsProblem(body, FIELDS);
	if (unknown) return refuse(unknown);
	const missing = REQUIRED.find((field) => body[field] === undefined || body[field] === null);
	if (missing) return refuse(`${missing} is required: PUT replaces ${REQUIRED.join(', ')} whole`);
	const badSchemas = schemasProblem(body.schemas);
	if (badSchemas) return refuse(badSchemas);
	const name = readName(body.name);
	if (!name.ok) return name;
	const department = readDepartment(body.department);
	if (!department.ok) return department;
	const permissions = readPermissions(body.permissions, directory);
	if (!permissions.ok) return permissions;
	return accept({ name: name.value, department: department.value, permissions: permissions.value });
}

/** A PUT that would change the user's id or userName (compared without regard to case), or undefined. */
export function immutableChangeProblem(body: unknown, user: DashboardUser): string | undefined {
	if (!isPlainObject(body)) return undefined;
	if (
		body.userName !== undefined &&
		(typeof body.userName !== 'string' || body.userName.toLowerCase() !== user.userName.toLowerCase())
	) {
		return `userName cannot be changed (it is '${user.userName}'): leave it out or send it unchanged`;
	}
	if (body.id !== undefined && body.id !== user.id)
		return `id cannot be changed (it is '${user.id}'): leave it out or send it unchanged`;
	return undefined;
}
