import type { NodeOperation } from '../../shared/engine';
import * as exportProfiles from './export';
import * as identify from './identify';
import * as renameExternalIds from './renameExternalIds';
import * as trackEvent from './trackEvent';
import * as trackPurchase from './trackPurchase';
import * as trackUserData from './trackUserData';
import * as updateAttributes from './updateAttributes';

/** Every operation of the User node, in the order the operation list shows them. */
export const userOperations: NodeOperation[] = [
	exportProfiles,
	identify,
	renameExternalIds,
	trackEvent,
	trackPurchase,
	trackUserData,
	updateAttributes,
];
