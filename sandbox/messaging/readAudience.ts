import type { EmailSubscribeState } from '../adminApiTypes';
import { isDatetimeString, isNonEmptyString, isPlainObject } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';

type AudienceComparison = 'equals' | 'includes_value' | 'less_than_x_days_ago' | 'is' | 'is_not' | 'after';

export type AudienceNode =
	| { kind: 'AND' | 'OR'; children: AudienceNode[] }
	| { kind: 'custom_attribute'; name: string; comparison: AudienceComparison; value: unknown }
	| {
			kind: 'push_subscription_status' | 'email_subscription_status';
			comparison: 'is' | 'is_not';
			value: EmailSubscribeState;
	  }
	| { kind: 'last_used_app'; comparison: 'after' | 'less_than_x_days_ago'; value: string | number };

const ALL_COMPARISONS: readonly AudienceComparison[] = [
	'equals',
	'includes_value',
	'less_than_x_days_ago',
	'is',
	'is_not',
	'after',
];
const SUBSCRIPTION_VALUES: readonly EmailSubscribeState[] = ['opted_in', 'subscribed', 'unsubscribed'];
const LEAF_KINDS = ['custom_attribute', 'push_subscription_status', 'email_subscription_status', 'last_used_app'];

/**
 * Checks a connected audience object, naming the path of the first problem (e.g.
 * `audience.AND[1].custom_attribute.comparison`). The spec shows four leaf kinds and six comparisons
 * and says the lists are incomplete; the sandbox takes only those, so a misspelt kind or comparison is
 * refused instead of silently targeting everyone. Which comparison goes with which leaf is not shown:
 * as in Braze, subscription statuses take is / is_not, last_used_app takes after / less_than_x_days_ago,
 * and a custom attribute (whose type the sandbox does not know) takes any of the six.
 */
export function readAudience(value: unknown, path = 'audience'): Checked<AudienceNode> {
	if (!isPlainObject(value)) return refuse(`${path} must be an object: {"AND": [...]}, {"OR": [...]} or one condition`);
	const keys = Object.keys(value);
	if (keys.length !== 1) {
		return refuse(
			`${path} must have exactly one key (AND, OR, ${LEAF_KINDS.join(', ')}), got ${keys.length === 0 ? 'none' : keys.join(', ')}`,
		);
	}
	const [kind] = keys;
	const body = value[kind];
	const here = `${path}.${kind}`;
	switch (kind) {
		case 'AND':
		case 'OR':
			return readBranch(kind, body, here);
		case 'custom_attribute':
			return readCustomAttribute(body, here);
		case 'push_subscription_status':
		case 'email_subscription_status':
			return readSubscriptionStatus(kind, body, here);
		case 'last_used_app':
			return readLastUsedApp(body, here);
		default:
			return refuse(`${path}: unknown condition '${kind}'; accepted: AND, OR, ${LEAF_KINDS.join(', ')}`);
	}
}

function readBranch(kind: 'AND' | 'OR', children: unknown, path: string): Checked<AudienceNode> {
	if (!Array.isArray(children) || children.length === 0)
		return refuse(`${path} must be a non-empty array of audience conditions`);
	const nodes: AudienceNode[] = [];
	for (const [i, child] of children.entries()) {
		const node = readAudience(child, `${path}[${i}]`);
		if (!node.ok) return node;
		nodes.push(node.value);
	}
	return accept({ kind, children: nodes });
}

function readCustomAttribute(body: unknown, path: string): Checked<AudienceNode> {
	const fields = leafFields(body, path, ['custom_attribute_name', 'comparison', 'value']);
	if (!fields.ok) return fields;
	const { custom_attribute_name: name, comparison, value } = fields.value;
	if (!isNonEmptyString(name)) return refuse(`${path}.custom_attribute_name must be a non-empty string`);
	const checkedComparison = oneOf(comparison, ALL_COMPARISONS, `${path}.comparison`);
	if (!checkedComparison.ok) return checkedComparison;
	const problem = comparisonValueProblem(checkedComparison.value, value, `${path}.value`);
	if (problem) return refuse(problem);
	return accept({ kind: 'custom_attribute', name, comparison: checkedComparison.value, value });
}

function readSubscriptionStatus(
	kind: 'push_subscription_status' | 'email_subscription_status',
	body: unknown,
	path: string,
): Checked<AudienceNode> {
	const fields = leafFields(body, path, ['comparison', 'value']);
	if (!fields.ok) return fields;
	const comparison = oneOf(fields.value.comparison, ['is', 'is_not'] as const, `${path}.comparison`);
	if (!comparison.ok) return comparison;
	const value = oneOf(fields.value.value, SUBSCRIPTION_VALUES, `${path}.value`);
	if (!value.ok) return value;
	return accept({ kind, comparison: comparison.value, value: value.value });
}

function readLastUsedApp(body: unknown, path: string): Checked<AudienceNode> {
	const fields = leafFields(body, path, ['comparison', 'value']);
	if (!fields.ok) return fields;
	const comparison = oneOf(fields.value.comparison, ['after', 'less_than_x_days_ago'] as const, `${path}.comparison`);
	if (!comparison.ok) return comparison;
	const problem = comparisonValueProblem(comparison.value, fields.value.value, `${path}.value`);
	if (problem) return refuse(problem);
	return accept({ kind: 'last_used_app', comparison: comparison.value, value: fields.value.value as string | number });
}

/** A leaf's object, holding exactly the named fields (each required). */
function leafFields(body: unknown, path: string, names: readonly string[]): Checked<Record<string, unknown>> {
	if (!isPlainObject(body)) return refuse(`${path} must be an object {${names.join(', ')}}`);
	const unknown = Object.keys(body).find((key) => !names.includes(key));
	if (unknown !== undefined) return refuse(`${path}: unknown field '${unknown}' (accepted: ${names.join(', ')})`);
	const missing = names.find((name) => body[name] === undefined);
	if (missing !== undefined) return refuse(`${path}.${missing} is required`);
	return accept(body);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): Checked<T> {
	if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return accept(value as T);
	return refuse(`${path} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
}

function comparisonValueProblem(comparison: AudienceComparison, value: unknown, path: string): string | undefined {
	switch (comparison) {
		case 'after':
			return isDatetimeString(value) ? undefined : `${path} must be an ISO 8601 datetime for comparison 'after'`;
		case 'less_than_x_days_ago':
			return typeof value === 'number' && value >= 0
				? undefined
				: `${path} must be a number of days (at least 0) for comparison 'less_than_x_days_ago'`;
		case 'includes_value':
			return ['string', 'number', 'boolean'].includes(typeof value)
				? undefined
				: `${path} must be a string, number or boolean for comparison 'includes_value'`;
		default:
			return value === null || ['string', 'number', 'boolean'].includes(typeof value) || Array.isArray(value)
				? undefined
				: `${path} must be a string, number, boolean, array or null`;
	}
}
