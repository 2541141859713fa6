import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationSpec } from '../../shared/engine/operation';
import * as trackEvent from './trackEvent';
import * as trackPurchase from './trackPurchase';
import * as trackUserData from './trackUserData';
import * as updateAttributes from './updateAttributes';

interface UserOperation {
	option: INodePropertyOptions;
	description: INodeProperties[];
	operation: OperationSpec;
}

/** Every operation of the User node, in the order the operation list shows them. */
export const userOperations: UserOperation[] = [trackEvent, trackPurchase, trackUserData, updateAttributes];
