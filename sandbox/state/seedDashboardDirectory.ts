import { isNonEmptyString } from '../formats';
import { firstRepeat, readList, readObject, readPermissionNames } from '../scim/readList';
import { accept, refuse, type Checked } from '../track/checked';
import {
	DashboardDirectory,
	type DashboardAppGroup,
	type DashboardPermissionSet,
	type DashboardRole,
	type DashboardTeam,
} from './dashboardDirectory';
import type { IdGenerator } from './ids';

type NewId = () => string;

/**
 * The seed's `dashboardDirectory` as a new directory (undefined when not seeded). Ids given are kept,
 * missing ones generated; names are unique per kind (team names per app group); a role's app groups are
 * named from this directory.
 */
export function readDirectorySeed(seed: unknown, ids: IdGenerator, now: Date): Checked<DashboardDirectory | undefined> {
	if (seed === undefined) return accept(undefined);
	const directory = readObject('dashboardDirectory', seed, ['appGroups', 'roles', 'permissionSets']);
	if (!directory.ok) return directory;
	const newId = () => ids.next(now);
	const appGroups = readNamedList('dashboardDirectory.appGroups', directory.value.appGroups, (path, item) =>
		readAppGroup(path, item, newId),
	);
	if (!appGroups.ok) return appGroups;
	const roles = readNamedList('dashboardDirectory.roles', directory.value.roles, (path, item) =>
		readRole(path, item, appGroups.value, newId),
	);
	if (!roles.ok) return roles;
	const sets = readNamedList('dashboardDirectory.permissionSets', directory.value.permissionSets, (path, item) =>
		readPermissionSet(path, item, newId),
	);
	if (!sets.ok) return sets;
	const repeatedId = repeatedIdProblem([
		...appGroups.value,
		...appGroups.value.flatMap((group) => group.teams),
		...roles.value,
		...sets.value,
	]);
	if (repeatedId) return refuse(repeatedId);
	return accept(new DashboardDirectory(appGroups.value, roles.value, sets.value));
}

/** A list of `{ id?, name, ... }`, names unique within it. */
function readNamedList<T extends { name: string }>(
	path: string,
	value: unknown,
	readItem: (itemPath: string, item: unknown) => Checked<T>,
): Checked<T[]> {
	const list = readList(path, value, readItem);
	if (!list.ok) return list;
	const repeat = firstRepeat(list.value, (item) => item.name);
	return repeat === -1 ? list : refuse(`${path}[${repeat}]: the name '${list.value[repeat].name}' is used twice`);
}

function readAppGroup(path: string, value: unknown, newId: NewId): Checked<DashboardAppGroup> {
	const group = readEntry(path, value, ['teams'], newId);
	if (!group.ok) return group;
	const teams = readNamedList(`${path}.teams`, group.value.fields.teams, (teamPath, team): Checked<DashboardTeam> => {
		const read = readEntry(teamPath, team, [], newId);
		return read.ok ? accept({ id: read.value.id, name: read.value.name }) : read;
	});
	if (!teams.ok) return teams;
	return accept({ id: group.value.id, name: group.value.name, teams: teams.value });
}

function readRole(path: string, value: unknown, appGroups: DashboardAppGroup[], newId: NewId): Checked<DashboardRole> {
	const role = readEntry(path, value, ['appGroups'], newId);
	if (!role.ok) return role;
	const appGroupIds = readList(`${path}.appGroups`, role.value.fields.appGroups, (groupPath, name) => {
		const group = appGroups.find((candidate) => candidate.name === name);
		return group
			? accept(group.id)
			: refuse(`${groupPath}: no app group of dashboardDirectory.appGroups is named ${JSON.stringify(name)}`);
	});
	if (!appGroupIds.ok) return appGroupIds;
	return accept({ id: role.value.id, name: role.value.name, appGroupIds: appGroupIds.value });
}

function readPermissionSet(path: string, value: unknown, newId: NewId): Checked<DashboardPermissionSet> {
	const set = readEntry(path, value, ['permissions'], newId);
	if (!set.ok) return set;
	if (!Array.isArray(set.value.fields.permissions))
		return refuse(`${path}.permissions is required: an array of permission names`);
	const permissions = readPermissionNames(`${path}.permissions`, set.value.fields.permissions);
	if (!permissions.ok) return permissions;
	return accept({ id: set.value.id, name: set.value.name, permissions: permissions.value });
}

/** An object with a non-empty `name`, an optional non-empty `id` (else a new one) and the other keys given. */
function readEntry(
	path: string,
	value: unknown,
	otherKeys: string[],
	newId: NewId,
): Checked<{ id: string; name: string; fields: Record<string, unknown> }> {
	const entry = readObject(path, value, ['id', 'name', ...otherKeys]);
	if (!entry.ok) return entry;
	const { id, name } = entry.value;
	if (!isNonEmptyString(name)) return refuse(`${path}.name must be a non-empty string`);
	if (id !== undefined && !isNonEmptyString(id)) return refuse(`${path}.id must be a non-empty string`);
	return accept({ id: id ?? newId(), name, fields: entry.value });
}

function repeatedIdProblem(entries: Array<{ id: string }>): string | undefined {
	const repeat = firstRepeat(entries, (entry) => entry.id);
	return repeat === -1 ? undefined : `dashboardDirectory: the id '${entries[repeat].id}' is used twice`;
}
