import type { ScimPermissionsView } from '../dashboardApiTypes';
import { isNonEmptyString } from '../formats';
import type { DashboardDirectory } from '../state/dashboardDirectory';
import { accept, refuse, type Checked } from '../track/checked';
import { firstRepeat, readList, readObject } from './readList';

type RoleView = ScimPermissionsView['roles'][number];

/** `permissions.roles`: each names a directory role by roleName, roleId or both (then the same role). */
export function readRoles(value: unknown, directory: DashboardDirectory): Checked<RoleView[]> {
	const roles = readList('permissions.roles', value, (path, item) => readRole(path, item, directory));
	if (!roles.ok) return roles;
	const repeat = firstRepeat(roles.value, (role) => role.roleId);
	if (repeat !== -1)
		return refuse(`permissions.roles[${repeat}]: role '${roles.value[repeat].roleName}' is given twice`);
	return roles;
}

function readRole(path: string, value: unknown, directory: DashboardDirectory): Checked<RoleView> {
	const role = readObject(path, value, ['roleName', 'roleId']);
	if (!role.ok) return role;
	const { roleName, roleId } = role.value;
	if (roleName === undefined && roleId === undefined)
		return refuse(`${path} must name a role by roleName, roleId or both`);
	if (roleName !== undefined && !isNonEmptyString(roleName))
		return refuse(`${path}.roleName must be a non-empty string`);
	if (roleId !== undefined && !isNonEmptyString(roleId)) return refuse(`${path}.roleId must be a non-empty string`);

	const byName = roleName === undefined ? undefined : directory.roleNamed(roleName);
	if (roleName !== undefined && !byName) return refuse(`${path}.roleName: no role is named '${roleName}'`);
	const byId = roleId === undefined ? undefined : directory.roleWithId(roleId);
	if (roleId !== undefined && !byId) return refuse(`${path}.roleId: no role has the id '${roleId}'`);
	if (byName && byId && byName !== byId)
		return refuse(`${path}: roleName '${roleName}' and roleId '${roleId}' are different roles`);

	const found = (byName ?? byId)!;
	return accept({
		roleName: found.name,
		roleId: found.id,
		appGroup: found.appGroupIds.map((appGroupId) => ({
			appGroupId,
			appGroupName: directory.appGroupWithId(appGroupId)?.name ?? appGroupId,
		})),
	});
}
