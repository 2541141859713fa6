/**
 * A node's input items are n8n's, shared with every other node their output reaches: our nodes read them
 * and change none of their objects. Track User Data with its Attributes, Events and Purchases each mapped
 * whole from the item (`{{ $json.events }}`, read from the item's JSON without n8n's engine, which hands
 * over the item's own objects: shared/fields/parameterSource.ts), and a node on another branch of the same
 * items, run after ours: that node sees, and the items still are, what the upstream node gave.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { USER, USER_NODE } from '../support/nodeTypes';
import { runWorkflow } from '../harness';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

const READER = 'Other Branch';
const READER_TYPE = 'n8n-nodes-test.otherBranch';

/** A node that gives a copy of the items it was given, as they were when it ran. */
const otherBranch: INodeType = {
	description: {
		displayName: READER,
		name: 'otherBranch',
		group: ['transform'],
		version: 1,
		description: 'Reads the same items as the node under test, on another branch',
		defaults: { name: READER },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, index) => ({ json: structuredClone(item.json), pairedItem: { item: index } })),
		];
	},
};

/** Orders as a shop node gives them: a customer's plan, the order's event and its line items as purchases. */
const orders = () =>
	[0, 1, 2].map((index) => ({
		customer: `crm-${index}`,
		phone: `+1555010000${index}`,
		attributes: { plan: index % 2 ? 'gold' : 'silver', orders: 3 + index },
		events: [
			{ name: 'order_placed', time: '2026-11-22T10:15:00Z', properties: { order_id: `o-${index}`, items: 2 } },
			{ name: 'coupon_used', time: '2026-11-22 10:15', properties: { code: 'WELCOME' } },
		],
		purchases: [
			{ product_id: 'sku-1', currency: 'USD', price: 19.9, quantity: 1, time: '2026-11-22T10:15:00Z' },
			{
				product_id: 'sku-2',
				currency: 'USD',
				price: 5,
				time: '2026-11-22T10:15:00.000+01:00',
				properties: { gift: true },
			},
		],
	}));

/** Track User Data with each of its objects mapped whole from the item, as the editor writes a dragged field. */
const mappedWhole = (identifier: INodeParameters): INodeParameters => ({
	operation: 'trackUserData',
	...identifier,
	attributesInput: 'json',
	attributesJson: '={{ $json.attributes }}',
	eventsJson: '={{ $json.events }}',
	purchasesJson: '={{ $json.purchases }}',
});

async function runBesideAnotherBranch(items: IDataObject[], parameters: INodeParameters) {
	return await runWorkflow({
		nodes: [
			{ name: USER, type: USER_NODE, parameters, position: [250, 0] },
			// Below ours, so that n8n runs it second (v1 order: by position).
			{ name: READER, type: READER_TYPE, parameters: {}, position: [250, 300] },
		],
		connections: {
			Start: {
				main: [
					[
						{ node: USER, type: 'main', index: 0 },
						{ node: READER, type: 'main', index: 0 },
					],
				],
			},
		},
		items,
		nodeTypes: { [READER_TYPE]: otherBranch },
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
	});
}

/** The attribute, event and purchase objects of the items. */
const objectsOf = (items: IDataObject[]) =>
	items.reduce(
		(count, item) =>
			count +
			(Object.keys(item.attributes as IDataObject).length > 0 ? 1 : 0) +
			(item.events as unknown[]).length +
			(item.purchases as unknown[]).length,
		0,
	);

/** The objects of the /users/track requests the sandbox accepted. */
async function objectsSent(): Promise<number> {
	const requests = await client().requests({ path: '/users/track' });
	return requests
		.filter((request) => request.status >= 200 && request.status < 300)
		.reduce((count, { body }) => {
			const { attributes = [], events = [], purchases = [] } = body as Record<string, unknown[] | undefined>;
			return count + attributes.length + events.length + purchases.length;
		}, 0);
}

describe('Input items are left as they came', () => {
	test.each([
		{ kind: 'external_id', identifier: { identifyBy: 'external_id', externalId: '={{ $json.customer }}' } },
		// Purchases take no phone number, attribute objects no service ID: those items send what takes it.
		{ kind: 'phone', identifier: { identifyBy: 'phone', phone: '={{ $json.phone }}' }, without: ['purchases'] },
		{
			kind: 'service_id',
			identifier: { identifyBy: 'service_id', serviceId: '={{ $json.service_id }}' },
			without: ['purchases', 'attributes'],
		},
	])(
		'Track User Data with attributes, events and purchases mapped whole, users identified by $kind: another branch sees the items as they were',
		async ({ identifier, without = [] }) => {
			const seeded = await client().seed({ profiles: orders().map(({ customer }) => ({ external_id: customer })) });
			const items = orders().map((order, index) => {
				const item: IDataObject = { ...order, service_id: seeded.profiles[index].service_id };
				for (const key of without) item[key] = key === 'attributes' ? {} : [];
				return item;
			});
			const before = structuredClone(items);

			const result = await runBesideAnotherBranch(items, mappedWhole(identifier));

			expect(result.error).toBeUndefined();
			expect(result.executionOrder.indexOf(USER)).toBeLessThan(result.executionOrder.indexOf(READER));
			// Every object went out: the node read them all before the other branch looked.
			expect(await objectsSent()).toBe(objectsOf(before));
			expect(result.output(READER).map((item) => item.json)).toEqual(before);
			expect(items).toEqual(before);
		},
	);

	test('Track User Data with attributes alone mapped whole, under Continue (using error output): the items are as they were', async () => {
		const items: IDataObject[] = orders().map(({ purchases: _purchases, events: _events, ...order }) => ({
			...order,
			events: [],
			purchases: [],
		}));
		// No external ID: refused by the node, down the error branch.
		items.push({ customer: '', attributes: { plan: 'gold' }, events: [], purchases: [] });
		const before = structuredClone(items);

		const result = await runWorkflow({
			nodes: [
				{
					name: USER,
					type: USER_NODE,
					parameters: mappedWhole({ identifyBy: 'external_id', externalId: '={{ $json.customer }}' }),
					onError: 'continueErrorOutput',
				},
			],
			connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
			items,
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		});

		expect(result.error).toBeUndefined();
		expect(await objectsSent()).toBe(3);
		expect(result.output(USER, 1)).toHaveLength(1);
		expect(items).toEqual(before);
	});
});
