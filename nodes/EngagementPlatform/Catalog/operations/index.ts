import type { NodeOperation } from '../../shared/engine';
import * as deleteItems from './deleteItems';
import * as editItems from './editItems';
import * as replaceItems from './replaceItems';

/** Every operation of the Catalog node, in the order the operation list shows them. */
export const catalogOperations: NodeOperation[] = [deleteItems, editItems, replaceItems];
