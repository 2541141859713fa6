import type { SeedData } from '../adminApiTypes';
import { accept, type Checked } from '../track/checked';
import type { DashboardDirectory } from './dashboardDirectory';
import type { DashboardUser } from './dashboardUserStore';
import type { PlatformState } from './platformState';
import { readDirectorySeed } from './seedDashboardDirectory';
import { readDashboardUsersSeed } from './seedDashboardUsers';

export interface DashboardSeed {
	/** Undefined: the directory is kept. */
	directory?: DashboardDirectory;
	users: DashboardUser[];
}

/** The seed's dashboard directory and users, checked (users against the seeded directory, else the current one). */
export function readDashboardSeed(
	state: PlatformState,
	data: Pick<SeedData, 'dashboardDirectory' | 'dashboardUsers'>,
	now: Date,
): Checked<DashboardSeed> {
	const directory = readDirectorySeed(data.dashboardDirectory, state.ids, now);
	if (!directory.ok) return directory;
	const users = readDashboardUsersSeed(
		data.dashboardUsers,
		state.dashboardUsers,
		directory.value ?? state.dashboardDirectory,
	);
	if (!users.ok) return users;
	return accept({ directory: directory.value, users: users.value });
}

/** A seeded directory replaces the current one whole; users already stored keep the permissions they were given. */
export function storeDashboardSeed(state: PlatformState, seed: DashboardSeed): void {
	if (seed.directory) state.dashboardDirectory = seed.directory;
	for (const user of seed.users) state.dashboardUsers.put(user);
}
