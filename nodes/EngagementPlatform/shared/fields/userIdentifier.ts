import { ItemInputError } from '../engine/read/itemInputError';
import type { ItemReader } from '../engine/read/readItems';
import type { UserIdentifier } from '../schemas/identifiers';
import { EMAIL, isPlaceholderId } from '../schemas/identifiers';
import { readPhone } from '../schemas/codedValues';
import type { IdentifierKind, IdentifyByLabel } from '../descriptions/userIdentifierFields';
import {
	IDENTIFIER_FIELD_LABELS as FIELD_LABELS,
	IDENTIFIER_LABELS,
	IDENTIFY_USER_BY,
	identifierLabels,
	isIdentifierKind,
} from '../descriptions/userIdentifierFields';
import { requiredTextValue } from '../schemas/textValues';

/** The item's user: the way it is identified and the identifier, read once. */
export interface ItemUser {
	kind: IdentifierKind;
	identifier: UserIdentifier;
}

/**
 * The identifier the item chose, checked per the spec, with its kind (`kind` when the caller read it
 * already); with `kinds`, a kind outside them is refused naming the ones the operation takes.
 */
export function readUser(
	item: ItemReader,
	{
		kinds,
		label = IDENTIFY_USER_BY,
		kind = item.raw('identifyBy', kinds?.[0] ?? 'external_id') as IdentifierKind,
	}: { kinds?: readonly IdentifierKind[]; label?: IdentifyByLabel; kind?: IdentifierKind } = {},
): ItemUser {
	return { kind, identifier: identifierOfKind(item, kind, kinds, label) };
}

function identifierOfKind(
	item: ItemReader,
	kind: IdentifierKind,
	kinds: readonly IdentifierKind[] | undefined,
	label: IdentifyByLabel,
): UserIdentifier {
	if (kinds && isIdentifierKind(kind) && !kinds.includes(kind)) {
		throw new ItemInputError(
			label.displayName,
			`is ${IDENTIFIER_LABELS[kind]}, but this operation takes only ${identifierLabels(kinds)}`,
			'Pick one of the listed options.',
		);
	}
	switch (kind) {
		case 'external_id':
			return { external_id: externalIdValue(item.raw('externalId', ''), FIELD_LABELS.externalId) };
		case 'user_alias':
			return {
				user_alias: {
					alias_name: requiredTextValue(item.raw('aliasName', ''), FIELD_LABELS.aliasName),
					alias_label: requiredTextValue(item.raw('aliasLabel', ''), FIELD_LABELS.aliasLabel),
				},
			};
		case 'email': {
			const email = requiredTextValue(item.raw('email', ''), FIELD_LABELS.email);
			if (!EMAIL.test(email))
				throw new ItemInputError(
					FIELD_LABELS.email,
					`"${email}" is not an email address`,
					'Map an address such as name@example.com.',
				);
			return { email };
		}
		case 'phone': {
			const read = readPhone(requiredTextValue(item.raw('phone', ''), FIELD_LABELS.phone), item.mappedFrom('phone'));
			if ('problem' in read) throw new ItemInputError(FIELD_LABELS.phone, read.problem.rule, read.problem.fix);
			return { phone: read.code };
		}
		case 'service_id':
			return { service_id: requiredTextValue(item.raw('serviceId', ''), FIELD_LABELS.serviceId) };
		case 'device_id':
			return { device_id: requiredTextValue(item.raw('deviceId', ''), FIELD_LABELS.deviceId) };
		default:
			throw new ItemInputError(
				label.displayName,
				`"${String(kind)}" is not a way to identify a user`,
				'Pick one of the listed options.',
			);
	}
}

/** An external ID that names a real user: text, and not a placeholder the platform refuses as a dummy user. */
export function externalIdValue(value: unknown, label: string): string {
	const externalId = requiredTextValue(value, label);
	if (isPlaceholderId(externalId)) {
		throw new ItemInputError(
			label,
			`is "${externalId}", a placeholder the platform refuses as a dummy user`,
			"Map the field that holds the user's ID, and check that every item has one.",
		);
	}
	return externalId;
}
