import type { SubscriptionState } from '../adminApiTypes';
import { unknownFieldsProblem } from '../badRequest';
import { isE164Phone, isEmailAddress, isNonEmptyString, isPlainObject } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';

type SubscriptionTargets = { kind: 'external_ids' | 'emails' | 'phones'; values: string[] };

export interface SubscriptionUpdate {
	groupId: string;
	state: SubscriptionState;
	targets: SubscriptionTargets;
}

const MAX_IDS = 50;
// Spec, "What the service does": "set subscription-group state for up to 50 users per call". Read as
// the IDs of every element together, next to the per-field "up to 50" of each element.
const MAX_USERS_PER_CALL = 50;
const ID_FIELDS = ['external_ids', 'emails', 'phones'] as const;

/** Checks a /v2/subscription/status/set body; any problem refuses the whole request, naming the element and field. */
export function readSubscriptionGroups(body: unknown): Checked<SubscriptionUpdate[]> {
	if (!isPlainObject(body)) return refuse('Request body must be a JSON object with subscription_groups');
	const unknown = unknownFieldsProblem(body, ['subscription_groups']);
	if (unknown) return refuse(unknown);
	const elements = body.subscription_groups;
	if (!Array.isArray(elements) || elements.length === 0) {
		return refuse(
			'subscription_groups is required: a non-empty array of {subscription_group_id, subscription_state, external_ids | emails | phones}',
		);
	}
	const updates: SubscriptionUpdate[] = [];
	for (const [index, element] of elements.entries()) {
		const update = readElement(element, `subscription_groups[${index}]`);
		if (!update.ok) return update;
		updates.push(update.value);
	}
	const users = updates.reduce((sum, update) => sum + update.targets.values.length, 0);
	if (users > MAX_USERS_PER_CALL) {
		return refuse(
			`subscription_groups may name at most ${MAX_USERS_PER_CALL} users per request (external_ids, emails and phones of all elements together); received ${users}`,
		);
	}
	return accept(updates);
}

function readElement(element: unknown, path: string): Checked<SubscriptionUpdate> {
	if (!isPlainObject(element)) return refuse(`${path} must be an object`);
	const { subscription_group_id: groupId, subscription_state: state } = element;
	if (!isNonEmptyString(groupId)) return refuse(`${path}.subscription_group_id is required: a non-empty string`);
	if (state !== 'subscribed' && state !== 'unsubscribed') {
		return refuse(`${path}.subscription_state must be subscribed or unsubscribed, got ${JSON.stringify(state)}`);
	}
	const given = ID_FIELDS.filter((field) => element[field] !== undefined);
	if (given.includes('emails') && given.includes('phones'))
		return refuse(`${path}: emails and phones cannot both be in one element`);
	// The spec lets each kind be sent alone; the contract the nodes use is one kind per element.
	if (given.length !== 1) {
		return refuse(
			given.length === 0
				? `${path}: one of external_ids, emails or phones is required`
				: `${path}: give only one of external_ids, emails or phones, got ${given.join(' and ')}`,
		);
	}
	const kind = given[0];
	const targets = readTargets(kind, element[kind], `${path}.${kind}`);
	if (!targets.ok) return targets;
	return accept({ groupId, state, targets: { kind, values: targets.value } });
}

function readTargets(kind: SubscriptionTargets['kind'], value: unknown, path: string): Checked<string[]> {
	// `emails` may be one string (spec: "string or array of strings").
	const values = kind === 'emails' && typeof value === 'string' ? [value] : value;
	if (!Array.isArray(values)) return refuse(`${path} must be an array${kind === 'emails' ? ' or a string' : ''}`);
	if (values.length === 0) return refuse(`${path} must contain at least 1 entry`);
	if (values.length > MAX_IDS)
		return refuse(`${path} may contain at most ${MAX_IDS} entries; received ${values.length}`);
	for (const [index, item] of values.entries()) {
		const problem = targetProblem(kind, item);
		if (problem) return refuse(`${path}[${index}] ${problem}`);
	}
	return accept(values as string[]);
}

function targetProblem(kind: SubscriptionTargets['kind'], item: unknown): string | undefined {
	switch (kind) {
		case 'external_ids':
			return isNonEmptyString(item) ? undefined : 'must be a non-empty string';
		case 'emails':
			return isEmailAddress(item) ? undefined : `${JSON.stringify(item)} is not a valid email address`;
		case 'phones':
			return isE164Phone(item)
				? undefined
				: `${JSON.stringify(item)} is not a valid E.164 phone number (e.g. +14155552671)`;
	}
}
