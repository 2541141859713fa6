import { isNonEmptyString, isPlainObject } from '../formats';
import type { PlatformState } from '../state/platformState';
import { BLOCKED_EXTERNAL_ID_MESSAGE, isBlockedExternalId } from '../track/blockedExternalIds';

// The spec names the rules but not the messages (beyond "error messages referencing the index"): ours.
const RENAME_ERRORS = {
	notAnObject: 'each rename must be an object {current_external_id, new_external_id}',
	currentMissing: 'current_external_id must be a non-empty string',
	newMissing: 'new_external_id must be a non-empty string',
	same: 'new_external_id must differ from current_external_id',
	currentUnknown: 'current_external_id does not exist',
	currentDeprecated: 'current_external_id is deprecated',
	newInUse: 'new_external_id is already in use',
} as const;

/**
 * One rename object of /users/external_ids/rename: applied, or the reason it was refused. On success
 * the new ID is primary and the old one deprecated; both keep finding the user.
 */
export function renameExternalId(
	state: PlatformState,
	rename: unknown,
	now: Date,
): { renamed: string } | { error: string } {
	if (!isPlainObject(rename)) return { error: RENAME_ERRORS.notAnObject };
	const { current_external_id: current, new_external_id: next } = rename;
	if (!isNonEmptyString(current)) return { error: RENAME_ERRORS.currentMissing };
	if (!isNonEmptyString(next)) return { error: RENAME_ERRORS.newMissing };
	if (current === next) return { error: RENAME_ERRORS.same };
	const profile = state.profiles.byExternalId(current);
	if (!profile) return { error: RENAME_ERRORS.currentUnknown };
	if (profile.external_id !== current) return { error: RENAME_ERRORS.currentDeprecated };
	if (state.profiles.byExternalId(next)) return { error: RENAME_ERRORS.newInUse };
	// Not in the spec's rules: /users/track refuses these IDs, so a rename may not create one either.
	if (isBlockedExternalId(next)) return { error: BLOCKED_EXTERNAL_ID_MESSAGE };
	state.profiles.renameExternalId(profile, next);
	state.profiles.touch(profile, now);
	return { renamed: current };
}
