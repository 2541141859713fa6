import type { INodePropertyOptions } from 'n8n-workflow';

import { groupStateFields, groupStateOperation } from '../shared/groupStateOperation';

export const option: INodePropertyOptions = {
	name: 'Subscribe',
	value: 'subscribe',
	action: 'Subscribe users to a subscription group',
	description: 'Opt users in, by external ID, email or phone, to one subscription group (a newsletter, an SMS list)',
	builderHint: {
		propertyHint: "Pick to opt every input item's user in to the group.",
	},
};

export const description = groupStateFields('subscribed');

export const operation = groupStateOperation('subscribed');
