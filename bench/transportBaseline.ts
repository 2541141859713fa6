import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

export const TRANSPORT_BASELINE_TYPE = 'benchTransportBaseline';

/**
 * What any node must spend to send track events with n8n's helpers: the same items cut into
 * the same 75-event requests, sent 8 at a time through httpRequestWithAuthentication, with no
 * validation, no pacing and no per-item results beyond one output item each. Our node's CPU
 * minus this is our own overhead.
 */
export const transportBaseline: INodeType = {
	description: {
		displayName: 'Transport Baseline',
		name: TRANSPORT_BASELINE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Benchmark baseline',
		defaults: { name: 'Transport Baseline' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'engagementPlatformApi', required: true }],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const { restEndpoint } = await this.getCredentials('engagementPlatformApi');
		const bodies: IDataObject[] = [];
		for (let start = 0; start < items.length; start += 75) {
			bodies.push({
				events: items.slice(start, start + 75).map(({ json }) => ({
					external_id: json.userId,
					name: 'order_placed',
					time: json.time,
					properties: json.properties,
				})),
			});
		}
		let next = 0;
		const worker = async () => {
			while (next < bodies.length) {
				const body = bodies[next++];
				await this.helpers.httpRequestWithAuthentication.call(this, 'engagementPlatformApi', {
					method: 'POST',
					url: `${String(restEndpoint)}/users/track`,
					body,
					json: true,
				});
			}
		};
		await Promise.all(Array.from({ length: 8 }, worker));
		return [items.map((_, index) => ({ json: { status: 'processed' }, pairedItem: { item: index } }))];
	},
};
