import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Piece, PieceOutcome, PlannedRequest, RequestShape } from '../../shared/engine';
import { declareOperation } from '../../shared/engine';
import type { IdentifierKind } from '../../shared/descriptions/userIdentifierFields';
import { givenOrDefault, user, yesNo } from '../../shared/fields/inputs';
import { operationOption } from '../shared/userInputs';
import type { UserAlias } from '../../shared/schemas/identifiers';

/**
 * The spec: "up to 50 external_ids or user_aliases", read as 50 of the two together (the reading no
 * platform refuses), and "one each of device_id, email_address, phone".
 */
const IDS_AND_ALIASES = 50;
const ONE_OF_EACH = 1;

export const option: INodePropertyOptions = {
	name: 'Export by Identifier',
	value: 'export',
	action: 'Export users by identifier',
	description: 'Get user profiles by external ID, alias, email, phone, device ID or service ID',
	builderHint: {
		propertyHint:
			'Pick to read user profiles, one identifier per input item (external ID, alias, email, phone, device ID or service ID); Simplify, on by default, gives the most used fields, the same for every user.',
	},
};

/** The fields of the spec's user export object. */
const EXPORT_FIELDS = [
	'apps',
	'attributed_ad',
	'attributed_adgroup',
	'attributed_campaign',
	'attributed_source',
	'campaigns_received',
	'canvases_received',
	'cards_clicked',
	'country',
	'created_at',
	'custom_attributes',
	'custom_events',
	'devices',
	'dob',
	'email',
	'email_subscribe',
	'external_id',
	'first_name',
	'gender',
	'home_city',
	'language',
	'last_coordinates',
	'last_name',
	'phone',
	'purchases',
	'push_opted_in_at',
	'push_subscribe',
	'push_tokens',
	'random_bucket',
	'service_id',
	'time_zone',
	'total_revenue',
	'user_aliases',
];
const ALL_FIELDS = '__all__';
const DEFAULT_FIELDS = [
	'external_id',
	'user_aliases',
	'service_id',
	'created_at',
	'first_name',
	'last_name',
	'email',
	'phone',
	'country',
	'language',
	'time_zone',
	'email_subscribe',
	'push_subscribe',
	'custom_attributes',
	'custom_events',
	'purchases',
];
/** Always exported: they pair each returned user with the item that asked for it. */
const PAIRING_FIELDS = ['external_id', 'user_aliases'];
/**
 * Simplify's profile (the default): the fields most workflows read, in this order, each one
 * present so that a sheet or CRM node downstream sees the same columns for every user. The spec says a
 * field missing from a profile means null, false or empty; it comes out as null.
 */
export const SIMPLE_FIELDS = [
	'external_id',
	'user_aliases',
	'email',
	'phone',
	'first_name',
	'last_name',
	'country',
	'language',
	'time_zone',
	'email_subscribe',
	'push_subscribe',
	'created_at',
	'custom_attributes',
];

/** external_ids and user_aliases pack 50 to a request, together; the other identifiers go one per request. */
const SLOT_OF: Record<IdentifierKind, string> = {
	external_id: 'external_ids',
	user_alias: 'user_aliases',
	email: 'email_address',
	phone: 'phone',
	device_id: 'device_id',
	service_id: 'service_id',
};
const BATCHED_SLOTS: ReadonlySet<string> = new Set(['external_ids', 'user_aliases']);

/** What the items of one request share: the fields asked for, the output's form and the drop option; a one-per-request identifier's item. */
interface ExportGroup {
	fields: string[];
	simplify: boolean;
	dropNotFound: boolean;
	ownRequestOf?: number;
}
type ExportValue = string | UserAlias;

const EXPORT_SHAPE: RequestShape<ExportGroup, ExportValue> = {
	slots: {
		external_ids: { form: 'list', field: 'external_ids', max: IDS_AND_ALIASES },
		user_aliases: { form: 'list', field: 'user_aliases', max: IDS_AND_ALIASES },
		email_address: { form: 'value', field: 'email_address', max: ONE_OF_EACH },
		phone: { form: 'value', field: 'phone', max: ONE_OF_EACH },
		device_id: { form: 'value', field: 'device_id', max: ONE_OF_EACH },
		service_id: { form: 'value', field: 'service_id', max: ONE_OF_EACH },
	},
	total: IDS_AND_ALIASES,
	batch: 'external IDs and user aliases',
	groupKey: (group) => `${group.fields.join(',')} ${group.simplify} ${group.dropNotFound} ${group.ownRequestOf ?? ''}`,
	groupBody: (group) => ({ fields_to_export: group.fields }),
};

const USER = user(['external_id', 'user_alias', 'email', 'phone', 'device_id', 'service_id']);
const SIMPLIFY = yesNo({
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	builderHint: {
		propertyHint:
			'Leave on to get each user as the same flat set of fields (for a sheet or CRM node after it); turn off only to pick other fields in Fields to Export.',
	},
	description: `Whether to return each user's most used fields (${SIMPLE_FIELDS.join(', ')}), every one present, null where the profile has none, instead of the raw profile with the fields you choose`,
});
const fieldsToExport: INodeProperties = {
	displayName: 'Fields to Export',
	name: 'fieldsToExport',
	type: 'multiOptions',
	options: [
		{ name: 'All Fields', value: ALL_FIELDS },
		...EXPORT_FIELDS.map((field) => ({ name: field, value: field })),
	],
	default: [...DEFAULT_FIELDS],
	description:
		'Which profile fields to return. Fewer fields answer faster. External ID and user aliases always come back, to pair users with items. A field missing from a profile means null, false or empty.',
};
// Shown with Simplify off, which picks the fields itself.
const FIELDS_TO_EXPORT = givenOrDefault<string[]>({
	...fieldsToExport,
	displayOptions: { show: { [SIMPLIFY.name]: [false] } },
});
const DROP_NOT_FOUND = operationOption({
	displayName: 'Drop Users Not Found',
	name: 'dropNotFound',
	type: 'boolean',
	default: true,
	description:
		'Whether to output nothing for an identifier that matches no user, instead of an item with status "not_found"',
});

export const description: INodeProperties[] = [
	...USER.properties,
	...SIMPLIFY.properties,
	...FIELDS_TO_EXPORT.properties,
];

export const operation = declareOperation<ExportGroup, ExportValue>({
	endpoint: {
		method: 'POST',
		path: '/users/export/ids',
		rateLimit: 'users.export.ids',
		permission: 'users.export.ids',
		credentialType: 'engagementPlatformApi',
		// Spec: the answer's `message` is success when the request succeeded.
		successSaysSo: true,
	},
	shape: EXPORT_SHAPE,
	options: { fields: DROP_NOT_FOUND.properties },
	readItem(item) {
		const { kind, identifier } = USER.read(item);
		const value = Object.values(identifier)[0] as ExportValue;
		// Read as a yes/no field reads it: a sheet's "true" / "false" too.
		const simplify = SIMPLIFY.read(item);
		const chosen = simplify ? SIMPLE_FIELDS : FIELDS_TO_EXPORT.read(item);
		if (!Array.isArray(chosen) || chosen.length === 0) {
			throw FIELDS_TO_EXPORT.problem('is empty', 'Pick at least one field, or "All Fields".');
		}
		const fields = chosen.includes(ALL_FIELDS) ? EXPORT_FIELDS : [...new Set([...PAIRING_FIELDS, ...chosen])].sort();
		const slot = SLOT_OF[kind];
		// Items asking for the same fields share requests; a one-per-request identifier gets its own group,
		// since every user its answer returns is that item's.
		const group: ExportGroup = {
			fields,
			simplify,
			dropNotFound: DROP_NOT_FOUND.read(item) === true,
			ownRequestOf: BATCHED_SLOTS.has(slot) ? undefined : item.itemIndex,
		};
		return [{ itemIndex: item.itemIndex, slot, group, payload: value, subject: identifier as IDataObject }];
	},
	isSafeToResend: () => true,
	readResponse: pairUsersWithPieces,
	answersWithRecords: true,
	successStatus: { none: true },
	itemResult(_, [{ piece, outcome }]) {
		const users = (outcome.ok && (outcome.data?.users as IDataObject[] | undefined)) || [];
		if (users.length > 0) return piece.group.simplify ? users.map(simplified) : users;
		return piece.group.dropNotFound ? [] : [{ status: 'not_found', ...piece.subject }];
	},
});

type ExportPiece = Piece<ExportGroup, ExportValue>;

function simplified(user: IDataObject): IDataObject {
	const simple: IDataObject = {};
	for (const field of SIMPLE_FIELDS) simple[field] = user[field] ?? null;
	return simple;
}

/**
 * Gives each piece the exported users that answer it: by external ID or alias for batched
 * identifiers, every returned user for a one-per-request identifier (an email may be shared).
 * A requested external ID that matched no user directly and is not in invalid_user_ids was found
 * under its primary ID (it was a deprecated one): when exactly one such ID and one unclaimed user
 * remain they are paired; otherwise those items get an error asking to export them one by one.
 */
function pairUsersWithPieces(
	response: { body: IDataObject },
	request: PlannedRequest<ExportGroup, ExportValue>,
): Map<ExportPiece, PieceOutcome> {
	const users = (Array.isArray(response.body.users) ? response.body.users : []) as IDataObject[];
	const invalid = new Set((response.body.invalid_user_ids as string[] | undefined) ?? []);
	const outcomes = new Map<ExportPiece, PieceOutcome>();
	const claimed = new Set<IDataObject>();
	const unresolved: ExportPiece[] = [];

	for (const [slot, pieces] of request.slots) {
		for (const piece of pieces) {
			const value = piece.payload;
			const matching = BATCHED_SLOTS.has(slot) ? users.filter((user) => answers(user, slot, value)) : users;
			matching.forEach((user) => claimed.add(user));
			if (matching.length > 0 || !BATCHED_SLOTS.has(slot) || isInvalid(invalid, value)) {
				outcomes.set(piece, { ok: true, data: { users: matching } });
			} else {
				unresolved.push(piece);
			}
		}
	}
	const unclaimed = users.filter((user) => !claimed.has(user));
	for (const piece of unresolved) {
		if (unresolved.length === 1 && unclaimed.length === 1) {
			outcomes.set(piece, {
				ok: true,
				data: { users: unclaimed },
				warnings: ['Found under another external ID: the one given may be deprecated'],
			});
		} else {
			outcomes.set(piece, {
				ok: false,
				error: {
					message:
						'The platform found this user under another external ID, and the answer cannot tell which item it belongs to',
					description:
						'The external ID given is probably a deprecated one. Export these items one at a time (for example through Loop Over Items with a batch size of 1) to pair each with its user.',
					delivery: 'not_applied',
				},
			});
		}
	}
	return outcomes;
}

function answers(user: IDataObject, slot: string, value: ExportValue): boolean {
	if (slot === 'external_ids') return user.external_id === value;
	const alias = value as UserAlias;
	return ((user.user_aliases as UserAlias[] | undefined) ?? []).some(
		(candidate) => candidate.alias_name === alias.alias_name && candidate.alias_label === alias.alias_label,
	);
}

/** invalid_user_ids names external IDs as given and aliases by their alias_name. */
function isInvalid(invalid: Set<string>, value: ExportValue): boolean {
	return invalid.has(typeof value === 'string' ? value : value.alias_name);
}
