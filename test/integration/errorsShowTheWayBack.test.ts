/**
 * An invalid row's error shows the way back to it and to its fix: the value as it came (cut), the valid
 * value it most likely means (`EURO` → EUR, `female` → F) or the values allowed, the row as a marketer
 * counts it (from 1) beside n8n's item number (from 0) and the row's identifying column, and, when
 * several rows are invalid, each of them with its reason; an error item's `message` is a sentence.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness';
import { USER, USER_NODE } from '../support/nodeTypes';
import { wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

const ORDERS: IDataObject[] = [
	{ order_id: 'B-2001', customer_id: 'c-1', sku: 'mug', currency: 'EUR', price: 12 },
	{ order_id: 'B-2002', customer_id: 'c-2', sku: 'mug', currency: 'EURO', price: 12 },
	{ order_id: 'B-2003', customer_id: 'c-3', sku: 'tee', currency: 'EUR', price: 25 },
];

const PURCHASE: INodeParameters = {
	operation: 'trackPurchase',
	identifyBy: 'external_id',
	externalId: '={{ $json.customer_id }}',
	productId: '={{ $json.sku }}',
	currency: '={{ $json.currency }}',
	price: '={{ $json.price }}',
	time: '2026-11-01T10:00:00Z',
};
const ONCE_PER_ORDER: INodeParameters = {
	...PURCHASE,
	options: { trackOncePerKey: true, trackOncePerKeyKey: '={{ $json.order_id }}' },
};

const track = async (items: IDataObject[], parameters: INodeParameters, onError?: 'continueErrorOutput') =>
	await runNode(USER_NODE, { items, parameters, endpoint: sandbox().url, apiKey, onError });

describe('the error names the value, its likely fix and the row', () => {
	test('Stop Workflow: the row, its order_id, the value and the code it likely means; nothing sent', async () => {
		const result = await track(ORDERS, ONCE_PER_ORDER);

		expect(result.error?.message).toBe(
			`Row 2 (item 1, order_id 'B-2002'): "Currency" must be a three-letter ISO 4217 code such as USD, not 'EURO' (did you mean EUR?)`,
		);
		expect((result.error as { description?: string } | undefined)?.description).toContain(
			"Give EUR instead of 'EURO'.",
		);
		expect((result.error as { context?: IDataObject }).context?.itemIndex).toBe(1);
		expect(await client().requests()).toHaveLength(0);
	});

	test("without a key, the row's identifying column is the one External ID is mapped from", async () => {
		const result = await track(ORDERS, PURCHASE);

		expect(result.error?.message).toMatch(/^Row 2 \(item 1, customer_id 'c-2'\): "Currency" .* not 'EURO'/);
	});

	test('a value typed in names no column: the row and the item number alone', async () => {
		const result = await track([ORDERS[0]], { ...PURCHASE, externalId: 'c-1', currency: 'dollars' });

		expect(result.error?.message).toBe(
			`Row 1 (item 0): "Currency" must be a three-letter ISO 4217 code such as USD, not 'dollars'`,
		);
		expect((result.error as { description?: string } | undefined)?.description).toContain(
			'Give a code such as USD or EUR.',
		);
	});

	test('a currency written as its name is offered its code', async () => {
		const result = await track([{ ...ORDERS[0], currency: 'euro' }], PURCHASE);

		expect(result.error?.message).toContain("not 'euro' (did you mean EUR?)");
	});

	test('a long value is cut in the error', async () => {
		const result = await track([{ ...ORDERS[0], currency: 'E'.repeat(500) }], PURCHASE);

		expect(result.error?.message).toContain(`not '${'E'.repeat(40)}…'`);
		expect(result.error?.message.length).toBeLessThan(200);
	});

	test('several invalid rows: the error lists each other one with its reason', async () => {
		const orders = [
			...ORDERS,
			{ order_id: 'B-2004', customer_id: 'c-4', sku: 'cap', currency: 'us dollar', price: 9 },
			{ order_id: 'B-2005', customer_id: 'c-5', sku: 'cap', currency: 'EUR', price: 'nine' },
		];
		const result = await track(orders, ONCE_PER_ORDER);

		expect(result.error?.message).toMatch(/^Row 2 \(item 1, order_id 'B-2002'\)/);
		const description = String((result.error as { description?: string } | undefined)?.description);
		expect(description).toContain('2 more items are invalid too:');
		expect(description).toContain(
			`\n- Row 4 (item 3, order_id 'B-2004'): "Currency" must be a three-letter ISO 4217 code such as USD, not 'us dollar' (did you mean USD?)`,
		);
		expect(description).toMatch(/\n- Row 5 \(item 4, order_id 'B-2005'\): "Price" .*'nine'/);
		expect(await client().requests()).toHaveLength(0);
	});

	test('error output: `error` names the row, `message` is a sentence with the fix; a hint lists every failed row', async () => {
		const result = await track(ORDERS, ONCE_PER_ORDER, 'continueErrorOutput');

		expect(result.error).toBeUndefined();
		const [failed] = result.output(USER, 1);
		expect(failed.json).toMatchObject({
			order_id: 'B-2002',
			error: `Row 2 (item 1, order_id 'B-2002'): "Currency" must be a three-letter ISO 4217 code such as USD, not 'EURO' (did you mean EUR?)`,
			message: "Not sent: the node refused this item's input before sending it. Give EUR instead of 'EURO'.",
		});
		expect(result.output(USER, 0)).toHaveLength(2);
		expect(result.run.data.resultData.runData[USER][0].hints).toContainEqual(
			expect.objectContaining({
				type: 'warning',
				message: expect.stringContaining(`1 item failed (each has its error item): Row 2 (item 1, order_id 'B-2002'):`),
			}),
		);
		const stored = (await client().state()).purchases.map((purchase) => purchase.product_id).sort();
		expect(stored).toEqual(['mug', 'tee']);
	});
});

describe('a choice not among its options', () => {
	async function updateAttributes(row: IDataObject) {
		const result = await runWorkflow({
			nodes: [
				{
					name: USER,
					type: USER_NODE,
					parameters: { operation: 'updateAttributes', identifyBy: 'external_id', externalId: '={{ $json.id }}' },
					continueOnFail: true,
				},
			],
			connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
			items: [row],
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		});
		return result.output(USER)[0].json;
	}

	test('a label or a near miss of one of them is offered it', async () => {
		const [opted, near] = [
			await updateAttributes({ id: 'c-1', push_subscribe: 'Opted In!' }),
			await updateAttributes({ id: 'c-1', push_subscribe: 'unsubscribe' }),
		];

		expect(wordsOf(opted)).toMatchObject({ status: 'failed', delivery: 'invalid' });
		expect(String(opted.error)).toContain(
			`"Standard Attributes.Push Subscription" expects one of its options but got 'Opted In!' (did you mean opted_in?)`,
		);
		expect(String(wordsOf(opted).description)).toContain("Give opted_in instead of 'Opted In!'");
		expect(String(near.error)).toContain(`but got 'unsubscribe' (did you mean unsubscribed?)`);
	});

	test('a value near none of them: every option listed with its label', async () => {
		const answer = await updateAttributes({ id: 'c-1', push_subscribe: 'yes' });

		expect(String(wordsOf(answer).description)).toContain(
			'Give one of opted_in (Opted In), subscribed (Subscribed), unsubscribed (Unsubscribed).',
		);
		expect(await client().requests({ path: '/users/track' })).toEqual([]);
	});

	test('a gender no word names: the letters listed with their meanings', async () => {
		const answer = await updateAttributes({ id: 'c-1', gender: 'xyz' });

		expect(String(answer.error)).toContain(
			`"Standard Attributes.Gender" expects one of M, F, O, N, P, U or a word for one, not 'xyz'`,
		);
		expect(String(wordsOf(answer).description)).toContain(
			'Give M (male), F (female), O (other), N (not applicable), P (prefer not to say) or U (unknown).',
		);
	});
});
