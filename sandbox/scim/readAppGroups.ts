import type { ScimPermissionsView } from '../dashboardApiTypes';
import { isNonEmptyString } from '../formats';
import type { DashboardAppGroup, DashboardDirectory } from '../state/dashboardDirectory';
import { accept, refuse, type Checked } from '../track/checked';
import { firstRepeat, readList, readObject, readPermissionNames } from './readList';

type AppGroupView = ScimPermissionsView['appGroup'][number];
type TeamView = AppGroupView['team'][number];
type PermissionSetView = AppGroupView['appGroupPermissionSets'][number];

/** `permissions.appGroup`: each names a directory app group (workspace), once, with its teams and permission set. */
export function readAppGroups(value: unknown, directory: DashboardDirectory): Checked<AppGroupView[]> {
	const groups = readList('permissions.appGroup', value, (path, item) => readAppGroup(path, item, directory));
	if (!groups.ok) return groups;
	const repeat = firstRepeat(groups.value, (group) => group.appGroupId);
	if (repeat !== -1)
		return refuse(`permissions.appGroup[${repeat}]: app group '${groups.value[repeat].appGroupName}' is given twice`);
	return groups;
}

function readAppGroup(path: string, value: unknown, directory: DashboardDirectory): Checked<AppGroupView> {
	const entry = readObject(path, value, ['appGroupName', 'appGroupPermissions', 'team', 'appGroupPermissionSets']);
	if (!entry.ok) return entry;
	const { appGroupName } = entry.value;
	if (!isNonEmptyString(appGroupName))
		return refuse(`${path}.appGroupName is required: the name of an app group (workspace)`);
	const group = directory.appGroupNamed(appGroupName);
	if (!group) return refuse(`${path}.appGroupName: no app group is named '${appGroupName}'`);

	const permissions = readPermissionNames(`${path}.appGroupPermissions`, entry.value.appGroupPermissions);
	if (!permissions.ok) return permissions;
	const teams = readList(`${path}.team`, entry.value.team, (teamPath, team) => readTeam(teamPath, team, group));
	if (!teams.ok) return teams;
	const repeat = firstRepeat(teams.value, (team) => team.teamId);
	if (repeat !== -1) return refuse(`${path}.team[${repeat}]: team '${teams.value[repeat].teamName}' is given twice`);
	const sets = readList(`${path}.appGroupPermissionSets`, entry.value.appGroupPermissionSets, (setPath, set) =>
		readPermissionSet(setPath, set, directory),
	);
	if (!sets.ok) return sets;
	// Not shown: how many permission sets an app group takes. Braze: "an array with a single permission set".
	if (sets.value.length > 1)
		return refuse(`${path}.appGroupPermissionSets holds at most one permission set, got ${sets.value.length}`);

	return accept({
		appGroupId: group.id,
		appGroupName: group.name,
		appGroupPermissions: permissions.value,
		team: teams.value,
		appGroupPermissionSets: sets.value,
	});
}

function readTeam(path: string, value: unknown, group: DashboardAppGroup): Checked<TeamView> {
	const entry = readObject(path, value, ['teamName', 'teamPermissions']);
	if (!entry.ok) return entry;
	const { teamName } = entry.value;
	if (!isNonEmptyString(teamName))
		return refuse(`${path}.teamName is required: the name of a team of app group '${group.name}'`);
	const team = group.teams.find((candidate) => candidate.name === teamName);
	if (!team) return refuse(`${path}.teamName: app group '${group.name}' has no team named '${teamName}'`);
	const permissions = readPermissionNames(`${path}.teamPermissions`, entry.value.teamPermissions);
	if (!permissions.ok) return permissions;
	return accept({ teamId: team.id, teamName: team.name, teamPermissions: permissions.value });
}

function readPermissionSet(path: string, value: unknown, directory: DashboardDirectory): Checked<PermissionSetView> {
	const entry = readObject(path, value, ['appGroupPermissionSetName']);
	if (!entry.ok) return entry;
	const { appGroupPermissionSetName: name } = entry.value;
	if (!isNonEmptyString(name))
		return refuse(`${path}.appGroupPermissionSetName is required: the name of a permission set`);
	const set = directory.permissionSetNamed(name);
	if (!set) return refuse(`${path}.appGroupPermissionSetName: no permission set is named '${name}'`);
	return accept({
		appGroupPermissionSetName: set.name,
		appGroupPermissionSetId: set.id,
		permissions: [...set.permissions],
	});
}
