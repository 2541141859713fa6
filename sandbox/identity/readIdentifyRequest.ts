import type { UserAlias } from '../adminApiTypes';
import { unknownFieldsProblem } from '../badRequest';
import { isEmailAddress, isNonEmptyString, isPlainObject } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';
import { PRIORITIZATION_RULES, type PrioritizationRule } from './emailPrioritization';

export type MergeBehavior = 'none' | 'merge';

interface AliasToIdentify {
	externalId: string;
	alias: UserAlias;
}

interface EmailToIdentify {
	externalId: string;
	email: string;
	prioritization: PrioritizationRule[];
}

export interface IdentifyRequest {
	aliases: AliasToIdentify[];
	emails: EmailToIdentify[];
	mergeBehavior: MergeBehavior;
}

const MAX_PER_ARRAY = 50;
const ACCEPTED = ['aliases_to_identify', 'emails_to_identify', 'merge_behavior'];

/** Checks a /users/identify body; a problem refuses the whole request. */
export function readIdentifyRequest(body: unknown): Checked<IdentifyRequest> {
	if (!isPlainObject(body))
		return refuse('Request body must be a JSON object with aliases_to_identify (and optionally emails_to_identify)');
	const unknown = unknownFieldsProblem(body, ACCEPTED);
	if (unknown) return refuse(unknown);
	const { merge_behavior: mergeBehavior = 'none' } = body;
	if (mergeBehavior !== 'none' && mergeBehavior !== 'merge') {
		return refuse(`merge_behavior must be none or merge, got ${JSON.stringify(mergeBehavior)}`);
	}

	// Spec: aliases_to_identify is required (emails_to_identify's status is unresolved). A request
	// identifying by email alone carries it empty.
	if (body.aliases_to_identify === undefined) {
		return refuse(
			`aliases_to_identify is required: an array of at most ${MAX_PER_ARRAY} {external_id, user_alias} objects, [] when only emails_to_identify is given`,
		);
	}
	const aliases = readArray(body.aliases_to_identify, 'aliases_to_identify', readAliasToIdentify);
	if (!aliases.ok) return aliases;
	const emails = readArray(body.emails_to_identify, 'emails_to_identify', readEmailToIdentify);
	if (!emails.ok) return emails;
	if (aliases.value.length === 0 && emails.value.length === 0) {
		return refuse(
			`aliases_to_identify or emails_to_identify is required: a non-empty array of at most ${MAX_PER_ARRAY} objects`,
		);
	}
	return accept({ aliases: aliases.value, emails: emails.value, mergeBehavior });
}

function readArray<T>(
	value: unknown,
	name: string,
	readItem: (item: unknown, path: string) => Checked<T>,
): Checked<T[]> {
	if (value === undefined) return accept([]);
	if (!Array.isArray(value)) return refuse(`${name} must be an array`);
	if (value.length > MAX_PER_ARRAY)
		return refuse(`${name} may contain at most ${MAX_PER_ARRAY} objects per request; received ${value.length}`);
	const items: T[] = [];
	for (const [index, item] of value.entries()) {
		const read = readItem(item, `${name}[${index}]`);
		if (!read.ok) return read;
		items.push(read.value);
	}
	return accept(items);
}

function readAliasToIdentify(item: unknown, path: string): Checked<AliasToIdentify> {
	if (!isPlainObject(item)) return refuse(`${path} must be an object {external_id, user_alias}`);
	const { external_id: externalId, user_alias: alias } = item;
	if (!isNonEmptyString(externalId)) return refuse(`${path}.external_id must be a non-empty string`);
	if (!isPlainObject(alias) || !isNonEmptyString(alias.alias_name) || !isNonEmptyString(alias.alias_label)) {
		return refuse(`${path}.user_alias must be an object with non-empty strings alias_name and alias_label`);
	}
	return accept({ externalId, alias: { alias_name: alias.alias_name, alias_label: alias.alias_label } });
}

function readEmailToIdentify(item: unknown, path: string): Checked<EmailToIdentify> {
	if (!isPlainObject(item)) return refuse(`${path} must be an object {external_id, email, prioritization}`);
	const { external_id: externalId, email, prioritization } = item;
	if (!isNonEmptyString(externalId)) return refuse(`${path}.external_id must be a non-empty string`);
	if (!isEmailAddress(email)) return refuse(`${path}.email ${JSON.stringify(email)} is not a valid email address`);
	const rules = readPrioritization(prioritization, `${path}.prioritization`);
	if (!rules.ok) return rules;
	return accept({ externalId, email, prioritization: rules.value });
}

function readPrioritization(value: unknown, path: string): Checked<PrioritizationRule[]> {
	const allowed = PRIORITIZATION_RULES.join(', ');
	if (!Array.isArray(value) || value.length === 0)
		return refuse(`${path} is required: an ordered, non-empty array of ${allowed}`);
	const unknown = value.find((rule) => !(PRIORITIZATION_RULES as readonly unknown[]).includes(rule));
	if (unknown !== undefined) return refuse(`${path}: unknown value ${JSON.stringify(unknown)}; allowed: ${allowed}`);
	if (value.includes('identified') && value.includes('unidentified')) {
		return refuse(`${path} may contain only one of identified and unidentified`);
	}
	return accept(value as PrioritizationRule[]);
}
