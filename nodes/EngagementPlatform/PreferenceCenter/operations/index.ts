import type { NodeOperation } from '../../shared/engine';
import * as update from './update';

/** Every operation of the Preference Center node, in the order the operation list shows them. */
export const preferenceCenterOperations: NodeOperation[] = [update];
