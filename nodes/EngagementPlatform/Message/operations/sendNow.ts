import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { asGiven, collection, inputField, optionalText, user } from '../../shared/fields/inputs';
import type { IdentifierKind } from '../../shared/descriptions/userIdentifierFields';
import { channelMessages, CHANNEL_KEYS } from '../../shared/schemas/channelMessages';
import { parseOrThrow } from '../../shared/schemas/parse';
import { dispatchOperation, dispatchPiece, dispatchShape, RECIPIENTS_PER_REQUEST } from '../shared/dispatchOperation';
import { AUDIENCE, recipientOf } from '../shared/recipientFields';
import { additionalFieldsCollection } from '../../shared/descriptions/additionalFields';
import { jsonObjectValue } from '../../shared/schemas/textValues';

export const option: INodePropertyOptions = {
	name: 'Send Now',
	value: 'sendNow',
	action: 'Send a message now',
	description: 'Send messages immediately to each item’s user, or to a segment or audience',
	builderHint: {
		propertyHint:
			"Pick to send a message whose content is written in this node (Messages JSON, one object per channel) to each item's user or to a segment. For a campaign or canvas set up in the platform use triggerCampaign or triggerCanvas.",
	},
};

/** /messages/send names users by external_user_ids and user_aliases only. */
const RECIPIENT_KINDS: readonly IdentifierKind[] = ['external_id', 'user_alias'];
const toUsers = { show: { sendTo: ['users'] } };

const sendTo = {
	displayName: 'Send To',
	name: 'sendTo',
	type: 'options',
	options: [
		{
			name: 'The User of Each Item',
			value: 'users',
			description: 'Items with the same message share requests, 50 users each',
		},
		{ name: 'A Segment or Audience (Broadcast)', value: 'broadcast', description: 'Each item sends one broadcast' },
	],
	default: 'users',
	builderHint: {
		propertyHint:
			'Keep users to send to the user of each input item. Pick broadcast only when the user asks for one: each item then sends to everyone in the Segment ID or Audience given, one of which is required.',
	},
} satisfies INodeProperties;
// Read with its default where the item has none, as the panel shows it.
const SEND_TO = asGiven<string>(sendTo, sendTo.default);

const USER = user(RECIPIENT_KINDS, { show: toUsers.show });

const MESSAGES = inputField(
	{
		displayName: 'Messages (JSON)',
		name: 'messages',
		type: 'json',
		default: '{"email": {"app_id": "your-app-id", "subject": "Hello", "body": "<p>Hello!</p>"}}',
		required: true,
		hint: `One message object per channel: ${CHANNEL_KEYS.join(', ')}`,
	},
	// Checked against the spec's message objects, one per channel.
	(value, label) => parseOrThrow(channelMessages, jsonObjectValue(value, label), label) as IDataObject,
	'',
);

const SEGMENT = optionalText({
	displayName: 'Segment ID',
	name: 'segmentId',
	type: 'string',
	default: '',
	description: 'Send to this segment; with users, only those users who are in it receive the message',
	builderHint: {
		propertyHint:
			"The segment's API identifier from the platform; leave it empty to send to the items' users without a segment filter. Never invent one: if the user asked for a segment without giving its ID, use a placeholder for them to fill in.",
	},
});

const ADDITIONAL = collection(
	additionalFieldsCollection([
		{
			displayName: 'Campaign ID',
			name: 'campaign_id',
			type: 'string',
			default: '',
			description: 'Needed to track campaign statistics',
		},
		{
			displayName: 'Override Frequency Capping',
			name: 'override_frequency_capping',
			type: 'boolean',
			default: true,
			description: 'Whether to ignore frequency capping for this send',
		},
		{
			displayName: 'Recipient Subscription State',
			name: 'recipient_subscription_state',
			type: 'options',
			options: [
				{ name: 'All', value: 'all' },
				{ name: 'Opted In', value: 'opted_in' },
				{ name: 'Subscribed', value: 'subscribed' },
			],
			default: 'subscribed',
		},
		{ displayName: 'Send ID', name: 'send_id', type: 'string', default: '' },
	]),
);

export const description: INodeProperties[] = [
	...SEND_TO.properties,
	...USER.properties,
	...MESSAGES.properties,
	...SEGMENT.properties,
	...AUDIENCE.properties,
	...ADDITIONAL.properties,
];

const max = RECIPIENTS_PER_REQUEST;

export const operation = dispatchOperation(
	{ method: 'POST', path: '/messages/send', permission: 'messages.send', credentialType: 'engagementPlatformApi' },
	// External user IDs and aliases share a request; 50 recipients of the two together.
	dispatchShape({
		external_user_ids: { form: 'list', field: 'external_user_ids', max },
		user_aliases: { form: 'list', field: 'user_aliases', max },
	}),
	(item) => {
		const request: IDataObject = { messages: MESSAGES.read(item) };
		const segmentId = SEGMENT.read(item);
		if (segmentId) request.segment_id = segmentId;
		const audience = AUDIENCE.read(item);
		if (audience) request.audience = audience;
		for (const [key, value] of Object.entries(ADDITIONAL.read(item))) if (value !== '') request[key] = value;

		if (SEND_TO.read(item) === 'broadcast') {
			if (!segmentId && !audience) {
				throw SEGMENT.problem(
					'or an audience is needed for a broadcast',
					'Give a segment ID or an audience, or send to the user of each item.',
				);
			}
			return [dispatchPiece(item.itemIndex, request, undefined, { broadcast: true })];
		}
		const recipient = recipientOf(USER.read(item));
		const slot =
			'user_alias' in recipient
				? { slot: 'user_aliases', value: recipient.user_alias as IDataObject }
				: { slot: 'external_user_ids', value: (recipient as { external_user_id: string }).external_user_id };
		return [dispatchPiece(item.itemIndex, request, slot, { ...recipient })];
	},
);
