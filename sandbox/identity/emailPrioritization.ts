import type { Profile } from '../state/profileStore';

export const PRIORITIZATION_RULES = ['identified', 'unidentified', 'most_recently_updated'] as const;
export type PrioritizationRule = (typeof PRIORITIZATION_RULES)[number];

/**
 * The one profile, among those sharing an email, that an ordered prioritization picks; undefined when
 * none or several remain (spec: "If several users match a prioritization, no merge occurs").
 * Not shown how a rule applies; we read each as a filter, in order, as Braze describes them:
 * identified keeps the profiles with an external ID, unidentified those without, and
 * most_recently_updated the one updated last.
 */
export function chooseByPrioritization(
	candidates: readonly Profile[],
	prioritization: readonly PrioritizationRule[],
): Profile | undefined {
	let remaining = [...candidates];
	for (const rule of prioritization) {
		if (rule === 'identified') remaining = remaining.filter((profile) => profile.external_id !== undefined);
		else if (rule === 'unidentified') remaining = remaining.filter((profile) => profile.external_id === undefined);
		else remaining = mostRecentlyUpdated(remaining);
	}
	return remaining.length === 1 ? remaining[0] : undefined;
}

function mostRecentlyUpdated(profiles: Profile[]): Profile[] {
	const latest = profiles.reduce<Profile | undefined>(
		(best, profile) => (!best || profile.updateSeq > best.updateSeq ? profile : best),
		undefined,
	);
	return latest ? [latest] : [];
}
