import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

export type IdentifierKind = 'external_id' | 'user_alias' | 'email' | 'phone' | 'service_id' | 'device_id';

export const IDENTIFIER_LABELS: Record<IdentifierKind, string> = {
	external_id: 'External ID',
	user_alias: 'User Alias',
	email: 'Email',
	phone: 'Phone',
	service_id: 'Service ID',
	device_id: 'Device ID',
};

/** The ways an event object accepts (the widest of /users/track); export also takes a device ID. */
const TRACK_KINDS: readonly IdentifierKind[] = ['external_id', 'user_alias', 'email', 'phone', 'service_id'];

export function isIdentifierKind(value: unknown): value is IdentifierKind {
	return typeof value === 'string' && Object.hasOwn(IDENTIFIER_LABELS, value);
}

/** "External ID, User Alias or Email". */
export function identifierLabels(kinds: readonly IdentifierKind[]): string {
	const labels = kinds.map((kind) => IDENTIFIER_LABELS[kind]);
	return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}` : labels[0];
}

/** The field(s) of each way of identifying a user. */
const FIELDS_BY_KIND: Record<IdentifierKind, INodeProperties[]> = {
	external_id: [
		{
			displayName: 'External ID',
			name: 'externalId',
			builderHint: {
				propertyHint:
					"The user's ID in your own system (for example the CRM contact ID), mapped from each input item. Stand-in values such as test, null, unknown or 0 are refused as dummy users.",
			},
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. user-1234',
			hint: 'Your own ID for the user, for example the CRM contact ID',
		},
	],
	user_alias: [
		{
			displayName: 'Alias Name',
			name: 'aliasName',
			builderHint: {
				propertyHint:
					"The user's ID under the alias label (for example a Shopify customer ID), mapped from each input item; it goes together with Alias Label.",
			},
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 9f8e7d',
		},
		{
			displayName: 'Alias Label',
			name: 'aliasLabel',
			builderHint: {
				propertyHint:
					'The name of the ID system the alias comes from, the same for every user of that source (for example shopify_customer_id), usually fixed text.',
			},
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. shopify_customer_id',
		},
	],
	email: [
		{
			displayName: 'Email',
			name: 'email',
			builderHint: {
				propertyHint:
					"The user's email address, mapped from each input item; an item whose value is not an email address fails.",
			},
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. name@example.com',
		},
	],
	phone: [
		{
			displayName: 'Phone',
			name: 'phone',
			builderHint: {
				propertyHint:
					"The user's phone number in E.164 form, a plus sign, the country code and the number (for example +14155552671), mapped from each input item; spaces, dashes and brackets are removed before it is checked.",
			},
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. +14155552671',
			hint: 'In E.164 format: a plus sign, the country code and the number',
		},
	],
	device_id: [
		{
			displayName: 'Device ID',
			name: 'deviceId',
			type: 'string',
			default: '',
			required: true,
			description: 'The device ID an SDK reports for the device',
		},
	],
	service_id: [
		{
			displayName: 'Service ID',
			name: 'serviceId',
			type: 'string',
			default: '',
			required: true,
			description: "The platform's own ID of the user",
		},
	],
};

/** Each identifier field's label, by parameter name (`aliasName` → "Alias Name"), as its property shows it. */
export const IDENTIFIER_FIELD_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
	Object.values(FIELDS_BY_KIND).flatMap((fields) => fields.map((field) => [field.name, field.displayName])),
);

/** How the choice reads where "the item's user" needs a word of its own (the anonymous profile of Identify). */
export interface IdentifyByLabel {
	displayName: string;
	description: string;
}

export const IDENTIFY_USER_BY: IdentifyByLabel = {
	displayName: 'Identify User By',
	description: 'How the platform finds the user profile',
};

/**
 * "Identify User By" (`identifyBy`) and the field(s) of each way, shown under `show`: the one
 * parameter every node uses for an item's user, with the IdentifierKind values. The first kind
 * listed is the default.
 */
export function userIdentifierFields(
	kinds: readonly IdentifierKind[] = TRACK_KINDS,
	{
		label = IDENTIFY_USER_BY,
		show = {},
	}: {
		label?: IdentifyByLabel;
		/** Conditions beyond the operation's (which the node adds to every field). */
		show?: IDisplayOptions['show'];
	} = {},
): INodeProperties[] {
	const choice: INodeProperties = {
		displayName: label.displayName,
		name: 'identifyBy',
		type: 'options',
		options: kinds.map((kind) => ({ name: IDENTIFIER_LABELS[kind], value: kind })),
		default: 'external_id',
		displayOptions: { show },
		description: label.description,
		builderHint: {
			propertyHint:
				"Pick the kind of identifier the input items carry, preferring external_id (the user's ID in your own system) where it is offered; the kinds listed are the ones this operation accepts.",
		},
	};
	return [
		// The default is the first kind listed; the literal above is for n8n's linter, which cannot read it.
		{ ...choice, default: kinds[0] },
		...kinds.flatMap((kind) =>
			FIELDS_BY_KIND[kind].map((field) => ({ ...field, displayOptions: { show: { ...show, identifyBy: [kind] } } })),
		),
	];
}
