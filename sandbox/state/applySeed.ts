import type { SeedData, SeedProfile, SeedResult } from '../adminApiTypes';
import type { PlatformState } from './platformState';
import type { Profile } from './profileStore';
import { catalogSeedProblem, seedCatalogs } from './seedCatalogs';
import { readDashboardSeed, storeDashboardSeed } from './seedDashboard';
import { seedActivity, seedActivityProblem } from './seedActivity';
import { messagingSeedProblem, seedMessagingObjects } from './seedMessagingObjects';
import { multiLanguageSeedProblem, seedMultiLanguage } from './seedMultiLanguage';
import { preferenceCentersSeedProblem, seedPreferenceCenters } from './seedPreferenceCenters';
import { profileView } from './stateView';

/**
 * Adds seed profiles (with their events and purchases), subscription groups, campaigns, canvases,
 * segments, canvas schedules, catalogs, preference centers, multi-language settings, the dashboard
 * directory and dashboard users straight into the state, without the endpoints' rules.
 */
export function applySeed(state: PlatformState, data: Omit<SeedData, 'apiKeys'>, now: Date): SeedResult {
	const messagingProblem = messagingSeedProblem(state, data);
	if (messagingProblem) throw new SeedError(messagingProblem);
	const catalogProblem = catalogSeedProblem(data.catalogs);
	if (catalogProblem) throw new SeedError(catalogProblem);
	const settingsProblem =
		multiLanguageSeedProblem(data.multiLanguage) ?? preferenceCentersSeedProblem(data.preferenceCenters);
	if (settingsProblem) throw new SeedError(settingsProblem);
	const dashboard = readDashboardSeed(state, data, now);
	if (!dashboard.ok) throw new SeedError(dashboard.error);
	seedMessagingObjects(state, data);
	seedCatalogs(state, data.catalogs);
	seedMultiLanguage(state, data.multiLanguage);
	seedPreferenceCenters(state, data.preferenceCenters, now);
	storeDashboardSeed(state, dashboard.value);
	for (const group of data.subscriptionGroups ?? []) {
		if (typeof group === 'string') state.subscriptionGroups.ensure(group);
		else state.subscriptionGroups.ensure(group.id, group.name);
	}
	const created = (data.profiles ?? []).map((seed) => seedProfile(state, seed, now));
	return { profiles: created.map((profile) => profileView(state, profile)) };
}

function seedProfile(state: PlatformState, seed: SeedProfile, now: Date): Profile {
	const taken = identifiersInUse(state, seed);
	if (taken) throw new SeedError(taken);
	const badActivity = seedActivityProblem(seed.events ?? [], seed.purchases ?? []);
	if (badActivity) throw new SeedError(badActivity);
	const profile = state.profiles.create({ external_id: seed.external_id, email: seed.email, phone: seed.phone }, now);
	for (const alias of seed.user_aliases ?? []) state.profiles.addAlias(profile, alias);
	for (const id of seed.deprecated_external_ids ?? []) state.profiles.addDeprecatedExternalId(profile, id);
	if (seed.email_subscribe) profile.email_subscribe = seed.email_subscribe;
	Object.assign(profile.standard_attributes, seed.standard_attributes);
	Object.assign(profile.custom_attributes, seed.custom_attributes);
	for (const [groupId, groupState] of Object.entries(seed.subscription_groups ?? {})) {
		state.subscriptionGroups.set(groupId, profile.service_id, groupState);
	}
	seedActivity(state, profile, seed.events ?? [], seed.purchases ?? [], now);
	return profile;
}

function identifiersInUse(state: PlatformState, seed: SeedProfile): string | undefined {
	for (const id of [seed.external_id, ...(seed.deprecated_external_ids ?? [])]) {
		if (id !== undefined && state.profiles.byExternalId(id)) return `external_id '${id}' is already in use`;
	}
	for (const alias of seed.user_aliases ?? []) {
		if (state.profiles.byAlias(alias)) return `user_alias ${alias.alias_label}::${alias.alias_name} is already in use`;
	}
	return undefined;
}

/** Seed data that cannot be applied (answered 400 by the admin API). */
export class SeedError extends Error {}
