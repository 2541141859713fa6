/**
 * Shapes of SCIM dashboard users (spec: "Dashboard user (SCIM)") and of the dashboard directory they are
 * given access to: what the SCIM endpoints answer, and what the admin API seeds and shows.
 */

export interface ScimName {
	givenName: string;
	familyName: string;
}

/** `permissions` as a request sends it. */
interface ScimPermissionsRequest {
	companyPermissions?: string[];
	/** Each names a role by `roleName`, `roleId` or both. */
	roles?: Array<{ roleName?: string; roleId?: string }>;
	appGroup?: Array<{
		appGroupName: string;
		appGroupPermissions?: string[];
		team?: Array<{ teamName: string; teamPermissions?: string[] }>;
		/** At most one. */
		appGroupPermissionSets?: Array<{ appGroupPermissionSetName: string }>;
	}>;
}

interface ScimAppGroupRef {
	appGroupId: string;
	appGroupName: string;
}

/** `permissions` as the SCIM endpoints answer it: ids added, every array present. */
export interface ScimPermissionsView {
	companyPermissions: string[];
	roles: Array<{ roleName: string; roleId: string; appGroup: ScimAppGroupRef[] }>;
	appGroup: Array<
		ScimAppGroupRef & {
			appGroupPermissions: string[];
			team: Array<{ teamId: string; teamName: string; teamPermissions: string[] }>;
			appGroupPermissionSets: Array<{
				appGroupPermissionSetName: string;
				appGroupPermissionSetId: string;
				permissions: string[];
			}>;
		}
	>;
}

/** A dashboard user as the SCIM endpoints answer it. `name` and `department` are absent until set. */
export interface ScimUserView {
	schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'];
	id: string;
	userName: string;
	name?: ScimName;
	department?: string;
	/** e.g. 'Wednesday, May 1, 2024 9:30:00 AM' (UTC); null: never signed in. */
	lastSignInAt: string | null;
	permissions: ScimPermissionsView;
}

export interface SeedDashboardUser {
	/** Default: a random UUID. */
	id?: string;
	userName: string;
	name?: ScimName;
	department?: string;
	/** Names refer to the dashboard directory (this seed's, or the current one). */
	permissions?: ScimPermissionsRequest;
	/** ISO 8601 datetime; absent or null: never signed in. */
	lastSignInAt?: string | null;
}

/** App groups (workspaces) with their teams, roles and permission sets; ids are generated when absent. */
export interface SeedDashboardDirectory {
	appGroups?: Array<{ id?: string; name: string; teams?: Array<{ id?: string; name: string }> }>;
	/** `appGroups`: names of app groups of this directory. */
	roles?: Array<{ id?: string; name: string; appGroups?: string[] }>;
	permissionSets?: Array<{ id?: string; name: string; permissions: string[] }>;
}

export interface DashboardDirectoryView {
	appGroups: Array<{ id: string; name: string; teams: Array<{ id: string; name: string }> }>;
	roles: Array<{ id: string; name: string; appGroups: string[] }>;
	permissionSets: Array<{ id: string; name: string; permissions: string[] }>;
}
