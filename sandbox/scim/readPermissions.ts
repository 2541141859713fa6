import type { ScimPermissionsView } from '../dashboardApiTypes';
import type { DashboardDirectory } from '../state/dashboardDirectory';
import { accept, type Checked } from '../track/checked';
import { readAppGroups } from './readAppGroups';
import { readObject, readPermissionNames } from './readList';
import { readRoles } from './readRoles';

/**
 * A request's `permissions`, resolved against the dashboard directory into the answer's shape: ids
 * added, every array present (absent ones empty). Unknown app groups, teams, roles and permission sets
 * are refused by name.
 */
export function readPermissions(value: unknown, directory: DashboardDirectory): Checked<ScimPermissionsView> {
	const permissions = readObject('permissions', value, ['companyPermissions', 'roles', 'appGroup']);
	if (!permissions.ok) return permissions;
	const companyPermissions = readPermissionNames(
		'permissions.companyPermissions',
		permissions.value.companyPermissions,
	);
	if (!companyPermissions.ok) return companyPermissions;
	const roles = readRoles(permissions.value.roles, directory);
	if (!roles.ok) return roles;
	const appGroup = readAppGroups(permissions.value.appGroup, directory);
	if (!appGroup.ok) return appGroup;
	return accept({ companyPermissions: companyPermissions.value, roles: roles.value, appGroup: appGroup.value });
}

export function noPermissions(): ScimPermissionsView {
	return { companyPermissions: [], roles: [], appGroup: [] };
}
