import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { catalogItemFields, catalogItemsOperation } from '../shared/catalogItemsOperation';

export const option: INodePropertyOptions = {
	name: 'Edit Items',
	value: 'editItems',
	action: 'Edit catalog items',
	description: 'Change fields of existing items; $add and $remove work on array fields',
	builderHint: {
		propertyHint: 'Pick to change only the fields given on items that exist; an array field can take $add or $remove.',
	},
};

export const description: INodeProperties[] = catalogItemFields('PATCH');

export const operation = catalogItemsOperation('PATCH', 'accepted');
