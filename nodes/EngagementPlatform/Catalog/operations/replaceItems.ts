import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { catalogItemFields, catalogItemsOperation } from '../shared/catalogItemsOperation';

export const option: INodePropertyOptions = {
	name: 'Replace Items',
	value: 'replaceItems',
	action: 'Replace catalog items',
	description: 'Replace whole items, creating those that do not exist',
	builderHint: {
		propertyHint:
			'Pick to write whole items, creating those that do not exist; an existing item keeps none of the fields left out.',
	},
};

export const description: INodeProperties[] = catalogItemFields('PUT');

export const operation = catalogItemsOperation('PUT', 'accepted');
