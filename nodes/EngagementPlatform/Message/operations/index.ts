import type { NodeOperation } from '../../shared/engine';
import * as deleteScheduledCanvas from './deleteScheduledCanvas';
import * as sendNow from './sendNow';
import * as sendTransactionalEmail from './sendTransactionalEmail';
import * as triggerCampaign from './triggerCampaign';
import * as triggerCanvas from './triggerCanvas';
import * as updateScheduledCanvas from './updateScheduledCanvas';

/** Every operation of the Message node, in the order the operation list shows them. */
export const messageOperations: NodeOperation[] = [
	deleteScheduledCanvas,
	sendNow,
	sendTransactionalEmail,
	triggerCampaign,
	triggerCanvas,
	updateScheduledCanvas,
];
