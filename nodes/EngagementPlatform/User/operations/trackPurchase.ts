import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { keyValueOrJsonFields, readKeyValueOrJson } from '../../shared/fields/keyValueOrJson';
import { forVersion1, fromVersion2 } from '../../shared/fields/displayOptions';
import { userIdentifierFields } from '../../shared/fields/userIdentifier';
import { parseOrThrow } from '../../shared/schemas/parse';
import { trackPurchase } from '../../shared/schemas/trackObjects';
import { occurrenceAdditionalFields, timeField } from '../shared/trackFields';
import { readTrackIdentifier, TRACK_IDENTIFIERS, trackPiece, usersTrackOperation } from '../shared/usersTrackOperation';

export const option: INodePropertyOptions = {
	name: 'Track Purchase',
	value: 'trackPurchase',
	action: 'Track a purchase',
	description: 'Record a purchase of one product by a user',
};

const additionalFields = occurrenceAdditionalFields('purchase');

export const description: INodeProperties[] = [
	...userIdentifierFields(TRACK_IDENTIFIERS.purchases),
	{
		displayName: 'Product ID',
		name: 'productId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. sku-1234',
	},
	// Version 1 started Currency at USD and Price at 0: a dropped mapping became data ("USD eur", a free order).
	...forVersion1([
		{
			displayName: 'Currency',
			name: 'currency',
			type: 'string',
			default: 'USD',
			required: true,
			hint: 'Three-letter ISO 4217 code, e.g. USD, EUR',
		},
		{
			displayName: 'Price',
			name: 'price',
			type: 'number',
			typeOptions: { numberPrecision: 2 },
			default: 0,
			required: true,
			description: 'Unit price',
		},
	]),
	...fromVersion2([
		{
			displayName: 'Currency',
			name: 'currency',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. EUR',
			hint: 'Three-letter ISO 4217 code, e.g. USD, EUR',
		},
		{
			displayName: 'Price',
			name: 'price',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 59.90',
			description: 'Unit price: a number, or text that is one ("59.90", as spreadsheets and shops give it)',
		},
	]),
	{
		displayName: 'Quantity',
		name: 'quantity',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 100 },
		default: 1,
	},
	timeField(),
	...keyValueOrJsonFields({
		name: 'properties',
		displayName: 'Purchase Properties',
		noun: 'Property',
		example: '{"order_id": "1001", "gift": false}',
	}),
	additionalFields,
];

export const operation = usersTrackOperation((item) => {
	const identifier = readTrackIdentifier(item, 'purchases');
	const purchase = parseOrThrow(
		trackPurchase,
		{
			product_id: item.optionalString('productId', 'Product ID'),
			currency: item.optionalString('currency', 'Currency')?.toUpperCase(),
			price: item.number('price', 'Price', '59.90'),
			quantity: item.number('quantity', 'Quantity', '2', 1),
			time: item.time('time'),
			properties: readKeyValueOrJson(item, 'properties', 'Purchase Properties'),
			...item.collection('additionalFields', additionalFields),
		},
		'',
		{
			product_id: 'Product ID',
			currency: 'Currency',
			price: 'Price',
			quantity: 'Quantity',
			time: 'Time',
			properties: 'Purchase Properties',
			app_id: 'App ID',
		},
		item.problems,
	);
	return [trackPiece(item.itemIndex, 'purchases', identifier, purchase)];
});
