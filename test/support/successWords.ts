/**
 * The `status` a succeeded item carries in the node's words (its `engagementPlatform` field, read with
 * ./nodeWords.ts), by node and operation, as each operation declares it (`successStatus` beside its
 * `itemResult`, shared/engine/operation.ts): what happened in a marketer's words (Update Attributes
 * `updated`, Track Event and Purchase `tracked`, Identify `identified`, Subscribe and Unsubscribe the
 * state set). No operation is listed here: a new one brings its word with its declaration.
 * An operation that answers with the platform's own records (Export, the translation lookups, the
 * dashboard users) declares none, and asking for it throws, as does an operation no node has, so a
 * test never accepts just any word.
 *
 *   expect(statusOf(json)).toBe(successStatus(USER_NODE, trackEventParameters()));
 */
import type { INodeParameters } from 'n8n-workflow';

import { catalogOperations } from '../../nodes/EngagementPlatform/Catalog/operations';
import { dashboardUserOperations } from '../../nodes/EngagementPlatform/DashboardUser/operations';
import { messageOperations } from '../../nodes/EngagementPlatform/Message/operations';
import { preferenceCenterOperations } from '../../nodes/EngagementPlatform/PreferenceCenter/operations';
import type { NodeOperation, SuccessStatus } from '../../nodes/EngagementPlatform/shared/engine';
import { subscriptionOperations } from '../../nodes/EngagementPlatform/Subscription/operations';
import { translationOperations } from '../../nodes/EngagementPlatform/Translation/operations';
import { userOperations } from '../../nodes/EngagementPlatform/User/operations';
import {
	CATALOG_NODE,
	DASHBOARD_USER_NODE,
	MESSAGE_NODE,
	PREFERENCE_CENTER_NODE,
	SUBSCRIPTION_NODE,
	TRANSLATION_NODE,
	USER_NODE,
} from './nodeTypes';

/** Each action node's operations, the list its node file runs (`operations/index.ts`). */
const NODE_OPERATIONS: Readonly<Record<string, readonly NodeOperation[]>> = {
	[USER_NODE]: userOperations,
	[SUBSCRIPTION_NODE]: subscriptionOperations,
	[MESSAGE_NODE]: messageOperations,
	[CATALOG_NODE]: catalogOperations,
	[PREFERENCE_CENTER_NODE]: preferenceCenterOperations,
	[TRANSLATION_NODE]: translationOperations,
	[DASHBOARD_USER_NODE]: dashboardUserOperations,
};

/** The nodes whose operations this file reads. */
export const nodesWithOperations = (): string[] => Object.keys(NODE_OPERATIONS);

/** The operation as its node declares it; throws for an operation the node does not have. */
export function declaredOperation(nodeType: string, operation: string): NodeOperation {
	const declared = NODE_OPERATIONS[nodeType]?.find(({ option }) => option.value === operation);
	if (declared === undefined) {
		throw new Error(`test support: ${nodeType} has no operation "${operation}" (test/support/successWords.ts)`);
	}
	return declared;
}

const declaredSuccess = (nodeType: string, operation: string): SuccessStatus =>
	declaredOperation(nodeType, operation).operation.successStatus;

/**
 * Whether the operation answers in its own words, beside the row (`{...row, engagementPlatform: {status, ...}}`),
 * rather than with the platform's records alone (Export, the translation lookups, the dashboard users).
 */
export function answersWithWords(nodeType: string, operation: string): boolean {
	return !('none' in declaredSuccess(nodeType, operation));
}

/** The `status` of an item the operation in `parameters` succeeded on. */
export function successStatus(nodeType: string, parameters: INodeParameters): string {
	const operation = String(parameters.operation);
	const declared = declaredSuccess(nodeType, operation);
	if ('none' in declared) {
		throw new Error(
			`test support: ${nodeType} ${operation} answers with the platform's records, with no status word (its successStatus)`,
		);
	}
	// Set Group State: the state the item sets.
	if ('wordIn' in declared) return literal(parameters, declared.wordIn);
	// Track User Data: `tracked` when the item records an event or purchase, `updated` when it sets attributes alone.
	if ('whenAnyGiven' in declared) {
		return declared.whenAnyGiven.some((name) => gives(parameters, name)) ? declared.word : declared.otherwise;
	}
	return declared.word;
}

/** Whether a parameter gives the item something: a value that is not empty (`''`, `[]`, `null`, as JSON text too). */
function gives(parameters: INodeParameters, name: string): boolean {
	const value = parameters[name];
	if (value === undefined || value === '') return false;
	const parsed: unknown = typeof value === 'string' ? JSON.parse(literal(parameters, name)) : value;
	return Array.isArray(parsed) ? parsed.length > 0 : parsed !== null;
}

/** A parameter's value as written: the word cannot be told from an expression, evaluated per item. */
function literal(parameters: INodeParameters, name: string): string {
	const value = parameters[name];
	if (typeof value !== 'string' || value.startsWith('=')) {
		throw new Error(`test support: successStatus needs "${name}" written out, not ${JSON.stringify(value)}`);
	}
	return value;
}
