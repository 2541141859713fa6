import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationSpec } from '../../shared/engine/operation';
import { settleRemaining } from '../../shared/engine/outcomes';
import { fixedPackingSettings, optionsCollection } from '../../shared/fields/requestOptions';
import { readUserIdentifier, userIdentifierFields } from '../../shared/fields/userIdentifier';

export const option: INodePropertyOptions = {
	name: 'Set Group State',
	value: 'setGroupState',
	action: 'Set subscription group state',
	description: 'Subscribe or unsubscribe users, by external ID, email or phone, from a subscription group',
};

const show = { operation: ['setGroupState'] };

/** Each element of the request carries one kind of ID; its field name in the body. */
const IDS_FIELD: Record<string, string> = { external_id: 'external_ids', email: 'emails', phone: 'phones' };

export const description: INodeProperties[] = [
	{
		displayName: 'Subscription Group ID',
		name: 'subscriptionGroupId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 8d2f9a0c-5b1e-4c7d-9e3f-1a2b3c4d5e6f',
		description: "The group's ID from the platform's subscription group settings",
		displayOptions: { show },
	},
	{
		displayName: 'State',
		name: 'subscriptionState',
		type: 'options',
		options: [
			{ name: 'Subscribed', value: 'subscribed' },
			{ name: 'Unsubscribed', value: 'unsubscribed' },
		],
		default: 'subscribed',
		displayOptions: { show },
	},
	...userIdentifierFields(show, ['external_id', 'email', 'phone']),
	optionsCollection(show),
];

export const operation: OperationSpec = {
	endpoint: {
		method: 'POST',
		path: '/v2/subscription/status/set',
		rateLimitGroup: 'subscription.status.set',
		permission: 'subscription.status.set',
		credentialType: 'engagementPlatformApi',
	},
	// 50 IDs per element (the spec); elements of several groups and states share a request. The
	// spec sets no limit on elements per request: 50 keeps a request near 100 KB at most.
	settings: fixedPackingSettings({ perSlot: 50, slotsPerRequest: 50, repeatSlots: true }),
	readItem(item) {
		const subscription_group_id = item.string('subscriptionGroupId', 'Subscription Group ID');
		const subscription_state = item.raw('subscriptionState', 'subscribed') as string;
		const identifier = readUserIdentifier(item);
		const [kind, id] = Object.entries(identifier)[0] as [string, string];
		// An element holds one group, one state and one kind of ID: emails and phones never share one.
		const slot = JSON.stringify([subscription_group_id, subscription_state, IDS_FIELD[kind]]);
		return [
			{
				itemIndex: item.itemIndex,
				slot,
				groupKey: '',
				payload: { id },
				subject: { subscription_group_id, subscription_state, ...(identifier as IDataObject) },
			},
		];
	},
	buildBody: (request) => ({
		subscription_groups: [...request.slots.values()].map((pieces) => {
			const [subscription_group_id, subscription_state, idsField] = JSON.parse(pieces[0].slot) as string[];
			return { subscription_group_id, subscription_state, [idsField]: pieces.map((piece) => piece.payload.id) };
		}),
	}),
	// Setting the same state twice leaves the same state.
	isSafeToResend: () => true,
	readResponse: (_, request) => settleRemaining(request, { ok: true }),
	itemResult: (_, [{ piece }]) => [{ status: 'set', ...piece.subject }],
};
