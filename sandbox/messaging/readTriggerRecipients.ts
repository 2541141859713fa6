import type { UserAlias } from '../adminApiTypes';
import { unknownFieldsProblem } from '../badRequest';
import { isEmailAddress, isNonEmptyString, isPlainObject } from '../formats';
import { PRIORITIZATION_RULES, type PrioritizationRule } from '../identity/emailPrioritization';
import type { AttributeUpdate } from '../track/attributes';
import { accept, refuse, type Checked } from '../track/checked';
import { readRecipientAttributes } from './recipientAttributes';
import { triggerPropertiesProblem, type PropertiesField } from './triggerProperties';

export const MAX_RECIPIENTS = 50;

type RecipientIdentity =
	| { kind: 'external_user_id'; externalId: string }
	| { kind: 'user_alias'; alias: UserAlias }
	| { kind: 'email'; email: string; prioritization: PrioritizationRule[] };

export interface TriggerRecipient {
	identity: RecipientIdentity;
	/** Default true: an unknown user is skipped. False: the user is created (attributes required). */
	sendToExistingOnly: boolean;
	attributes?: AttributeUpdate;
	/** This user's trigger_properties / canvas_entry_properties. */
	properties?: Record<string, unknown>;
}

const IDENTITY_FIELDS = ['user_alias', 'external_user_id', 'email'] as const;

/** The `recipients` array of /campaigns/trigger/send or /canvas/trigger/send (given: not undefined). */
export function readTriggerRecipients(
	value: unknown,
	options: { propertiesField: PropertiesField; subscriptionGroups: boolean },
): Checked<TriggerRecipient[]> {
	if (!Array.isArray(value) || value.length === 0)
		return refuse(`recipients must be a non-empty array of at most ${MAX_RECIPIENTS} recipient objects`);
	if (value.length > MAX_RECIPIENTS)
		return refuse(`recipients may contain at most ${MAX_RECIPIENTS} objects per request; received ${value.length}`);
	const recipients: TriggerRecipient[] = [];
	for (const [i, item] of value.entries()) {
		const recipient = readRecipient(item, `recipients[${i}]`, options);
		if (!recipient.ok) return recipient;
		recipients.push(recipient.value);
	}
	return accept(recipients);
}

function readRecipient(
	item: unknown,
	path: string,
	options: { propertiesField: PropertiesField; subscriptionGroups: boolean },
): Checked<TriggerRecipient> {
	if (!isPlainObject(item)) return refuse(`${path} must be an object`);
	const unknown = unknownFieldsProblem(item, [
		...IDENTITY_FIELDS,
		'prioritization',
		options.propertiesField,
		'send_to_existing_only',
		'attributes',
	]);
	if (unknown) return refuse(`${path}: ${unknown}`);
	const identity = readIdentity(item, path);
	if (!identity.ok) return identity;

	const sendToExistingOnly = item.send_to_existing_only;
	if (sendToExistingOnly !== undefined) {
		if (identity.value.kind === 'user_alias')
			return refuse(`${path}.send_to_existing_only cannot be used with user_alias`);
		if (typeof sendToExistingOnly !== 'boolean') return refuse(`${path}.send_to_existing_only must be a boolean`);
	}
	if (sendToExistingOnly === false && item.attributes === undefined) {
		return refuse(`${path}.attributes is required when send_to_existing_only is false (the user is created with them)`);
	}
	const recipient: TriggerRecipient = { identity: identity.value, sendToExistingOnly: sendToExistingOnly !== false };

	if (item.attributes !== undefined) {
		const attributes = readRecipientAttributes(item.attributes, `${path}.attributes`, {
			subscriptionGroups: options.subscriptionGroups,
		});
		if (!attributes.ok) return attributes;
		recipient.attributes = attributes.value;
	}
	const properties = item[options.propertiesField];
	if (properties !== undefined) {
		const problem = triggerPropertiesProblem(options.propertiesField, properties, `${path}.${options.propertiesField}`);
		if (problem) return refuse(problem);
		recipient.properties = properties as Record<string, unknown>;
	}
	return accept(recipient);
}

function readIdentity(item: Record<string, unknown>, path: string): Checked<RecipientIdentity> {
	const given = IDENTITY_FIELDS.filter((field) => item[field] !== undefined);
	if (given.length !== 1) {
		return refuse(
			given.length === 0
				? `${path}: one of user_alias, external_user_id or email is required`
				: `${path}: exactly one of user_alias, external_user_id or email is allowed, got ${given.join(' and ')}`,
		);
	}
	if (given[0] !== 'email' && item.prioritization !== undefined)
		return refuse(`${path}.prioritization is only used with email`);
	switch (given[0]) {
		case 'external_user_id':
			if (!isNonEmptyString(item.external_user_id))
				return refuse(`${path}.external_user_id must be a non-empty string`);
			return accept({ kind: 'external_user_id', externalId: item.external_user_id });
		case 'user_alias': {
			const alias = item.user_alias;
			if (!isPlainObject(alias) || !isNonEmptyString(alias.alias_name) || !isNonEmptyString(alias.alias_label)) {
				return refuse(`${path}.user_alias must be an object with non-empty strings alias_name and alias_label`);
			}
			return accept({ kind: 'user_alias', alias: { alias_name: alias.alias_name, alias_label: alias.alias_label } });
		}
		case 'email': {
			if (!isEmailAddress(item.email))
				return refuse(`${path}.email ${JSON.stringify(item.email)} is not a valid email address`);
			const prioritization = readPrioritization(item.prioritization, `${path}.prioritization`);
			if (!prioritization.ok) return prioritization;
			return accept({ kind: 'email', email: item.email, prioritization: prioritization.value });
		}
	}
}

// As in /users/identify: an ordered array of identified, unidentified, most_recently_updated, at most one of the first two.
function readPrioritization(value: unknown, path: string): Checked<PrioritizationRule[]> {
	const allowed = PRIORITIZATION_RULES.join(', ');
	if (!Array.isArray(value) || value.length === 0)
		return refuse(`${path} is required with email: an ordered, non-empty array of ${allowed}`);
	const unknown = value.find((rule) => !(PRIORITIZATION_RULES as readonly unknown[]).includes(rule));
	if (unknown !== undefined) return refuse(`${path}: unknown value ${JSON.stringify(unknown)}; allowed: ${allowed}`);
	if (value.includes('identified') && value.includes('unidentified'))
		return refuse(`${path} may contain only one of identified and unidentified`);
	return accept(value as PrioritizationRule[]);
}
