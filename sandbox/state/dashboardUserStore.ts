import type { ScimName, ScimPermissionsView } from '../dashboardApiTypes';

/** A dashboard user. `permissions` is kept as answered: resolved against the directory when it was set. */
export interface DashboardUser {
	id: string;
	userName: string;
	name?: ScimName;
	department?: string;
	/** Epoch milliseconds; null: never signed in. */
	lastSignInAtMs: number | null;
	permissions: ScimPermissionsView;
}

/**
 * Dashboard users by resource ID, in creation order. userName is unique without regard to case: RFC 7643
 * §4.1.1 makes it not case-exact, and it is an email address.
 */
export class DashboardUserStore {
	private readonly byId = new Map<string, DashboardUser>();

	get(id: string): DashboardUser | undefined {
		return this.byId.get(id);
	}

	withUserName(userName: string): DashboardUser | undefined {
		const wanted = userName.toLowerCase();
		return [...this.byId.values()].find((user) => user.userName.toLowerCase() === wanted);
	}

	/** Adds the user, or replaces the one with its id (keeping its place). */
	put(user: DashboardUser): void {
		this.byId.set(user.id, user);
	}

	delete(id: string): boolean {
		return this.byId.delete(id);
	}

	all(): DashboardUser[] {
		return [...this.byId.values()];
	}
}
