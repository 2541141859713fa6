import type { INodeProperties } from 'n8n-workflow';

/** "Additional Fields": the optional fields of an operation, each added with "Add Field"; options named by their body keys. */
export function additionalFieldsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}
