import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ItemInputError } from '../../shared/engine/read/itemInputError';
import type { ItemReader } from '../../shared/engine/read/readItems';
import { keyValueOrJsonFields, readKeyValueOrJson } from '../../shared/fields/bodyFields';
import { prioritizationField, readPrioritization } from '../../shared/fields/prioritization';
import type { z } from 'zod/v4';

import { AUDIENCE_EXAMPLE, connectedAudience } from '../../shared/schemas/audience';
import type { IdentifierKind } from '../../shared/fields/userIdentifier';
import { identifierKindOf, readUserIdentifier, userIdentifierFields } from '../../shared/fields/userIdentifier';
import type { UserAlias, UserIdentifier } from '../../shared/schemas/identifiers';
import { parseOrThrow } from '../../shared/schemas/parse';
import { trackAttributes } from '../../shared/schemas/trackObjects';

/** Campaign and canvas triggers name a recipient by external user ID, alias or (early access) email. */
const TRIGGER_RECIPIENT_KINDS: readonly IdentifierKind[] = ['external_id', 'user_alias', 'email'];

export type MessagingRecipient = { external_user_id: string } | { user_alias: UserAlias } | { email: string };

/** A user identifier as the messaging endpoints name it: `external_user_id`, `user_alias` or `email`. */
export function recipientOf(identifier: UserIdentifier): MessagingRecipient {
	if ('external_id' in identifier) return { external_user_id: identifier.external_id };
	if ('user_alias' in identifier) return { user_alias: identifier.user_alias };
	if ('email' in identifier) return { email: identifier.email };
	// readUserIdentifier refuses the kinds an operation does not list, and no messaging operation lists this one.
	throw new Error(`messaging endpoints name no user by ${identifierKindOf(identifier)}`);
}

/** Who receives a campaign or canvas trigger: each item's recipient, or a broadcast. */

export function recipientFields(propertiesLabel: string): INodeProperties[] {
	const perRecipient = { sendTo: ['recipients'] };
	const by = (kind: IdentifierKind) => ({ show: { ...perRecipient, identifyBy: [kind] } });
	return [
		{
			displayName: 'Send To',
			name: 'sendTo',
			type: 'options',
			options: [
				{ name: 'The User of Each Item', value: 'recipients', description: 'Up to 50 items share one request' },
				{
					name: 'Everyone Targeted (Broadcast)',
					value: 'broadcast',
					description: 'Each item triggers one broadcast to the targeted segment',
				},
			],
			default: 'recipients',
			builderHint: {
				propertyHint:
					'Keep recipients to send to the user of each input item. Pick broadcast only when the user asks for one: each item then sends the campaign or canvas to its whole targeted segment.',
			},
		},
		...userIdentifierFields(TRIGGER_RECIPIENT_KINDS, { show: perRecipient }),
		prioritizationField(
			by('email'),
			'identifiedThenRecent',
			'Which profile with this email receives the message when several have it',
		),
		...keyValueOrJsonFields({
			name: 'recipientProperties',
			displayName: propertiesLabel,
			noun: 'Property',
			show: perRecipient,
			example: '{"first_order": true}',
		}),
		...keyValueOrJsonFields({
			name: 'recipientAttributes',
			displayName: 'Recipient Attributes',
			noun: 'Attribute',
			show: perRecipient,
			example: '{"plan": "gold"}',
		}),
		{
			displayName: 'Send to Existing Users Only',
			name: 'sendToExistingOnly',
			type: 'boolean',
			default: true,
			description:
				'Whether to send only to users who exist already. Off creates an unknown user from the Recipient Attributes first (they are required then); not possible with a user alias.',
			displayOptions: { show: perRecipient },
			builderHint: {
				propertyHint:
					'Keep on to message only users who exist already. Turn off only to create unknown users from Recipient Attributes (then required), which a user alias cannot do.',
			},
		},
	];
}

/** The item's recipient object, checked against the spec's recipient rules; undefined for a broadcast. */
export function readRecipient(
	item: ItemReader,
	propertiesKey: string,
	propertiesLabel: string,
): { recipient?: IDataObject; subject: IDataObject } {
	if (item.raw('sendTo', 'recipients') === 'broadcast') return { subject: { broadcast: true } };
	const identifier = readUserIdentifier(item, TRIGGER_RECIPIENT_KINDS);
	const kind = identifierKindOf(identifier);
	const recipient: IDataObject = { ...recipientOf(identifier) };
	if (kind === 'email') recipient.prioritization = readPrioritization(item, 'identifiedThenRecent');
	const subject = { ...recipient };
	delete subject.prioritization;

	const properties = readKeyValueOrJson(item, 'recipientProperties', propertiesLabel);
	if (properties) recipient[propertiesKey] = properties;
	const attributes = readKeyValueOrJson(item, 'recipientAttributes', 'Recipient Attributes');
	if (attributes)
		recipient.attributes = parseOrThrow(trackAttributes, attributes, 'Recipient Attributes') as IDataObject;
	if (!item.boolean('sendToExistingOnly', true)) {
		if (kind === 'user_alias') {
			throw new ItemInputError(
				'Send to Existing Users Only',
				'cannot be off for a user alias',
				'Turn it on, or address the user by external user ID.',
			);
		}
		if (!attributes) {
			throw new ItemInputError(
				'Recipient Attributes',
				'are required when Send to Existing Users Only is off',
				'Add the attributes the new user is created with.',
			);
		}
		recipient.send_to_existing_only = false;
	}
	return { recipient, subject };
}

/** An optional connected audience given as JSON. */
export const audienceField = (): INodeProperties => ({
	displayName: 'Audience (JSON)',
	name: 'audienceJson',
	type: 'json',
	default: '{}',
	hint: `Only users in this audience receive it; {} for no audience filter. E.g. ${AUDIENCE_EXAMPLE}`,
});

export function readAudience(item: ItemReader): IDataObject | undefined {
	const audience = item.jsonObject('audienceJson');
	return audience && Object.keys(audience).length > 0
		? (parseOrThrow(connectedAudience as z.ZodType<unknown>, audience, 'Audience') as IDataObject)
		: undefined;
}
