import { randomUUID } from 'node:crypto';
import { isEmailAddress, isNonEmptyString, parseDatetime } from '../formats';
import { noPermissions, readPermissions } from '../scim/readPermissions';
import { readList, readObject } from '../scim/readList';
import { readDepartment, readName } from '../scim/readUserFields';
import { accept, refuse, type Checked } from '../track/checked';
import type { DashboardDirectory } from './dashboardDirectory';
import type { DashboardUser, DashboardUserStore } from './dashboardUserStore';

const FIELDS = ['id', 'userName', 'name', 'department', 'permissions', 'lastSignInAt'];

/**
 * The seed's `dashboardUsers`, permissions resolved against `directory` as the SCIM endpoints would. An id
 * seeded again replaces that user; a userName (without regard to case) may belong to one user only.
 */
export function readDashboardUsersSeed(
	seed: unknown,
	users: DashboardUserStore,
	directory: DashboardDirectory,
): Checked<DashboardUser[]> {
	const read = readList('dashboardUsers', seed, (path, item) => readUser(path, item, directory));
	if (!read.ok) return read;
	for (const [i, user] of read.value.entries()) {
		const wanted = user.userName.toLowerCase();
		const earlier = read.value.slice(0, i).find((other) => other.userName.toLowerCase() === wanted);
		const holder = users.withUserName(user.userName);
		if (earlier || (holder && holder.id !== user.id))
			return refuse(`dashboardUsers[${i}].userName '${user.userName}' is already in use`);
	}
	return read;
}

function readUser(path: string, value: unknown, directory: DashboardDirectory): Checked<DashboardUser> {
	const seed = readObject(path, value, FIELDS);
	if (!seed.ok) return seed;
	const { id, userName, lastSignInAt } = seed.value;
	if (id !== undefined && !isNonEmptyString(id)) return refuse(`${path}.id must be a non-empty string`);
	if (!isEmailAddress(userName)) return refuse(`${path}.userName must be an email address`);
	const name = optional(seed.value.name, readName);
	if (!name.ok) return refuse(`${path}.${name.error}`);
	const department = optional(seed.value.department, readDepartment);
	if (!department.ok) return refuse(`${path}.${department.error}`);
	const permissions = optional(seed.value.permissions, (given) => readPermissions(given, directory));
	if (!permissions.ok) return refuse(`${path}.${permissions.error}`);
	const signedInAt =
		lastSignInAt === undefined || lastSignInAt === null
			? null
			: typeof lastSignInAt === 'string'
				? parseDatetime(lastSignInAt)
				: undefined;
	if (signedInAt === undefined) return refuse(`${path}.lastSignInAt must be an ISO 8601 datetime or null`);

	const user: DashboardUser = {
		id: id ?? randomUUID(),
		userName,
		lastSignInAtMs: signedInAt,
		permissions: permissions.value ?? noPermissions(),
	};
	if (name.value) user.name = name.value;
	if (department.value !== undefined) user.department = department.value;
	return accept(user);
}

function optional<T>(value: unknown, read: (given: unknown) => Checked<T>): Checked<T | undefined> {
	return value === undefined ? accept(undefined) : read(value);
}
