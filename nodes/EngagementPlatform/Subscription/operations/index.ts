import type { NodeOperation } from '../../shared/engine';
import * as setGroupState from './setGroupState';
import * as subscribe from './subscribe';
import * as unsubscribe from './unsubscribe';

/** Every operation of the Subscription node, in the order the operation list shows them. */
export const subscriptionOperations: NodeOperation[] = [setGroupState, subscribe, unsubscribe];
