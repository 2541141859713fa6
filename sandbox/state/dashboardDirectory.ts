import type { DashboardDirectoryView } from '../dashboardApiTypes';

export interface DashboardTeam {
	id: string;
	name: string;
}

export interface DashboardAppGroup {
	id: string;
	name: string;
	teams: DashboardTeam[];
}

export interface DashboardRole {
	id: string;
	name: string;
	appGroupIds: string[];
}

export interface DashboardPermissionSet {
	id: string;
	name: string;
	permissions: string[];
}

/**
 * The company's app groups (workspaces) with their teams, its roles and its permission sets: created in
 * the dashboard, so only a seed changes them (replacing the directory whole). Names are matched exactly.
 */
export class DashboardDirectory {
	constructor(
		private readonly appGroups: DashboardAppGroup[] = [],
		private readonly roles: DashboardRole[] = [],
		private readonly permissionSets: DashboardPermissionSet[] = [],
	) {}

	appGroupNamed(name: string): DashboardAppGroup | undefined {
		return this.appGroups.find((group) => group.name === name);
	}

	appGroupWithId(id: string): DashboardAppGroup | undefined {
		return this.appGroups.find((group) => group.id === id);
	}

	roleNamed(name: string): DashboardRole | undefined {
		return this.roles.find((role) => role.name === name);
	}

	roleWithId(id: string): DashboardRole | undefined {
		return this.roles.find((role) => role.id === id);
	}

	permissionSetNamed(name: string): DashboardPermissionSet | undefined {
		return this.permissionSets.find((set) => set.name === name);
	}

	/** A copy, role app groups by name (the seed's shape with every id filled in). */
	view(): DashboardDirectoryView {
		return {
			appGroups: this.appGroups.map(({ id, name, teams }) => ({ id, name, teams: teams.map((team) => ({ ...team })) })),
			roles: this.roles.map(({ id, name, appGroupIds }) => ({
				id,
				name,
				appGroups: appGroupIds.map((groupId) => this.appGroupWithId(groupId)?.name ?? groupId),
			})),
			permissionSets: this.permissionSets.map(({ id, name, permissions }) => ({
				id,
				name,
				permissions: [...permissions],
			})),
		};
	}
}
