import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemReader, RequestShape } from '../../shared/engine';
import { answerRemaining, declareOperation, groupStateKey, groupStateLabel } from '../../shared/engine';
import { requiredText, user } from '../../shared/fields/inputs';
import { userStateKey } from '../../shared/schemas/identifiers';
import type { UserIdentifier } from '../../shared/schemas/identifiers';
import type { GroupState } from '../../shared/schemas/standardAttributes';
import { GROUP_STATES } from '../../shared/schemas/standardAttributes';
import { readGroupRefusal } from './groupRefusal';

/** The spec: "set subscription-group state for up to 50 users per call". */
const USERS_PER_CALL = 50;
/** The spec: "up to 50 ids per field". */
const IDS_PER_ELEMENT = 50;

/** Each element of the request carries one kind of ID; its field name in the body. */
const IDS_FIELD: Record<string, IdsField> = { external_id: 'external_ids', email: 'emails', phone: 'phones' };
type IdsField = 'external_ids' | 'emails' | 'phones';
const KIND_OF: Record<IdsField, string> = { external_ids: 'external_id', emails: 'email', phones: 'phone' };

/** One user's ID and the element it belongs in: one group, one state and one kind of ID (emails and phones never share one). */
interface GroupStateChange {
	subscription_group_id: string;
	subscription_state: string;
	idsField: IdsField;
	id: string;
}

const SUBSCRIPTION_SHAPE: RequestShape<undefined, GroupStateChange> = {
	slots: {
		subscription_groups: {
			form: 'elements',
			field: 'subscription_groups',
			max: USERS_PER_CALL,
			elements: {
				max: IDS_PER_ELEMENT,
				kindOf: ({ subscription_group_id, subscription_state, idsField, id }) => ({
					key: `${subscription_group_id} ${subscription_state} ${idsField}`,
					fields: { subscription_group_id, subscription_state },
					listField: idsField,
					value: id,
				}),
			},
		},
	},
	// "Set subscription-group state for up to 50 users per call": elements of several groups and
	// states share a request while their IDs add up to 50 or fewer.
	total: USERS_PER_CALL,
	batch: 'users',
};

const GROUP = requiredText({
	displayName: 'Subscription Group ID',
	name: 'subscriptionGroupId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 7f2c9a4e-5b1d-4c8e-9a3f-1d2b3c4e5f60',
	description: 'The subscription group (one list, such as a newsletter or an SMS list) whose state the users get',
	// The spec does not show the dashboard: Audience →
	// Subscriptions is where the well-known engagement platforms keep their subscription groups and IDs.
	hint: 'In the dashboard: Audience → Subscriptions, open the group and copy its Subscription Group ID (a UUID such as 7f2c9a4e-…)',
	builderHint: {
		propertyHint:
			"The subscription group's ID (a UUID) from the dashboard, Audience → Subscriptions, usually the same for every item. Never invent one: if the user has not given it, use a placeholder for them to fill in.",
	},
});

/**
 * A subscription group is one list; the profile's own email subscription (all email) is another
 * field, in the User node. Display only: the node reads no value of it, so it changes no saved workflow.
 */
const emailSubscriptionNotice: INodeProperties = {
	displayName:
		"A subscription group is one list (a newsletter, an SMS list). To opt someone out of all email, use the User node's Update Attributes → Additional Fields → Email Subscription instead.",
	name: 'emailSubscriptionNotice',
	type: 'notice',
	default: '',
};

const STATE_FIX =
	'Map "subscribed" or "unsubscribed" into this field, e.g. {{ $json.newsletter ? "subscribed" : "unsubscribed" }}.';
const STATE = requiredText(
	{
		displayName: 'State',
		name: 'subscriptionState',
		type: 'options',
		options: [
			{ name: 'Subscribed', value: 'subscribed' },
			{ name: 'Unsubscribed', value: 'unsubscribed' },
		],
		default: 'subscribed',
	},
	STATE_FIX,
);

const USER = user(['external_id', 'email', 'phone']);

/**
 * The fields of a subscription group operation: the group, the state unless the operation is one
 * state's own (Subscribe, Unsubscribe), and the user.
 */
export function groupStateFields(fixedState?: GroupState): INodeProperties[] {
	return [emailSubscriptionNotice, ...GROUP.properties, ...(fixedState ? [] : STATE.properties), ...USER.properties];
}

/**
 * One declaration for Set Group State (the state read from its field, per item) and for Subscribe
 * and Unsubscribe (one state for every item): the same endpoint, batching and results.
 */
const ENDPOINT = {
	method: 'POST',
	path: '/v2/subscription/status/set',
	rateLimit: 'subscription.status.set',
	permission: 'subscription.status.set',
	credentialType: 'engagementPlatformApi',
} as const;

export const groupStateOperation = (fixedState?: GroupState) =>
	declareOperation<undefined, GroupStateChange>({
		endpoint: ENDPOINT,
		shape: SUBSCRIPTION_SHAPE,
		stateSlots: {
			subscription_groups: {
				userOf: ({ payload }) => userOf(payload),
				parts: ({ payload }) => [
					{
						user: userOf(payload),
						key: groupStateKey(payload.subscription_group_id),
						value: payload.subscription_state,
						label: groupStateLabel(payload.subscription_group_id),
						alsoSetElsewhere: true,
					},
				],
				// A piece is one part, one user's state in one group: nothing smaller can be sent, so no part-level
				// send applies; and Send Only Changes never leaves it out, as nothing proves it (below).
				keepOnly: ({ payload }) => payload,
				// Spec: the answer's body is not shown, and an external ID nobody has is ignored with a 2xx on
				// well-known platforms: an accepted state proves nothing, so it is never remembered as applied.
				provenByAcceptance: false,
			},
		},
		readItem(item) {
			const subscription_group_id = GROUP.read(item);
			const subscription_state = fixedState ?? readGroupState(item);
			const { kind, identifier } = USER.read(item);
			const id = Object.values(identifier)[0] as string;
			return [
				{
					itemIndex: item.itemIndex,
					slot: 'subscription_groups',
					group: undefined,
					payload: { subscription_group_id, subscription_state, idsField: IDS_FIELD[kind], id },
					subject: { subscription_group_id, subscription_state, ...(identifier as IDataObject) },
				},
			];
		},
		// Setting the same state twice leaves the same state.
		isSafeToResend: () => true,
		readResponse: (_, request) => answerRemaining(request, { ok: true }),
		// A group ID the workspace does not have fails its items with where the ID is found.
		readErrorResponse: (response, request) => readGroupRefusal(response, request, ENDPOINT),
		// The state that was set: subscribed or unsubscribed.
		successStatus: fixedState ? { word: fixedState } : { wordIn: STATE.name },
		itemResult: (_, [{ piece }]) => [{ status: piece.payload.subscription_state, ...piece.subject }],
	});

function userOf({ idsField, id }: GroupStateChange): string {
	return userStateKey({ [KIND_OF[idsField]]: id } as UserIdentifier);
}

/**
 * The state, checked before anything is sent: an expression (a mapped field, or an AI agent's
 * `$fromAI`) may give any value or none, and the platform refuses the whole request for one wrong state.
 */
function readGroupState(item: ItemReader): string {
	const state = STATE.read(item);
	if (!(GROUP_STATES as readonly string[]).includes(state))
		throw STATE.problem(`must be subscribed or unsubscribed, got "${state}"`, STATE_FIX);
	return state;
}
