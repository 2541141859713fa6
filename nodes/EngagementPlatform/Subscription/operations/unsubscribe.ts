import type { INodePropertyOptions } from 'n8n-workflow';

import { groupStateFields, groupStateOperation } from './groupState';

export const option: INodePropertyOptions = {
	name: 'Unsubscribe',
	value: 'unsubscribe',
	action: 'Unsubscribe users from a subscription group',
	description: 'Opt users out, by external ID, email or phone, of a subscription group',
};

export const description = groupStateFields('unsubscribed');

export const operation = groupStateOperation('unsubscribed');
