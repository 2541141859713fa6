import type { INodePropertyOptions } from 'n8n-workflow';

import { groupStateFields, groupStateOperation } from '../shared/groupStateOperation';

export const option: INodePropertyOptions = {
	name: 'Set Group State',
	value: 'setGroupState',
	action: 'Set subscription group state',
	description:
		'Subscribe or unsubscribe users, by external ID, email or phone, from one subscription group (a newsletter, an SMS list)',
	builderHint: {
		propertyHint: 'Pick when each input item carries its own state for the group, subscribed or unsubscribed.',
	},
};

export const description = groupStateFields();

export const operation = groupStateOperation();
