import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemReader } from '../../shared/engine';
import type { Input } from '../../shared/fields/inputs';
import { givenOrDefault, inputField, inputOf, user, yesNo } from '../../shared/fields/inputs';
import { prioritizationInput } from '../../shared/fields/prioritization';
import type { z } from 'zod/v4';

import { AUDIENCE_EXAMPLE, connectedAudience } from '../../shared/schemas/audience';
import type { IdentifierKind } from '../../shared/descriptions/userIdentifierFields';
import type { ItemUser } from '../../shared/fields/userIdentifier';
import type { UserAlias } from '../../shared/schemas/identifiers';
import { parseOrThrow } from '../../shared/schemas/parse';
import { trackAttributes } from '../../shared/schemas/trackObjects';
import { namedValues } from '../../shared/fields/namedValues';
import { jsonObjectValue } from '../../shared/schemas/textValues';

/** Campaign and canvas triggers name a recipient by external user ID, alias or (early access) email. */
const TRIGGER_RECIPIENT_KINDS: readonly IdentifierKind[] = ['external_id', 'user_alias', 'email'];

export type MessagingRecipient = { external_user_id: string } | { user_alias: UserAlias } | { email: string };

/** A user as the messaging endpoints name them: `external_user_id`, `user_alias` or `email`. */
export function recipientOf({ kind, identifier }: ItemUser): MessagingRecipient {
	if ('external_id' in identifier) return { external_user_id: identifier.external_id };
	if ('user_alias' in identifier) return { user_alias: identifier.user_alias };
	if ('email' in identifier) return { email: identifier.email };
	// The user's reading refuses the kinds an operation does not list, and no messaging operation lists this one.
	throw new Error(`messaging endpoints name no user by ${kind}`);
}

/** An item's recipient object, checked against the spec's recipient rules; undefined for a broadcast. */
interface ItemRecipient {
	recipient?: IDataObject;
	subject: IDataObject;
}

/** Who receives a campaign or canvas trigger, and its per-recipient properties' input for the operation's own rules. */
export interface RecipientInput extends Input<ItemRecipient> {
	readonly recipientProperties: Input<IDataObject | undefined>;
}

/**
 * Who receives a campaign or canvas trigger: each item's recipient, or a broadcast. The
 * per-recipient properties are named `propertiesLabel` and sent under `propertiesKey`.
 */
export function recipientInput(propertiesLabel: string, propertiesKey: string): RecipientInput {
	const fields = recipientFields(propertiesLabel);
	const { SEND_TO, USER, PRIORITIZATION, PROPERTIES, ATTRIBUTES, EXISTING_ONLY } = fields;
	const properties = [
		...SEND_TO.properties,
		...USER.properties,
		...PRIORITIZATION.properties,
		...PROPERTIES.properties,
		...ATTRIBUTES.properties,
		...EXISTING_ONLY.properties,
	];
	const read = (item: ItemReader): ItemRecipient => readRecipient(fields, propertiesKey, item);
	return { ...inputOf(SEND_TO.name, SEND_TO.label, properties, read), recipientProperties: PROPERTIES };
}

/** The inputs of a trigger's recipient, in the panel's order. */
interface RecipientFields {
	SEND_TO: Input<string>;
	USER: Input<ItemUser>;
	PRIORITIZATION: Input<string[]>;
	PROPERTIES: Input<IDataObject | undefined>;
	ATTRIBUTES: Input<IDataObject | undefined>;
	EXISTING_ONLY: Input<boolean>;
}

/** Send To, then the fields shown when sending to the user of each item. */
function recipientFields(propertiesLabel: string): RecipientFields {
	const perRecipient = { sendTo: ['recipients'] };
	const by = (kind: IdentifierKind) => ({ show: { ...perRecipient, identifyBy: [kind] } });
	return {
		SEND_TO: sendToInput(),
		USER: user(TRIGGER_RECIPIENT_KINDS, { show: perRecipient }),
		PRIORITIZATION: prioritizationInput(
			by('email'),
			'identifiedThenRecent',
			'Which profile with this email receives the message when several have it',
		),
		PROPERTIES: namedValues({
			name: 'recipientProperties',
			displayName: propertiesLabel,
			noun: 'Property',
			show: perRecipient,
			example: '{"first_order": true}',
		}),
		ATTRIBUTES: namedValues({
			name: 'recipientAttributes',
			displayName: 'Recipient Attributes',
			noun: 'Attribute',
			show: perRecipient,
			example: '{"plan": "gold"}',
		}),
		EXISTING_ONLY: existingOnlyInput(perRecipient),
	};
}

/** Each item's user, or a broadcast to the targeted segment. */
function sendToInput(): Input<string> {
	const sendTo = {
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
	} satisfies INodeProperties;
	// Read with its default where the item has none, as the panel shows it.
	return givenOrDefault<string>(sendTo);
}

/** Off, an unknown user is created from the Recipient Attributes first. */
function existingOnlyInput(perRecipient: { sendTo: string[] }): Input<boolean> {
	return yesNo({
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
	});
}

/** An item's recipient object, and the subject its answer names (the recipient without its prioritization). */
function readRecipient(fields: RecipientFields, propertiesKey: string, item: ItemReader): ItemRecipient {
	const { SEND_TO, USER, PRIORITIZATION, PROPERTIES, ATTRIBUTES, EXISTING_ONLY } = fields;
	if (SEND_TO.read(item) === 'broadcast') return { subject: { broadcast: true } };
	const recipientUser = USER.read(item);
	const recipient: IDataObject = { ...recipientOf(recipientUser) };
	if (recipientUser.kind === 'email') recipient.prioritization = PRIORITIZATION.read(item);
	const subject = { ...recipient };
	delete subject.prioritization;

	const given = PROPERTIES.read(item);
	if (given) recipient[propertiesKey] = given;
	const attributes = ATTRIBUTES.read(item);
	if (attributes) recipient.attributes = parseOrThrow(trackAttributes, attributes, ATTRIBUTES.label) as IDataObject;
	if (!EXISTING_ONLY.read(item)) {
		if (recipientUser.kind === 'user_alias')
			throw EXISTING_ONLY.problem(
				'cannot be off for a user alias',
				'Turn it on, or address the user by external user ID.',
			);
		if (!attributes) {
			throw ATTRIBUTES.problem(
				`are required when ${EXISTING_ONLY.label} is off`,
				'Add the attributes the new user is created with.',
			);
		}
		recipient.send_to_existing_only = false;
	}
	return { recipient, subject };
}

/** An optional connected audience given as JSON, checked against the spec; {} is none (undefined). */
export const AUDIENCE = inputField(
	{
		displayName: 'Audience (JSON)',
		name: 'audienceJson',
		type: 'json',
		default: '{}',
		hint: `Only users in this audience receive it; {} for no audience filter. E.g. ${AUDIENCE_EXAMPLE}`,
	},
	(value, label): IDataObject | undefined => {
		const audience = jsonObjectValue(value, label);
		return audience && Object.keys(audience).length > 0
			? (parseOrThrow(connectedAudience as z.ZodType<unknown>, audience, label) as IDataObject)
			: undefined;
	},
	'',
);
