import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ItemReader, Piece } from '../../shared/engine';
import { ItemInputError } from '../../shared/engine';
import { jsonArray } from '../../shared/fields/inputs';
import { parseOrThrow } from '../../shared/schemas/parse';
import { trackAttributes, trackEvent, trackPurchase } from '../../shared/schemas/trackObjects';
import { namedValues } from '../../shared/fields/namedValues';
import {
	ATTRIBUTES_SET_STATE,
	TRACKED,
	trackPiece,
	trackUser,
	UPDATED,
	usersTrackOperation,
} from '../shared/usersTrackOperation';

export const option: INodePropertyOptions = {
	name: 'Track User Data',
	value: 'trackUserData',
	action: 'Track attributes events and purchases of a user',
	description:
		'Send any mix of attributes, events and purchases for one user per item, e.g. an order with several products',
	builderHint: {
		propertyHint:
			'Pick when one input item holds several things for one user, attributes with events and purchases (for example an order with its line items); events and purchases are given as JSON arrays.',
	},
};

// Events take every identifier; an item whose identifier its purchases or attributes do not take is refused.
const USER = trackUser();
const ATTRIBUTES = namedValues({
	name: 'attributes',
	displayName: 'Attributes',
	noun: 'Attribute',
	example: '{"last_order_total": 59.9}',
	answerShowsSent: true,
});
const EVENTS = jsonArray({
	displayName: 'Events (JSON)',
	name: 'eventsJson',
	type: 'json',
	default: '[]',
	hint: 'An array of events, e.g. [{"name": "order_placed", "time": "2026-11-22T10:15:00Z", "properties": {"items": 2}}]',
});
const PURCHASES = jsonArray({
	displayName: 'Purchases (JSON)',
	name: 'purchasesJson',
	type: 'json',
	default: '[]',
	hint: 'An array of purchases, e.g. {{ $json.line_items.map(l => ({product_id: l.sku, currency: "USD", price: l.price, quantity: l.quantity, time: $json.created_at})) }}',
});

export const description: INodeProperties[] = [
	...USER.properties,
	{
		displayName: 'Purchases take an external ID, a user alias or an email; attributes any identifier but a service ID',
		name: 'identifierNotice',
		type: 'notice',
		default: '',
	},
	...ATTRIBUTES.properties,
	...EVENTS.properties,
	...PURCHASES.properties,
];

/** The inputs that can each give the item something to send. */
const GIVING = [ATTRIBUTES, EVENTS, PURCHASES].map((input) => input.label).join(', ');

export const operation = usersTrackOperation(
	(item) => {
		const user = USER.read(item);
		const pieces: Piece[] = [];
		const attributes = ATTRIBUTES.read(item);
		if (attributes) {
			const object = parseOrThrow(trackAttributes, attributes, ATTRIBUTES.label);
			// Mapped whole ({{ $json.attributes }}), the attributes are the input item's own object, which the
			// quick check gives back as it is: the identifier (trackPiece) goes into a copy. The reading does not
			// say where its object came from, so the one a typed list or JSON text made is copied all the same.
			const own = object === attributes ? { ...object } : object;
			pieces.push(trackPiece(item.itemIndex, 'attributes', USER.takenBy('attributes', user), own));
		}
		for (const [index, event] of (EVENTS.read(item) ?? []).entries()) {
			const read = parseOrThrow(trackEvent, withZonedTime(item, event), `${EVENTS.label}[${index}]`);
			pieces.push(trackPiece(item.itemIndex, 'events', USER.takenBy('events', user), read));
		}
		for (const [index, purchase] of (PURCHASES.read(item) ?? []).entries()) {
			const read = parseOrThrow(trackPurchase, withZonedTime(item, purchase), `${PURCHASES.label}[${index}]`);
			pieces.push(trackPiece(item.itemIndex, 'purchases', USER.takenBy('purchases', user), read));
		}
		if (pieces.length === 0) {
			throw new ItemInputError(GIVING, 'are all empty', 'Give at least one attribute, event or purchase.');
		}
		return pieces;
	},
	{
		stateSlots: ATTRIBUTES_SET_STATE,
		successStatus: { word: TRACKED, whenAnyGiven: [EVENTS.name, PURCHASES.name], otherwise: UPDATED },
	},
);

/**
 * An event or purchase object whose `time` is read as the Time field reads its value: a copy, since
 * Events and Purchases mapped whole are the input item's own arrays, whose objects the identifier
 * (trackPiece) and a purchase's time in ISO 8601 must not go into. The one copy an object needs.
 */
function withZonedTime(item: ItemReader, object: unknown): unknown {
	if (object === null || typeof object !== 'object' || Array.isArray(object)) return object;
	const { time } = object as IDataObject;
	return time === undefined ? { ...object } : { ...object, time: item.clock.zoned(time) };
}
