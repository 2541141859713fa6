import type { UserAlias } from '../adminApiTypes';
import type { PlatformState } from '../state/platformState';
import type { Profile } from '../state/profileStore';

/** The identifiers of one /users/export/ids request, already checked. */
export interface ExportLookup {
	externalIds: string[];
	userAliases: UserAlias[];
	deviceId?: string;
	emailAddress?: string;
	phone?: string;
	serviceId?: string;
}

export interface ExportMatches {
	/** Each matching profile once, in the order the request named them. */
	profiles: Profile[];
	/** Requested identifiers that matched nobody: aliases as their alias_name, the rest as given. */
	invalidUserIds: string[];
}

export function findExportUsers(state: PlatformState, lookup: ExportLookup): ExportMatches {
	const found = new Set<Profile>();
	const invalidUserIds: string[] = [];
	const collect = (requested: string, matches: Array<Profile | undefined>): void => {
		const profiles = matches.filter((profile): profile is Profile => profile !== undefined);
		if (profiles.length === 0) invalidUserIds.push(requested);
		for (const profile of profiles) found.add(profile);
	};

	// A deprecated external ID finds its user too; the export then shows the primary one.
	for (const id of lookup.externalIds) collect(id, [state.profiles.byExternalId(id)]);
	for (const alias of lookup.userAliases) collect(alias.alias_name, [state.profiles.byAlias(alias)]);
	// The sandbox records no devices (no SDK), so a device_id never matches anyone.
	if (lookup.deviceId !== undefined) collect(lookup.deviceId, []);
	// An email or a phone may be shared: every profile that has it is exported.
	if (lookup.emailAddress !== undefined) collect(lookup.emailAddress, state.profiles.allWithEmail(lookup.emailAddress));
	if (lookup.phone !== undefined) collect(lookup.phone, state.profiles.allWithPhone(lookup.phone));
	if (lookup.serviceId !== undefined) collect(lookup.serviceId, [state.profiles.byServiceId(lookup.serviceId)]);
	return { profiles: [...found], invalidUserIds };
}
