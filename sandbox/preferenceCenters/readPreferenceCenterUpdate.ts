import type { PreferenceCenterFields } from '../adminApiTypes';
import { unknownFieldsProblem } from '../badRequest';
import { isPlainObject } from '../formats';
import { refuse, type Checked } from '../track/checked';
import { PREFERENCE_CENTER_FIELDS, readPreferenceCenterFields } from './readPreferenceCenterFields';

/** The body of the preference center update: at least one of its fields, nothing else. */
export function readPreferenceCenterUpdate(body: unknown): Checked<PreferenceCenterFields> {
	const expected = `a JSON object with at least one of ${PREFERENCE_CENTER_FIELDS.join(', ')}`;
	if (!isPlainObject(body)) return refuse(`Request body must be ${expected}`);
	const unknown = unknownFieldsProblem(body, PREFERENCE_CENTER_FIELDS);
	if (unknown) return refuse(unknown);
	if (!PREFERENCE_CENTER_FIELDS.some((name) => body[name] !== undefined))
		return refuse(`Request body must be ${expected}`);
	return readPreferenceCenterFields(body);
}
