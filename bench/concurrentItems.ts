import type { IDataObject } from 'n8n-workflow';

import { TRACK_EVENTS } from './operations';

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
