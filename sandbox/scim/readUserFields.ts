import type { ScimName } from '../dashboardApiTypes';
import { isNonEmptyString } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';
import { readObject } from './readList';
import { SCIM_USER_SCHEMA } from './scimRoute';

/** `schemas`: an array of strings holding the core user schema URN. */
export function schemasProblem(value: unknown): string | undefined {
	if (!Array.isArray(value) || !value.every((urn) => typeof urn === 'string') || !value.includes(SCIM_USER_SCHEMA)) {
		return `schemas must be an array of strings containing '${SCIM_USER_SCHEMA}'`;
	}
	return undefined;
}

/** Not shown whether a name may be partial; a dashboard user has both (Braze's dashboard asks for both). */
export function readName(value: unknown): Checked<ScimName> {
	const name = readObject('name', value, ['givenName', 'familyName']);
	if (!name.ok) return name;
	const { givenName, familyName } = name.value;
	if (typeof givenName !== 'string') return refuse('name.givenName is required: a string');
	if (typeof familyName !== 'string') return refuse('name.familyName is required: a string');
	return accept({ givenName, familyName });
}

/** Not shown: the allowed department strings. Any non-empty string is taken. */
export function readDepartment(value: unknown): Checked<string> {
	return isNonEmptyString(value) ? accept(value) : refuse('department must be a non-empty string');
}
