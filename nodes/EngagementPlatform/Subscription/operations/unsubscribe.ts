import type { INodePropertyOptions } from 'n8n-workflow';

import { groupStateFields, groupStateOperation } from '../shared/groupStateOperation';

export const option: INodePropertyOptions = {
	name: 'Unsubscribe',
	value: 'unsubscribe',
	action: 'Unsubscribe users from a subscription group',
	description:
		'Opt users out, by external ID, email or phone, of one subscription group (a newsletter, an SMS list); to opt out of all email, use User → Update Attributes → Email Subscription',
	builderHint: {
		propertyHint:
			"Pick to opt every input item's user out of the group; to opt out of all email, use the User node's Update Attributes (Email Subscription) instead.",
	},
};

export const description = groupStateFields('unsubscribed');

export const operation = groupStateOperation('unsubscribed');
