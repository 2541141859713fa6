import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { scimUserOperation } from '../shared/scimUserOperation';
import { userIdField } from '../shared/userFields';
import { readPathSegment } from '../../shared/fields/pathSegment';

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a dashboard user',
	description: 'Read a dashboard user account by its ID',
	builderHint: {
		propertyHint: 'Pick to read one dashboard account by its ID.',
	},
};

export const description: INodeProperties[] = [userIdField()];

export const operation = scimUserOperation({
	method: 'GET',
	byId: true,
	safeToResend: true,
	read: (item) => {
		const id = readPathSegment(item, 'userId');
		return { call: { id }, subject: { id } };
	},
	result: (user) => [user],
});
