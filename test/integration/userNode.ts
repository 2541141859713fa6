import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../harness';
import { runWorkflow } from '../harness';

export const USER_NODE = 'n8n-nodes-engagement-platform.engagementPlatformUser';
export const SUBSCRIPTION_NODE = 'n8n-nodes-engagement-platform.engagementPlatformSubscription';
export const MESSAGE_NODE = 'n8n-nodes-engagement-platform.engagementPlatformMessage';
export const CATALOG_NODE = 'n8n-nodes-engagement-platform.engagementPlatformCatalog';
export const PREFERENCE_CENTER_NODE = 'n8n-nodes-engagement-platform.engagementPlatformPreferenceCenter';
export const TRANSLATION_NODE = 'n8n-nodes-engagement-platform.engagementPlatformTranslation';
export const DASHBOARD_USER_NODE = 'n8n-nodes-engagement-platform.engagementPlatformDashboardUser';

export interface UserRun {
	items: IDataObject[];
	parameters: INodeParameters;
	endpoint: string;
	apiKey: string;
	continueOnFail?: boolean;
}

/** Runs the User node on `items` in n8n's engine, as a workflow Start → User. */
export async function runUserNode(run: UserRun): Promise<RunResult> {
	return await runNode(USER_NODE, run);
}

/** Runs one of our nodes, named "User" whatever its type, on `items`: Start → node. */
export async function runNode(type: string, { items, parameters, endpoint, apiKey, continueOnFail }: UserRun): Promise<RunResult> {
	return await runWorkflow({
		nodes: [{ name: 'User', type, parameters, continueOnFail }],
		connections: { Start: { main: [[{ node: 'User', type: 'main', index: 0 }]] } },
		items,
		credentials: { engagementPlatformApi: { restEndpoint: endpoint, apiKey } },
	});
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
