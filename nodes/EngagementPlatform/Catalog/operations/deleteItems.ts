import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { catalogItemFields, catalogItemsOperation } from '../shared/catalogItemsOperation';

export const option: INodePropertyOptions = {
	name: 'Delete Items',
	value: 'deleteItems',
	action: 'Delete catalog items',
	description: 'Delete items from a catalog',
	builderHint: {
		propertyHint: 'Pick to remove items from a catalog by their IDs.',
	},
};

export const description: INodeProperties[] = catalogItemFields('DELETE');

export const operation = catalogItemsOperation('DELETE', 'accepted');
