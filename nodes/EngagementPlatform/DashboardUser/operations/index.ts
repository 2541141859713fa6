import type { NodeOperation } from '../../shared/engine';
import * as create from './create';
import * as remove from './delete';
import * as findByEmail from './findByEmail';
import * as get from './get';
import * as update from './update';

/** Every operation of the Dashboard User node, in the order the operation list shows them. */
export const dashboardUserOperations: NodeOperation[] = [create, remove, findByEmail, get, update];
