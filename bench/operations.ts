import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { SeedData } from '../sandbox';

/** One batched operation as the benchmark runs it: its node, items, and the fewest requests the spec allows. */
export interface BenchOperation {
	name: string;
	type: string;
	parameters: INodeParameters;
	items(count: number): IDataObject[];
	fewest(count: number): number;
	/** What the sandbox must hold first (profiles to rename, a campaign, a catalog). */
	seed?(count: number): SeedData;
	/** The spec's rate limit keeps this many items or more from finishing within a minute or two: run only with --full. */
	slowFrom?: number;
	slowBecause?: string;
}

const USER = 'n8n-nodes-engagement-platform.engagementPlatformUser';
const customer = (i: number) => `customer-${i}`;
const perRequest = (size: number) => (count: number) => Math.ceil(count / size);

export const BENCH_OPERATIONS: BenchOperation[] = [
	{
		name: 'track events',
		type: USER,
		parameters: {
			operation: 'trackEvent',
			identifyBy: 'external_id',
			externalId: '={{ $json.userId }}',
			eventName: 'order_placed',
			time: '={{ $json.time }}',
			propertiesInput: 'json',
			propertiesJson: '={{ $json.properties }}',
		},
		items: (count) =>
			Array.from({ length: count }, (_, i) => ({
				userId: customer(i),
				time: '2026-11-01T12:00:00Z',
				properties: { order_id: `order-${i}`, total: 19.9 + (i % 100) },
			})),
		fewest: perRequest(75),
	},
	{
		name: 'track mixed (attributes, event, purchase per item)',
		type: USER,
		parameters: {
			operation: 'trackUserData',
			identifyBy: 'external_id',
			externalId: '={{ $json.userId }}',
			attributesInput: 'json',
			attributesJson: '={{ $json.attributes }}',
			eventsJson: '={{ $json.events }}',
			purchasesJson: '={{ $json.purchases }}',
		},
		items: (count) =>
			Array.from({ length: count }, (_, i) => ({
				userId: customer(i),
				attributes: { plan: i % 2 ? 'gold' : 'basic', first_name: `Name${i}` },
				events: [{ name: 'order_placed', time: '2026-11-01T12:00:00Z' }],
				purchases: [
					{ product_id: `sku-${i % 50}`, currency: 'EUR', price: 19.9, quantity: 1, time: '2026-11-01T12:00:00Z' },
				],
			})),
		// Each slot holds `count` objects, 75 a request, and the three slots share requests.
		fewest: perRequest(75),
	},
	{
		name: 'subscription state',
		type: 'n8n-nodes-engagement-platform.engagementPlatformSubscription',
		parameters: {
			operation: 'setGroupState',
			subscriptionGroupId: 'newsletter',
			subscriptionState: 'subscribed',
			identifyBy: 'external_id',
			externalId: '={{ $json.userId }}',
		},
		items: (count) => Array.from({ length: count }, (_, i) => ({ userId: customer(i) })),
		// "Up to 50 users per call", whatever the elements.
		fewest: perRequest(50),
	},
	{
		name: 'export by external ID',
		type: USER,
		parameters: {
			operation: 'export',
			identifyBy: 'external_id',
			externalId: '={{ $json.userId }}',
			fieldsToExport: ['external_id', 'first_name'],
		},
		items: (count) => Array.from({ length: count }, (_, i) => ({ userId: customer(i) })),
		fewest: perRequest(50),
		slowFrom: 20_000,
		slowBecause: '250 export requests a minute: 100,000 IDs are 2,000 requests, at least 8 minutes',
	},
	{
		name: 'rename external IDs',
		type: USER,
		parameters: {
			operation: 'renameExternalIds',
			currentExternalId: '={{ $json.from }}',
			newExternalId: '={{ $json.to }}',
		},
		items: (count) => Array.from({ length: count }, (_, i) => ({ from: customer(i), to: `crm-${i}` })),
		seed: (count) => ({ profiles: Array.from({ length: count }, (_, i) => ({ external_id: customer(i) })) }),
		fewest: perRequest(50),
		slowFrom: 60_000,
		slowBecause: '1,000 rename requests a minute: 100,000 renames are 2,000 requests, at least 1 minute of waiting',
	},
	{
		name: 'campaign trigger',
		type: 'n8n-nodes-engagement-platform.engagementPlatformMessage',
		parameters: {
			operation: 'triggerCampaign',
			campaignId: 'bench-campaign',
			sendTo: 'recipients',
			identifyBy: 'external_id',
			externalId: '={{ $json.userId }}',
		},
		items: (count) => Array.from({ length: count }, (_, i) => ({ userId: customer(i) })),
		seed: () => ({ campaigns: [{ id: 'bench-campaign' }] }),
		fewest: perRequest(50),
	},
	{
		name: 'catalog replace',
		type: 'n8n-nodes-engagement-platform.engagementPlatformCatalog',
		parameters: {
			operation: 'replaceItems',
			catalogName: 'products',
			itemId: '={{ $json.sku }}',
			fieldsInput: 'json',
			fieldsJson: '={{ $json.fields }}',
		},
		items: (count) =>
			Array.from({ length: count }, (_, i) => ({
				sku: `sku-${i}`,
				fields: { name: `Product ${i}`, price: 10 + (i % 90) },
			})),
		seed: () => ({
			catalogs: [
				{
					name: 'products',
					fields: [
						{ name: 'name', type: 'string' },
						{ name: 'price', type: 'number' },
					],
				},
			],
		}),
		fewest: perRequest(50),
	},
];

export const TRACK_EVENTS = BENCH_OPERATIONS[0];

const STANDARD_COLUMNS = ['first_name', 'last_name', 'email', 'country', 'language'];

/**
 * The most common marketer workflow: contacts from a sheet (every cell text) to Update Attributes,
 * the standard attributes mapped field by field and two typed custom attributes. Run by
 * `npm run bench -- --only sheet` beside Track Event (bench/run.ts, section 1b).
 */
export const SHEET_SYNC: BenchOperation = {
	name: 'sheet sync (Update Attributes: 5 standard attributes mapped one by one, 2 typed custom attributes)',
	type: USER,
	parameters: {
		operation: 'updateAttributes',
		identifyBy: 'external_id',
		externalId: '={{ $json.crm_id }}',
		standardAttributes: {
			mappingMode: 'defineBelow',
			value: Object.fromEntries(STANDARD_COLUMNS.map((column) => [column, `={{ $json.${column} }}`])),
			matchingColumns: [],
			schema: STANDARD_COLUMNS.map((id) => ({
				id,
				displayName: id,
				type: 'string',
				required: false,
				defaultMatch: false,
				display: true,
			})),
		},
		attributesFields: {
			assignments: [
				{ id: '1', name: 'lifetime_value', value: '={{ $json.lifetime_value }}', type: 'number' },
				{ id: '2', name: 'vip', value: '={{ $json.vip }}', type: 'boolean' },
			],
		},
	},
	items: (count) =>
		Array.from({ length: count }, (_, i) => ({
			crm_id: customer(i),
			first_name: `Name${i}`,
			last_name: 'Lovelace',
			email: `customer${i}@example.com`,
			country: i % 2 ? 'DE' : 'US',
			language: i % 2 ? 'de' : 'en',
			lifetime_value: String(19.9 + (i % 100)),
			vip: i % 7 === 0 ? 'true' : 'false',
		})),
	fewest: perRequest(75),
};
BENCH_OPERATIONS.push(SHEET_SYNC);

/** The peer's JSON body for one track-events item: what a user writes in the HTTP Request node. */
export const TRACK_EVENT_PEER_BODY =
	'={{ JSON.stringify({ events: [{ external_id: $json.userId, name: "order_placed", time: $json.time, properties: $json.properties }] }) }}';
