import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { scimUserOperation } from '../shared/scimUserOperation';
import { USER_ID } from '../shared/userFields';

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a dashboard user',
	description: 'Read a dashboard user account by its ID',
	builderHint: {
		propertyHint: 'Pick to read one dashboard account by its ID.',
	},
};

export const description: INodeProperties[] = USER_ID.properties;

export const operation = scimUserOperation({
	method: 'GET',
	byId: true,
	safeToResend: true,
	read: (item) => {
		const id = USER_ID.read(item);
		return { call: { id }, subject: { id } };
	},
	result: (user) => [user],
});
