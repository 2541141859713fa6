import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { ItemInputError } from '../shared/engine/itemInputError';
import type { ItemReader } from '../shared/engine/itemReader';
import { keyValueOrJsonFields, readKeyValueOrJson } from '../shared/fields/keyValueOrJson';
import { prioritizationField, readPrioritization } from '../shared/fields/prioritization';
import type { z } from 'zod/v4';

import { AUDIENCE_EXAMPLE, connectedAudience } from '../shared/schemas/audience';
import { EMAIL } from '../shared/schemas/identifiers';
import { parseOrThrow } from '../shared/schemas/parse';
import { trackAttributes } from '../shared/schemas/trackObjects';

/** Who receives a campaign or canvas trigger: each item's recipient, or a broadcast. */

export function recipientFields(show: IDisplayOptions['show'], propertiesLabel: string): INodeProperties[] {
	const perRecipient = { ...show, sendTo: ['recipients'] };
	const by = (kind: string) => ({ show: { ...perRecipient, recipientBy: [kind] } });
	return [
		{
			displayName: 'Send To',
			name: 'sendTo',
			type: 'options',
			options: [
				{ name: 'The User of Each Item', value: 'recipients', description: 'Up to 50 items share one request' },
				{ name: 'Everyone Targeted (Broadcast)', value: 'broadcast', description: 'Each item triggers one broadcast to the targeted segment' },
			],
			default: 'recipients',
			displayOptions: { show },
		},
		{
			displayName: 'Recipient By',
			name: 'recipientBy',
			type: 'options',
			options: [
				{ name: 'External User ID', value: 'external_user_id' },
				{ name: 'User Alias', value: 'user_alias' },
				{ name: 'Email (Early Access)', value: 'email' },
			],
			default: 'external_user_id',
			displayOptions: { show: perRecipient },
		},
		{ displayName: 'External User ID', name: 'externalUserId', type: 'string', default: '', required: true, displayOptions: by('external_user_id') },
		{ displayName: 'Alias Name', name: 'aliasName', type: 'string', default: '', required: true, displayOptions: by('user_alias') },
		{ displayName: 'Alias Label', name: 'aliasLabel', type: 'string', default: '', required: true, displayOptions: by('user_alias') },
		{ displayName: 'Email', name: 'email', type: 'string', default: '', required: true, placeholder: 'e.g. name@example.com', displayOptions: by('email') },
		prioritizationField(by('email'), 'identifiedThenRecent', 'Which profile with this email receives the message when several have it'),
		...keyValueOrJsonFields({ name: 'recipientProperties', displayName: propertiesLabel, noun: 'Property', show: perRecipient, example: '{"first_order": true}' }),
		...keyValueOrJsonFields({ name: 'recipientAttributes', displayName: 'Recipient Attributes', noun: 'Attribute', show: perRecipient, example: '{"plan": "gold"}' }),
		{
			displayName: 'Send to Existing Users Only',
			name: 'sendToExistingOnly',
			type: 'boolean',
			default: true,
			description:
				'Whether to send only to users who exist already. Off creates an unknown user from the Recipient Attributes first (they are required then); not possible with a user alias.',
			displayOptions: { show: perRecipient },
		},
	];
}

/** The item's recipient object, checked against the spec's recipient rules; undefined for a broadcast. */
export function readRecipient(item: ItemReader, propertiesKey: string, propertiesLabel: string): { recipient?: IDataObject; subject: IDataObject } {
	if (item.raw('sendTo', 'recipients') === 'broadcast') return { subject: { broadcast: true } };
	const kind = item.raw('recipientBy', 'external_user_id') as string;
	const recipient: IDataObject = {};
	if (kind === 'user_alias') {
		recipient.user_alias = { alias_name: item.string('aliasName', 'Alias Name'), alias_label: item.string('aliasLabel', 'Alias Label') };
	} else if (kind === 'email') {
		const email = item.string('email', 'Email');
		if (!EMAIL.test(email)) throw new ItemInputError('Email', `"${email}" is not an email address`, 'Map an address such as name@example.com.');
		recipient.email = email;
		recipient.prioritization = readPrioritization(item, 'identifiedThenRecent');
	} else {
		recipient.external_user_id = item.string('externalUserId', 'External User ID');
	}
	const subject = { ...recipient };
	delete subject.prioritization;

	const properties = readKeyValueOrJson(item, 'recipientProperties', propertiesLabel);
	if (properties) recipient[propertiesKey] = properties;
	const attributes = readKeyValueOrJson(item, 'recipientAttributes', 'Recipient Attributes');
	if (attributes) recipient.attributes = parseOrThrow(trackAttributes, attributes, 'Recipient Attributes') as IDataObject;
	if (!item.boolean('sendToExistingOnly', true)) {
		if (kind === 'user_alias') {
			throw new ItemInputError('Send to Existing Users Only', 'cannot be off for a user alias', 'Turn it on, or address the user by external user ID.');
		}
		if (!attributes) {
			throw new ItemInputError('Recipient Attributes', 'are required when Send to Existing Users Only is off', 'Add the attributes the new user is created with.');
		}
		recipient.send_to_existing_only = false;
	}
	return { recipient, subject };
}

/** An optional connected audience given as JSON. */
export const audienceField = (show: IDisplayOptions['show']): INodeProperties => ({
	displayName: 'Audience (JSON)',
	name: 'audienceJson',
	type: 'json',
	default: '{}',
	hint: `Only users in this audience receive it; {} for no audience filter. E.g. ${AUDIENCE_EXAMPLE}`,
	displayOptions: { show },
});

export function readAudience(item: ItemReader): IDataObject | undefined {
	const audience = item.jsonObject('audienceJson', 'Audience');
	return audience && Object.keys(audience).length > 0 ? (parseOrThrow(connectedAudience as z.ZodType<unknown>, audience, 'Audience') as IDataObject) : undefined;
}
