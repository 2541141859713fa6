import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { bodyFields } from '../../shared/fields/bodyFields';
import { number, optionalText, time } from '../../shared/fields/inputs';
import { namedValues } from '../../shared/fields/namedValues';
import { trackPurchase } from '../../shared/schemas/trackObjects';
import { occurrenceAdditionalFields, timeField } from '../shared/trackFields';
import { trackObjectOperation, trackUser } from '../shared/usersTrackOperation';

export const option: INodePropertyOptions = {
	name: 'Track Purchase',
	value: 'trackPurchase',
	action: 'Track a purchase',
	description: 'Record a purchase of one product by a user',
	builderHint: {
		propertyHint:
			'Pick to record one product bought per input item, with its price and currency. An order of several products is one item per product here, or one item holding them all in trackUserData.',
	},
};

const USER = trackUser('purchases');

/** A purchase object's fields, each declared once: its property, body key, reader and label. */
const PURCHASE = bodyFields(
	{
		product_id: optionalText({
			displayName: 'Product ID',
			name: 'productId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. sku-1234',
		}),
		// Currency and Price start empty: a default would turn a dropped mapping into data ("USD eur", a free order).
		currency: optionalText(
			{
				displayName: 'Currency',
				name: 'currency',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. EUR',
				hint: 'Three-letter ISO 4217 code, e.g. USD, EUR',
			},
			// A code in lower case is the code; anything else stays as it came, for the error to show.
			(code) => (/^[a-z]{3}$/i.test(code) ? code.toUpperCase() : code),
		),
		price: number(
			{
				displayName: 'Price',
				name: 'price',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. 59.90',
				description: 'Unit price: a number, or text that is one ("59.90", as spreadsheets and shops give it)',
			},
			'59.90',
		),
		quantity: number(
			{
				displayName: 'Quantity',
				name: 'quantity',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 100 },
				default: 1,
			},
			'2',
		),
		time: time(timeField(), { emptyIsNow: true }),
		properties: namedValues({
			name: 'properties',
			displayName: 'Purchase Properties',
			noun: 'Property',
			example: '{"order_id": "1001", "gift": false}',
		}),
	},
	occurrenceAdditionalFields('purchase'),
);

export const description: INodeProperties[] = [...USER.properties, ...PURCHASE.properties];

export const operation = trackObjectOperation('purchases', USER, PURCHASE, trackPurchase);
