import type { NodeOperation } from '../../shared/engine/nodeOperations';
import { catalogItemFields, catalogItemsOperation } from '../catalogItems';

/** Edit (PATCH), replace (PUT) and delete (DELETE) catalog items: one declaration, three methods. */
export const catalogOperations: NodeOperation[] = [
	{
		option: { name: 'Delete Items', value: 'deleteItems', action: 'Delete catalog items', description: 'Delete items from a catalog' },
		description: catalogItemFields({ operation: ['deleteItems'] }, 'DELETE'),
		operation: catalogItemsOperation('DELETE', 'accepted'),
	},
	{
		option: {
			name: 'Edit Items',
			value: 'editItems',
			action: 'Edit catalog items',
			description: 'Change fields of existing items; $add and $remove work on array fields',
		},
		description: catalogItemFields({ operation: ['editItems'] }, 'PATCH'),
		operation: catalogItemsOperation('PATCH', 'accepted'),
	},
	{
		option: {
			name: 'Replace Items',
			value: 'replaceItems',
			action: 'Replace catalog items',
			description: 'Replace whole items, creating those that do not exist',
		},
		description: catalogItemFields({ operation: ['replaceItems'] }, 'PUT'),
		operation: catalogItemsOperation('PUT', 'accepted'),
	},
];
