import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { additionalFieldsCollection } from '../../shared/descriptions/additionalFields';
import { collection } from '../../shared/fields/inputs';
import { parseOrThrow } from '../../shared/schemas/parse';
import { trackAttributes } from '../../shared/schemas/trackObjects';
import { columnsNotSent, standardAttributes } from '../shared/standardAttributeFields';
import { updateExistingOnlyField } from '../shared/trackFields';
import { namedValues } from '../../shared/fields/namedValues';
import {
	ATTRIBUTES_SET_STATE,
	trackPiece,
	trackUser,
	UPDATED,
	usersTrackOperation,
} from '../shared/usersTrackOperation';

export const option: INodePropertyOptions = {
	name: 'Update Attributes',
	value: 'updateAttributes',
	action: 'Update user attributes',
	description: "Set attributes, email subscription and subscription groups on users' profiles",
	builderHint: {
		propertyHint:
			'Pick to set profile attributes (standard ones such as first_name, and custom ones), the all-email subscription or subscription groups, one user per input item: the usual choice for a contact sync from a sheet or CRM.',
	},
};

const additionalFields = additionalFieldsCollection([
	{
		displayName: 'Email Subscription',
		name: 'email_subscribe',
		type: 'options',
		options: [
			{ name: 'Opted In', value: 'opted_in' },
			{ name: 'Subscribed', value: 'subscribed' },
			{ name: 'Unsubscribed', value: 'unsubscribed' },
		],
		default: 'subscribed',
		description:
			"The profile's email subscription, for all email. For one list (a newsletter), use the Subscription node's Unsubscribe instead.",
	},
	{
		displayName: 'Subscription Groups',
		name: 'subscription_groups',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Subscription Group',
		default: {},
		options: [
			{
				displayName: 'Group',
				name: 'groups',
				values: [
					{
						displayName: 'Subscription Group ID',
						name: 'subscription_group_id',
						type: 'string',
						default: '',
						placeholder: 'e.g. 7f2c9a4e-5b1d-4c8e-9a3f-1d2b3c4e5f60',
						// Help text only. The spec does not show the dashboard: Audience → Subscriptions is where the
						// well-known engagement platforms keep their subscription groups and IDs.
						hint: 'In the dashboard: Audience → Subscriptions, open the group and copy its Subscription Group ID',
						builderHint: {
							propertyHint:
								"The subscription group's ID (a UUID) from the dashboard, Audience → Subscriptions. Never invent one: if the user has not given it, use a placeholder for them to fill in.",
						},
					},
					{
						displayName: 'State',
						name: 'subscription_state',
						type: 'options',
						options: [
							{ name: 'Subscribed', value: 'subscribed' },
							{ name: 'Unsubscribed', value: 'unsubscribed' },
						],
						default: 'subscribed',
					},
				],
			},
		],
	},
	updateExistingOnlyField(
		'Whether to update only profiles that exist already. Off with a user alias creates an alias-only profile; when this field is not added, an unknown alias is not created.',
	),
]);

const USER = trackUser('attributes');
// The standard attributes' mapper first, then the custom attributes' typed list.
const ATTRIBUTES = namedValues(
	{
		name: 'attributes',
		displayName: 'Attributes',
		noun: 'Attribute',
		example: '{"first_name": "Ada", "plan": "gold"}',
		fieldsDisplayName: 'Custom Attributes',
		answerShowsSent: true,
	},
	standardAttributes,
);
const ADDITIONAL = collection(additionalFields);

export const description: INodeProperties[] = [...USER.properties, ...ATTRIBUTES.properties, ...ADDITIONAL.properties];

export const operation = usersTrackOperation(
	(item) => {
		// Every problem of the item is listed: the identifier's are kept while its attributes are read.
		const user = item.kept(() => USER.read(item));
		const attributes = ATTRIBUTES.read(item);
		const additional = ADDITIONAL.read(item);
		const groupsValue = additional.subscription_groups as { groups?: unknown[] } | undefined;
		const groups = (groupsValue?.groups ?? []) as unknown[];
		const object = parseOrThrow(
			trackAttributes,
			{
				...attributes,
				...(additional.email_subscribe !== undefined && { email_subscribe: additional.email_subscribe }),
				...(groups.length > 0 && { subscription_groups: groups }),
				...(additional._update_existing_only !== undefined && {
					_update_existing_only: additional._update_existing_only,
				}),
			},
			ATTRIBUTES.label,
			{},
			item.problems,
		);
		if (Object.keys(object).every((key) => key === '_update_existing_only')) {
			// With Map Automatically, the columns the item had and why none was sent.
			const columns = columnsNotSent(item);
			throw ATTRIBUTES.problem(
				columns ? `has nothing to update: of this item's columns, ${columns}` : 'has nothing to update',
				columns
					? 'Name a column as a standard attribute (e.g. First Name or first_name), add custom attributes under Custom Attributes, or switch Mapping Column Mode to Map Each Column Below and map the columns to standard attributes.'
					: 'Add at least one attribute, an email subscription or a subscription group.',
			);
		}
		// Without a user the item had a problem, and the schema's reading above refused it.
		return user ? [trackPiece(item.itemIndex, 'attributes', user, object)] : [];
	},
	{ stateSlots: ATTRIBUTES_SET_STATE, sendsEvents: false, successStatus: { word: UPDATED } },
);
