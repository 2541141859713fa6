import type { IDataObject } from 'n8n-workflow';

import type {
	ItemReader,
	OperationOptions,
	OperationSpec,
	Piece,
	PieceOutcome,
	PlannedRequest,
	RequestShape,
	RunSettings,
	StatePart,
	SuccessStatus,
} from '../../shared/engine';
import { answerRemaining, canonicalValue, declareOperation, groupStateKey, groupStateLabel } from '../../shared/engine';
import type { IdentifierKind } from '../../shared/descriptions/userIdentifierFields';
import type { ItemUser } from '../../shared/fields/userIdentifier';
import { identifierLabels, isIdentifierKind } from '../../shared/descriptions/userIdentifierFields';
import { readUser } from '../../shared/fields/userIdentifier';
import { userStateKey } from '../../shared/schemas/identifiers';
import type { Input } from '../../shared/fields/inputs';
import { inputOf, user } from '../../shared/fields/inputs';
import type { BodyFields } from '../../shared/fields/bodyFields';
import type { CheckedSchema } from '../../shared/schemas/parse';
import { parseOrThrow } from '../../shared/schemas/parse';
import type { UserIdentifier } from '../../shared/schemas/identifiers';

/** The spec: "up to 75 event, 75 attribute, 75 purchase objects". */
const MAX_PER_ARRAY = 75;
/** The spec, on the monthly-active-users plan: "up to 50 combined updates per request". */
const MAX_COMBINED = 50;

/** What the update, event and purchase operations share: one endpoint, one way to pack and answer. */

/** An item's `status` when it recorded an event or purchase (trackAnswer). */
export const TRACKED = 'tracked';
/** An item's `status` when it set attributes alone (trackAnswer). */
export const UPDATED = 'updated';

export type TrackSlot = 'attributes' | 'events' | 'purchases';

/** The three arrays of the body, each up to its per-request limit. */
const TRACK_SHAPE: RequestShape = {
	slots: {
		attributes: { form: 'list', field: 'attributes', max: MAX_PER_ARRAY },
		events: { form: 'list', field: 'events', max: MAX_PER_ARRAY },
		purchases: { form: 'list', field: 'purchases', max: MAX_PER_ARRAY },
	},
	batch: 'attribute, event and purchase objects of each kind',
};

const OBJECTS: Readonly<Record<TrackSlot, string>> = {
	attributes: 'attribute objects',
	events: 'event objects',
	purchases: 'purchase objects',
};

/**
 * The identifiers each object takes (spec, Resources): "which ones each operation accepts is
 * stated per endpoint". An event takes any of five; a purchase or attribute object fewer.
 */
const TRACK_IDENTIFIERS: Readonly<Record<TrackSlot, readonly IdentifierKind[]>> = {
	attributes: ['external_id', 'user_alias', 'email', 'phone'],
	events: ['external_id', 'user_alias', 'email', 'phone', 'service_id'],
	purchases: ['external_id', 'user_alias', 'email'],
};

/** The /users/track operations' own Options: how objects are packed and resent. */
const trackOptions = (sendsEvents: boolean): OperationOptions => ({
	fields: [
		{
			displayName: 'At Most 50 Objects per Request',
			name: 'combinedLimit',
			type: 'boolean',
			default: true,
			description:
				'Whether to send at most 50 attribute, event and purchase objects together per request, as the monthly-active-users plan requires',
		},
		// Attribute-only requests are resent either way: the option is shown where events or purchases go.
		...(sendsEvents
			? [
					{
						displayName: 'Resend Events on Server Errors',
						name: 'resendEvents',
						type: 'boolean' as const,
						default: true,
						description:
							'Whether to resend requests holding events or purchases after a server error, timeout or reset. The platform may have stored them already, so this can duplicate events and purchases. Attribute-only requests are resent either way.',
					},
				]
			: []),
	],
	read(options, settings): RunSettings {
		const perSlot = settings.lowered?.perSlot ?? MAX_PER_ARRAY;
		const total = options.combinedLimit === true ? Math.min(MAX_COMBINED, perSlot) : undefined;
		return { ...settings, lowered: { perSlot, total }, resendUnsafe: options.resendEvents === true };
	},
});

/**
 * One object of the request body: the validated object with the user's identifier added, in place: a
 * spread into a third object would be held, per item, until the whole run is answered. So `object`
 * must be one the item's reading made (bodyFields' object, a schema's output, a copy): never a value a
 * field's reading handed over. A field mapped whole (`{{ $json.attributes }}`) hands over the input
 * item's own object, which other nodes read too, and a quick check (CheckedSchema.asIs) gives back
 * the value it was given: the operation copies such an object before it comes here.
 */
export function trackPiece(itemIndex: number, slot: TrackSlot, { identifier }: ItemUser, object: object): Piece {
	return {
		itemIndex,
		slot,
		group: undefined,
		payload: Object.assign(object, identifier) as IDataObject,
		subject: identifier,
	};
}

/** The item's user for /users/track objects. */
export interface TrackUser extends Input<ItemUser> {
	/**
	 * The user, where `slot`'s objects take the kind it is identified by; otherwise the item's problem,
	 * worded with this input's label.
	 */
	takenBy(slot: TrackSlot, itemUser: ItemUser): ItemUser;
}

/**
 * "Identify User By" and the fields of the kinds `slot`'s objects take (userIdentifierFields), read as
 * the kind chosen and the identifier. A kind they do not take (a workflow may hold a kind the field no
 * longer offers) is refused before the identifier is read. Without `slot` (an item of several objects,
 * Track User Data) the field offers what an event takes and any kind is read: each object's slot refuses
 * the kinds it does not take (`takenBy`).
 */
export function trackUser(slot?: TrackSlot): TrackUser {
	const kinds = TRACK_IDENTIFIERS[slot ?? 'events'];
	const offered = user(kinds);
	const takenBy = (objects: TrackSlot, itemUser: ItemUser) => {
		refuseUntakenIdentifier(itemUser.kind, objects, offered);
		return itemUser;
	};
	const read = inputOf(offered.name, offered.label, offered.properties, (item, name) => {
		const kind = item.raw(name, kinds[0]) as IdentifierKind;
		if (slot) refuseUntakenIdentifier(kind, slot, offered);
		return readUser(item, { kind });
	});
	return { ...read, takenBy };
}

function refuseUntakenIdentifier(kind: IdentifierKind, slot: TrackSlot, identifyBy: Input<ItemUser>): void {
	// A value that is no kind at all is readUser's to refuse, naming what was given.
	if (TRACK_IDENTIFIERS[slot].includes(kind) || !isIdentifierKind(kind)) return;
	throw identifyBy.problem(
		`is ${identifierLabels([kind])}, but ${OBJECTS[slot]} take only ${identifierLabels(TRACK_IDENTIFIERS[slot])}`,
		'Identify the user by one of those, or send this data with an operation whose objects take this identifier.',
	);
}

/**
 * Attribute objects set state, part by part: each attribute, each subscription group's state. A value
 * that is an object would be an update operator on well-known platforms (`$add`, `$remove`, `inc`)
 * that applies again on every send: an object holding one names no parts, so it is never merged
 * with another item's nor left out. The attribute rules refuse object values today, as the spec lists none.
 *
 * Send Only Changes sends a changed contact's changed parts alone (`keepOnly`), with the identifier and
 * `_update_existing_only`, which are no parts: the spec's attribute object updates the keys it holds and
 * leaves the profile's others as they are, each attribute is its own value, and each group listed in
 * `subscription_groups` its own state, set whatever the others are. The email subscription
 * (`email_subscribe`) is one attribute among them. The object's answer proves every part it sends, so each
 * is remembered on its own; a group state is also watched against the subscription endpoint, which sets
 * it too (StatePart.alsoSetElsewhere).
 */
export const ATTRIBUTES_SET_STATE: OperationSpec['stateSlots'] = {
	attributes: {
		provenByAcceptance: true,
		userOf: (piece) => userStateKey((piece.subject ?? {}) as UserIdentifier),
		parts(piece) {
			const identifier = (piece.subject ?? {}) as UserIdentifier;
			const user = userStateKey(identifier);
			const parts: StatePart[] = [];
			for (const [key, value] of Object.entries(piece.payload)) {
				if (!isStateKey(key, identifier)) continue;
				if (key === 'subscription_groups' && Array.isArray(value)) {
					for (const group of value as IDataObject[])
						parts.push({
							user,
							key: groupStateKey(group.subscription_group_id),
							value: String(group.subscription_state),
							label: groupStateLabel(group.subscription_group_id),
							alsoSetElsewhere: true,
						});
					continue;
				}
				if (value !== null && typeof value === 'object' && !Array.isArray(value)) return [];
				parts.push({ user, key: `attribute\u0000${key}`, value: canonicalValue(value), label: key });
			}
			return parts;
		},
		keepOnly(piece, parts) {
			const keys = new Set(parts.map((part) => part.key));
			const identifier = (piece.subject ?? {}) as UserIdentifier;
			const kept: IDataObject = {};
			for (const [key, value] of Object.entries(piece.payload)) {
				if (key === 'subscription_groups' && Array.isArray(value)) {
					const groups = (value as IDataObject[]).filter((group) =>
						keys.has(groupStateKey(group.subscription_group_id)),
					);
					if (groups.length > 0) kept[key] = groups;
				} else if (!isStateKey(key, identifier) || keys.has(`attribute\u0000${key}`)) kept[key] = value;
			}
			return kept;
		},
	},
};

/** Whether a key of an attribute object sets the user's state (not the identifier, not the update-only flag). */
function isStateKey(key: string, identifier: UserIdentifier): boolean {
	return key !== '_update_existing_only' && !Object.hasOwn(identifier, key);
}

/**
 * An operation whose item is one object (Track Event, Track Purchase), from the object's declared
 * fields and schema.
 */
export function trackObjectOperation(
	slot: TrackSlot,
	identifyBy: TrackUser,
	fields: BodyFields,
	checked: CheckedSchema<object>,
): OperationSpec {
	return usersTrackOperation(
		(item) => {
			// Every problem of the item is listed: the identifier's are kept while its object is read.
			const user = item.kept(() => identifyBy.read(item));
			const object = parseOrThrow(checked, fields.read(item), '', fields.labels, item.problems);
			// Without a user the item had a problem, and the schema's reading above refused it.
			return user ? [trackPiece(item.itemIndex, slot, user, object)] : [];
		},
		{ successStatus: { word: TRACKED } },
	);
}

interface UsersTrackDeclaration {
	/** The slots that set state (the operations that offer Send Only Changes). */
	stateSlots?: OperationSpec['stateSlots'];
	/** Whether the operation's items may hold events or purchases (Update Attributes' hold none). */
	sendsEvents?: boolean;
	/** What a succeeded item says, `TRACKED` or `UPDATED`, as trackAnswer tells them apart. */
	successStatus: SuccessStatus;
}

/** /users/track as a declaration; each operation only says how one item becomes objects. */
export function usersTrackOperation(
	readItem: (item: ItemReader) => Piece[],
	{ stateSlots, sendsEvents = true, successStatus }: UsersTrackDeclaration,
): OperationSpec {
	return declareOperation({
		endpoint: {
			method: 'POST',
			path: '/users/track',
			rateLimit: 'users.track',
			permission: 'users.track',
			credentialType: 'engagementPlatformApi',
			// Spec: the answer's `message` is success when the request succeeded.
			successSaysSo: true,
		},
		shape: TRACK_SHAPE,
		options: trackOptions(sendsEvents),
		stateSlots,
		...(sendsEvents && { occurrenceSlots: ['events', 'purchases'] }),
		readItem,
		// Setting the same attributes twice leaves the same profile; events and purchases would be stored twice.
		isSafeToResend: (request) => request.slots.size === 1 && request.slots.has('attributes'),
		readResponse: readTrackResponse,
		successStatus,
		itemResult: (_, pieces) => [trackAnswer(pieces)],
	});
}

/**
 * The answer says what happened in a marketer's words: `tracked` when the item recorded an event or
 * purchase, `updated` when it set attributes alone, with counts named for what they count (the
 * attributes set, not the objects sent; not those Send Only Changes left out, which the engine lists
 * under `unchanged`).
 */
function trackAnswer(pieces: Array<{ piece: Piece; outcome: PieceOutcome }>): IDataObject {
	const subject = pieces[0]?.piece.subject ?? {};
	let attributes = 0;
	let events = 0;
	let purchases = 0;
	let sent: IDataObject | undefined;
	for (const { piece, outcome } of pieces) {
		if (piece.slot === 'events') events++;
		else if (piece.slot === 'purchases') purchases++;
		else {
			const unchanged = outcome.ok ? outcome.unchangedParts : undefined;
			attributes += attributeCount(piece.payload, subject, unchanged);
			const notSent = {
				...(outcome.ok && outcome.replacedParts),
				...Object.fromEntries((unchanged ?? []).map((key) => [key, -1])),
			};
			sent = attributesSent(piece.payload, subject, Object.keys(notSent).length > 0 ? notSent : undefined, sent);
		}
	}
	return {
		status: events + purchases > 0 ? TRACKED : UPDATED,
		...subject,
		...(attributes > 0 && { attributes_set: attributes }),
		...(sent && { sent }),
		...(events > 0 && { events_tracked: events }),
		...(purchases > 0 && { purchases_tracked: purchases }),
	};
}

/**
 * The attributes' values as the platform received them (a sheet's "2026-03-01" as the date
 * 2026-03-01T00:00:00+01:00, "true" as true), so that the answer shows what each column became; an
 * attribute a later item of the run set instead (the answer's `replaced`), or left out as unchanged, is
 * not among them.
 */
function attributesSent(
	payload: IDataObject,
	subject: IDataObject,
	notSent: Record<string, number> | undefined,
	sent: IDataObject = {},
): IDataObject | undefined {
	for (const key in payload)
		if (
			key !== 'subscription_groups' &&
			isStateKey(key, subject as UserIdentifier) &&
			!(notSent && Object.hasOwn(notSent, key))
		)
			sent[key] = payload[key];
	return Object.keys(sent).length > 0 ? sent : undefined;
}

/**
 * The attributes an attribute object sets: its state keys but the subscription groups, which are no
 * attribute, and but those left out as unchanged (an attribute's part is labelled by its key).
 */
function attributeCount(payload: IDataObject, subject: IDataObject, unchanged: string[] | undefined): number {
	let count = 0;
	for (const key in payload)
		if (key !== 'subscription_groups' && isStateKey(key, subject as UserIdentifier) && !unchanged?.includes(key))
			count++;
	return count;
}

/**
 * A 2xx answer may carry non-fatal errors. Each names the array and index of the object it
 * refuses ({type, input_array, index}); that object's item gets the error and the rest of the
 * request counts as processed. An error we cannot place is shown as a warning on every item
 * of the request rather than dropped.
 */
function readTrackResponse(response: { body: IDataObject }, request: PlannedRequest): Map<Piece, PieceOutcome> {
	const outcomes = new Map<Piece, PieceOutcome>();
	const unplaced: string[] = [];
	const errors = Array.isArray(response.body.errors) ? (response.body.errors as unknown[]) : [];
	for (const entry of errors) {
		const { type, input_array: inputArray, index } = (entry ?? {}) as IDataObject;
		const piece =
			typeof inputArray === 'string' && typeof index === 'number' ? request.slots.get(inputArray)?.[index] : undefined;
		const message = typeof type === 'string' ? type : typeof entry === 'string' ? entry : JSON.stringify(entry);
		if (!piece) {
			unplaced.push(message);
			continue;
		}
		outcomes.set(piece, {
			ok: false,
			error: {
				message: `The platform refused this ${singular(inputArray as TrackSlot)}: ${message}`,
				description:
					'Correct the value it names and send this item again. The other objects of the request were processed.',
				delivery: 'not_applied',
				response: entry as IDataObject,
			},
		});
	}
	// An error the answer does not place could be any object's: none of the request is proven applied.
	return answerRemaining(
		request,
		unplaced.length > 0 ? { ok: true, warnings: unplaced, unproven: true } : { ok: true },
		outcomes,
	);
}

function singular(slot: TrackSlot): string {
	return { attributes: 'attribute object', events: 'event', purchases: 'purchase' }[slot] ?? 'object';
}
