import type { SeedPreferenceCenter } from '../adminApiTypes';
import { unknownFieldsProblem } from '../badRequest';
import { isNonEmptyString, isPlainObject, parseDatetime } from '../formats';
import { PREFERENCE_CENTER_FIELDS, readPreferenceCenterFields } from '../preferenceCenters/readPreferenceCenterFields';
import type { PlatformState } from './platformState';

const SEED_FIELDS = ['external_id', 'created_at', ...PREFERENCE_CENTER_FIELDS];

/** What is wrong with the seeded preference centers, or undefined (checked before anything is stored). */
export function preferenceCentersSeedProblem(centers: SeedPreferenceCenter[] | undefined): string | undefined {
	if (centers === undefined) return undefined;
	if (!Array.isArray(centers)) return 'preferenceCenters must be an array';
	for (const [i, center] of centers.entries()) {
		const path = `preferenceCenters[${i}]`;
		if (!isPlainObject(center)) return `${path} must be an object`;
		const unknown = unknownFieldsProblem(center, SEED_FIELDS);
		if (unknown) return `${path}: ${unknown}`;
		if (!isNonEmptyString(center.external_id)) return `${path}.external_id must be a non-empty string`;
		if (typeof center.name !== 'string') return `${path}.name must be a string`;
		if (
			center.created_at !== undefined &&
			(typeof center.created_at !== 'string' || parseDatetime(center.created_at) === undefined)
		) {
			return `${path}.created_at must be an ISO 8601 datetime`;
		}
		const fields = readPreferenceCenterFields(center, `${path}.`);
		if (!fields.ok) return fields.error;
	}
	return undefined;
}

/**
 * Stores them: an external_id seeded again is replaced whole (keeping its place). A seeded preference
 * center has never been updated: updated_at is its created_at. Call preferenceCentersSeedProblem first.
 */
export function seedPreferenceCenters(
	state: PlatformState,
	centers: SeedPreferenceCenter[] | undefined,
	now: Date,
): void {
	for (const { external_id: externalId, created_at: seededCreatedAt, ...fields } of centers ?? []) {
		const createdAt = new Date(
			seededCreatedAt === undefined ? now.getTime() : (parseDatetime(seededCreatedAt) as number),
		).toISOString();
		state.preferenceCenters.set(externalId, {
			external_id: externalId,
			// Creation is not in the spec and the update path names a preference center by one id: the
			// sandbox's API id is the external id.
			preference_center_api_id: externalId,
			...structuredClone(fields),
			created_at: createdAt,
			updated_at: createdAt,
		});
	}
}
