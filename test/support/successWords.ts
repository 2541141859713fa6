/**
 * The `status` a succeeded item carries in the node's words (its `engagementPlatform` field, read with
 * ./nodeWords.ts), by node and operation: what happened in a marketer's words
 * (Update Attributes `updated`, Track Event and Purchase `tracked`, Identify `identified`, Subscribe and
 * Unsubscribe the state set).
 * Only operations that answer with a status word are here: one that answers with the platform's own
 * records (Export, the translation lookups, the dashboard users) has none, and asking for it throws,
 * as does an operation not listed, so a test never accepts just any word.
 *
 *   expect(statusOf(json)).toBe(successStatus(USER_NODE, trackEventParameters()));
 */
import type { INodeParameters } from 'n8n-workflow';

import { CATALOG_NODE, MESSAGE_NODE, PREFERENCE_CENTER_NODE, SUBSCRIPTION_NODE, USER_NODE } from './nodeTypes';

type Word = (parameters: INodeParameters) => string;

const always =
	(word: string): Word =>
	() =>
		word;

const WORDS: Record<string, Record<string, Word>> = {
	[USER_NODE]: {
		trackEvent: always('tracked'),
		trackPurchase: always('tracked'),
		updateAttributes: always('updated'),
		// `tracked` when the item records an event or purchase, `updated` when it sets attributes alone.
		trackUserData: (parameters) => (tracksAny(parameters) ? 'tracked' : 'updated'),
		identify: always('identified'),
		renameExternalIds: always('renamed'),
	},
	[SUBSCRIPTION_NODE]: {
		subscribe: always('subscribed'),
		unsubscribe: always('unsubscribed'),
		setGroupState: (parameters) => literal(parameters, 'subscriptionState'),
	},
	[MESSAGE_NODE]: {
		triggerCampaign: always('sent'),
		triggerCanvas: always('sent'),
		sendNow: always('sent'),
		// `queued` instead when the platform answers that it is queueing the email, `duplicate` when it already
		// had the same email under the same External Send ID (successes too, said apart).
		sendTransactionalEmail: always('sent'),
		updateScheduledCanvas: always('updated'),
		deleteScheduledCanvas: always('deleted'),
	},
	[CATALOG_NODE]: {
		replaceItems: always('accepted'),
		editItems: always('accepted'),
		deleteItems: always('accepted'),
	},
	[PREFERENCE_CENTER_NODE]: {
		update: always('updated'),
	},
};

/**
 * Whether the operation answers in its own words, beside the row (`{...row, engagementPlatform: {status, ...}}`),
 * rather than with the platform's records alone (Export, the translation lookups, the dashboard users).
 */
export function answersWithWords(nodeType: string, operation: string): boolean {
	return WORDS[nodeType]?.[operation] !== undefined;
}

/** The `status` of an item the operation in `parameters` succeeded on. */
export function successStatus(nodeType: string, parameters: INodeParameters): string {
	const operation = String(parameters.operation);
	const word = WORDS[nodeType]?.[operation];
	if (word === undefined) {
		throw new Error(
			`test support: ${nodeType} ${operation} answers with no status word known to test/support/successWords.ts`,
		);
	}
	return word(parameters);
}

function tracksAny(parameters: INodeParameters): boolean {
	return ['eventsJson', 'purchasesJson'].some((name) => {
		const value = parameters[name];
		if (value === undefined || value === '') return false;
		const parsed: unknown = JSON.parse(literal(parameters, name));
		return Array.isArray(parsed) ? parsed.length > 0 : parsed !== null;
	});
}

/** A parameter's value as written: the word cannot be told from an expression, evaluated per item. */
function literal(parameters: INodeParameters, name: string): string {
	const value = parameters[name];
	if (typeof value !== 'string' || value.startsWith('=')) {
		throw new Error(`test support: successStatus needs "${name}" written out, not ${JSON.stringify(value)}`);
	}
	return value;
}
