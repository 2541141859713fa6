import type { PreferenceCenterFields, PreferenceCenterOptions, PreferenceCenterState } from '../adminApiTypes';
import { unknownFieldsProblem } from '../badRequest';
import { isPlainObject } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';
import { readLinkTags } from './readLinkTags';

export const PREFERENCE_CENTER_FIELDS = [
	'name',
	'preference_center_title',
	'preference_center_page_html',
	'confirmation_page_html',
	'state',
	'options',
] as const;
const STRING_FIELDS = [
	'name',
	'preference_center_title',
	'preference_center_page_html',
	'confirmation_page_html',
] as const;
// Not shown: the allowed states (the spec's sample is `active`). Braze's preference centers are active or
// draft, so those two are taken and anything else refused.
const PREFERENCE_CENTER_STATES: readonly PreferenceCenterState[] = ['active', 'draft'];
const OPTION_FIELDS = ['meta-viewport-content', 'links-tags'];

/**
 * The preference center fields present in `record` (other keys are the caller's business). `prefix` goes
 * before each field named in a refusal (e.g. `preferenceCenters[0].` for a seed).
 */
export function readPreferenceCenterFields(
	record: Record<string, unknown>,
	prefix = '',
): Checked<PreferenceCenterFields> {
	const fields: PreferenceCenterFields = {};
	for (const name of STRING_FIELDS) {
		if (record[name] === undefined) continue;
		if (typeof record[name] !== 'string') return refuse(`${prefix}${name} must be a string`);
		fields[name] = record[name];
	}
	if (record.state !== undefined) {
		if (!PREFERENCE_CENTER_STATES.includes(record.state as PreferenceCenterState)) {
			return refuse(`${prefix}state must be one of ${PREFERENCE_CENTER_STATES.join(', ')}`);
		}
		fields.state = record.state as PreferenceCenterState;
	}
	if (record.options !== undefined) {
		const options = readOptions(record.options, `${prefix}options`);
		if (!options.ok) return options;
		fields.options = options.value;
	}
	return accept(fields);
}

function readOptions(value: unknown, path: string): Checked<PreferenceCenterOptions> {
	if (!isPlainObject(value)) return refuse(`${path} must be an object { meta-viewport-content?, links-tags? }`);
	const unknown = unknownFieldsProblem(value, OPTION_FIELDS);
	if (unknown) return refuse(`${path}: ${unknown}`);
	const options: PreferenceCenterOptions = {};
	const viewport = value['meta-viewport-content'];
	if (viewport !== undefined) {
		if (typeof viewport !== 'string')
			return refuse(`${path}.meta-viewport-content must be a string (the content value of the meta tag)`);
		options['meta-viewport-content'] = viewport;
	}
	if (value['links-tags'] !== undefined) {
		const tags = readLinkTags(value['links-tags'], `${path}.links-tags`);
		if (!tags.ok) return tags;
		options['links-tags'] = tags.value;
	}
	return accept(options);
}
