import type { UserAlias } from '../adminApiTypes';
import { unknownFieldsProblem } from '../badRequest';
import { isNonEmptyString, isPlainObject } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';
import { EXPORT_FIELDS, isExportField, type ExportField } from './exportFields';
import type { ExportLookup } from './findExportUsers';

export interface ExportRequest {
	lookup: ExportLookup;
	fields: ReadonlySet<ExportField>;
}

const MAX_IDS = 50;
const SINGLE_IDENTIFIERS = ['device_id', 'email_address', 'phone', 'service_id'] as const;
const ACCEPTED = ['external_ids', 'user_aliases', ...SINGLE_IDENTIFIERS, 'fields_to_export'];

/**
 * Checks a /users/export/ids body; a problem refuses the whole request. A request naming no user at
 * all is not refused (the spec does not say): it exports nobody, `users: []`.
 */
export function readExportRequest(body: unknown): Checked<ExportRequest> {
	if (!isPlainObject(body))
		return refuse('Request body must be a JSON object with fields_to_export and user identifiers');
	const unknown = unknownFieldsProblem(body, ACCEPTED);
	if (unknown) return refuse(unknown);

	const fields = readFields(body.fields_to_export);
	if (!fields.ok) return fields;
	const externalIds = readList(body.external_ids, 'external_ids', isNonEmptyString, 'a non-empty string');
	if (!externalIds.ok) return externalIds;
	const userAliases = readList(
		body.user_aliases,
		'user_aliases',
		isAlias,
		'an object with non-empty strings alias_name and alias_label',
	);
	if (!userAliases.ok) return userAliases;
	// Spec Limits: "up to 50 external_ids or user_aliases". Read strictly, as one budget for the two
	// together (a platform counting each on its own takes whatever this accepts).
	const named = externalIds.value.length + userAliases.value.length;
	if (named > MAX_IDS) {
		return refuse(
			`external_ids and user_aliases may name at most ${MAX_IDS} users per request together; received ${externalIds.value.length} + ${userAliases.value.length} = ${named}`,
		);
	}

	const lookup: ExportLookup = {
		externalIds: externalIds.value,
		userAliases: userAliases.value.map(({ alias_name, alias_label }) => ({ alias_name, alias_label })),
	};
	for (const key of SINGLE_IDENTIFIERS) {
		const value = body[key];
		if (value === undefined) continue;
		if (!isNonEmptyString(value)) return refuse(`${key} must be one non-empty string (one ${key} per request)`);
		if (key === 'device_id') lookup.deviceId = value;
		else if (key === 'email_address') lookup.emailAddress = value;
		else if (key === 'phone') lookup.phone = value;
		else lookup.serviceId = value;
	}
	return accept({ lookup, fields: fields.value });
}

function readFields(value: unknown): Checked<ReadonlySet<ExportField>> {
	if (!Array.isArray(value) || value.length === 0) {
		return refuse(
			'fields_to_export is required: a non-empty array of user export field names, e.g. ["external_id", "email"]',
		);
	}
	const unknown = value.filter((name) => !isExportField(name));
	if (unknown.length > 0) {
		const names = unknown.map((name) => JSON.stringify(name)).join(', ');
		return refuse(`fields_to_export: unknown field(s) ${names}; accepted: ${EXPORT_FIELDS.join(', ')}`);
	}
	return accept(new Set(value as ExportField[]));
}

function readList<T>(
	value: unknown,
	name: string,
	isItem: (item: unknown) => item is T,
	itemShape: string,
): Checked<T[]> {
	if (value === undefined) return accept([]);
	if (!Array.isArray(value)) return refuse(`${name} must be an array`);
	if (value.length > MAX_IDS)
		return refuse(`${name} may contain at most ${MAX_IDS} entries per request; received ${value.length}`);
	const bad = value.findIndex((item) => !isItem(item));
	if (bad >= 0) return refuse(`${name}[${bad}] must be ${itemShape}`);
	return accept(value as T[]);
}

function isAlias(value: unknown): value is UserAlias {
	return isPlainObject(value) && isNonEmptyString(value.alias_name) && isNonEmptyString(value.alias_label);
}
