import type { IDataObject } from 'n8n-workflow';

import { successStatus } from '../test/support/successWords';
import { TRACK_EVENTS } from './operations';

/** The status Track Event answers an item it tracked: every item of the executions must be answered with it. */
export const TRACKED = successStatus(TRACK_EVENTS.type, TRACK_EVENTS.parameters);

/**
 * Track-events items for one of several executions running at once: the same users for every
 * execution, and order IDs unique across them, so each stored event names the item it came from.
 */
export function concurrentItems(execution: number, count: number): IDataObject[] {
	return TRACK_EVENTS.items(count).map((item, index) => ({
		...item,
		properties: { ...(item.properties as IDataObject), order_id: orderIdOf(execution, index) },
	}));
}

export function orderIdOf(execution: number, index: number): string {
	return `execution-${execution}-order-${index}`;
}
