/** What tests of the User node run: the node itself, Track Event's parameters, and orders to track. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../harness';
import { USER_NODE } from './nodeTypes';
import type { NodeRun } from './runNode';
import { runNode } from './runNode';

/** Runs the User node on `items`: Start → Engagement Platform User; read its output with `USER`. */
export async function runUserNode(run: NodeRun): Promise<RunResult> {
	return await runNode(USER_NODE, run);
}

/** Track Event with the user, name, time and properties taken from each item. */
export const trackEventParameters = (options: INodeParameters = {}): INodeParameters => ({
	operation: 'trackEvent',
	identifyBy: 'external_id',
	externalId: '={{ $json.userId }}',
	eventName: '={{ $json.event }}',
	time: '={{ $json.time }}',
	propertiesInput: 'json',
	propertiesJson: '={{ $json.properties }}',
	options,
});

export function orderEvents(count: number, start = 0): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({
		userId: `customer-${start + i}`,
		event: 'order_placed',
		time: new Date(Date.UTC(2026, 10, 1, 12, 0, i % 60)).toISOString(),
		properties: { order_id: `order-${start + i}`, items: 1 + (i % 3), total: 19.9 + i },
	}));
}
