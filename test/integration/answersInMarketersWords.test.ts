/**
 * What a marketer reads after a run, from sheet rows: items say what happened (`updated`, `tracked`,
 * `unsubscribed`, with counts named for what they count) in a field of their own (`engagementPlatform`),
 * beside the row's own fields exactly as they came, so an answer can be written back where the row came
 * from and no column of the row (its `status`, its `error`) is overwritten. A failure that is the run's
 * (a refused key) is said once, not pinned on a row; an item's failure leaves naming the item to n8n's
 * editor ("[item 2]"), and every advice to go on past failures names n8n's On Error setting, with counts
 * in their singular where there is one.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { SUBSCRIPTION, SUBSCRIPTION_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { runWorkflow } from '../harness';
import { OUTPUT_FIELD, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox({ subscriptionGroups: ['newsletter'] });

const ROWS = [
	{ external_id: 'c-1', first_name: 'Ada', email: 'ada@example.com', country: 'DE', sheet_row: 2, status: 'active' },
	{ external_id: 'c-2', first_name: 'Grace', email: 'grace@example.com', country: 'US', sheet_row: 3, status: 'lead' },
];

const updateAttributes: INodeParameters = {
	operation: 'updateAttributes',
	externalId: '={{ $json.external_id }}',
	attributesFields: {
		assignments: [
			{ id: '1', name: 'tier', value: 'gold', type: 'string' },
			{ id: '2', name: 'row', value: '={{ $json.sheet_row }}', type: 'number' },
		],
	},
};

describe('answers in a marketer’s words', () => {
	test('Update Attributes says "updated" and how many attributes it set, and keeps the row, its own status too', async () => {
		const result = await runNode(USER_NODE, {
			items: ROWS,
			parameters: updateAttributes,
			endpoint: sandbox().url,
			apiKey,
		});

		expect(result.error).toBeUndefined();
		const answers = result.output(USER).map((item) => item.json);
		// Map Automatically (the default) sets first_name, email and country; the list sets tier and row.
		// The row's own `status` ("active", "lead") arrives as it was; the node's word is in its own field.
		expect(answers).toEqual(
			ROWS.map((row) => ({
				...row,
				[OUTPUT_FIELD]: {
					status: 'updated',
					external_id: row.external_id,
					attributes_set: 5,
					// The values as the platform received them: the sheet's row number as a number.
					sent: {
						first_name: row.first_name,
						email: row.email,
						country: row.country,
						tier: 'gold',
						row: row.sheet_row,
					},
				},
			})),
		);
		const stored = (await client().state()).profiles.find((profile) => profile.external_id === 'c-1');
		expect(stored?.custom_attributes).toMatchObject({ tier: 'gold', row: 2 });
	});

	test('attributes_set counts attributes, not the subscription groups set beside them', async () => {
		const result = await runNode(USER_NODE, {
			items: [{ external_id: 'c-5' }],
			parameters: {
				operation: 'updateAttributes',
				externalId: '={{ $json.external_id }}',
				attributesFields: { assignments: [{ id: '1', name: 'tier', value: 'gold', type: 'string' }] },
				additionalFields: {
					subscription_groups: { groups: [{ subscription_group_id: 'newsletter', subscription_state: 'subscribed' }] },
				},
			},
			endpoint: sandbox().url,
			apiKey,
		});

		expect(result.error).toBeUndefined();
		expect(result.output(USER).map((item) => item.json)).toEqual([
			{
				external_id: 'c-5',
				[OUTPUT_FIELD]: { status: 'updated', external_id: 'c-5', attributes_set: 1, sent: { tier: 'gold' } },
			},
		]);
		const [request] = await client().requests({ path: '/users/track' });
		expect((request.body as { attributes: IDataObject[] }).attributes).toEqual([
			{
				external_id: 'c-5',
				tier: 'gold',
				subscription_groups: [{ subscription_group_id: 'newsletter', subscription_state: 'subscribed' }],
			},
		]);
	});

	test('Track Purchase says "tracked" and keeps the order’s own fields', async () => {
		const order = { order_id: 'o-1001', customer_id: 'c-1', sku: 'sku-9', price: '59.90', currency: 'eur' };
		const result = await runNode(USER_NODE, {
			items: [order],
			parameters: {
				operation: 'trackPurchase',
				externalId: '={{ $json.customer_id }}',
				productId: '={{ $json.sku }}',
				price: '={{ $json.price }}',
				currency: '={{ $json.currency }}',
				time: '2026-12-01T10:00:00Z',
			},
			endpoint: sandbox().url,
			apiKey,
		});

		expect(result.error).toBeUndefined();
		expect(result.output(USER).map((item) => item.json)).toEqual([
			{ ...order, [OUTPUT_FIELD]: { status: 'tracked', external_id: 'c-1', purchases_tracked: 1 } },
		]);
	});

	test('a row keeps its fields as they are, its own `status` too, the node’s words in a field of their own, a "__proto__" key a key', async () => {
		// A key that is no identifier in code, as JSON and CSV rows bring them (JSON.parse keeps "__proto__" an own key).
		const row = JSON.parse(
			'{"customer_id": "c-1", "status": "lead", "__proto__": {"polluted": true}, "first name": "Ada", "nested": {"a": [1, 2]}}',
		) as IDataObject;
		const result = await runNode(USER_NODE, {
			items: [row],
			parameters: { operation: 'trackEvent', externalId: '={{ $json.customer_id }}', eventName: 'signed_up' },
			endpoint: sandbox().url,
			apiKey,
		});

		expect(result.error).toBeUndefined();
		const [answer] = result.output(USER).map((item) => item.json);
		expect(Object.getPrototypeOf(answer)).toBe(Object.prototype);
		expect((answer as { polluted?: unknown }).polluted).toBeUndefined();
		expect(Object.keys(answer)).toEqual(['customer_id', 'status', '__proto__', 'first name', 'nested', OUTPUT_FIELD]);
		expect(answer.status).toBe('lead');
		expect(wordsOf(answer)).toEqual({ status: 'tracked', external_id: 'c-1', events_tracked: 1 });
		expect(answer.nested).toEqual({ a: [1, 2] });
		expect(Object.getOwnPropertyDescriptor(answer, '__proto__')?.value).toEqual({ polluted: true });
	});

	test.each([
		['unsubscribe', 'unsubscribed'],
		['subscribe', 'subscribed'],
	])('%s says "%s"', async (operation, status) => {
		const result = await runNode(SUBSCRIPTION_NODE, {
			items: [{ external_id: 'c-3', reason: 'newsletter opt-out' }],
			parameters: { operation, subscriptionGroupId: 'newsletter', externalId: '={{ $json.external_id }}' },
			endpoint: sandbox().url,
			apiKey,
		});

		expect(result.error).toBeUndefined();
		expect(result.output(SUBSCRIPTION).map((item) => item.json)).toEqual([
			{
				external_id: 'c-3',
				reason: 'newsletter opt-out',
				[OUTPUT_FIELD]: {
					status,
					subscription_group_id: 'newsletter',
					subscription_state: status,
					external_id: 'c-3',
				},
			},
		]);
	});

	test('a row with its own `error` column under Retry On Fail: n8n tries the run again, and nothing is stored twice', async () => {
		const rows = [
			{ external_id: 'c-21', error: 'Card declined at checkout', ticket: 'T-1' },
			{ external_id: 'c-22', ticket: 'T-2' },
		];
		const result = await runWorkflow({
			nodes: [
				{
					name: USER,
					type: USER_NODE,
					parameters: {
						operation: 'trackEvent',
						externalId: '={{ $json.external_id }}',
						eventName: 'ticket_opened',
						time: '2026-11-01T12:00:00Z',
					},
					retryOnFail: { maxTries: 3, waitBetweenTries: 0 },
				},
			],
			connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
			items: rows,
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		});

		expect(result.error).toBeUndefined();
		// The row's own `error` is kept, so n8n reads the first item as a failed try and runs the node again.
		expect(result.output(USER).map((item) => item.json)).toEqual(
			rows.map((row) => ({
				...row,
				[OUTPUT_FIELD]: { status: 'tracked', external_id: row.external_id, events_tracked: 1 },
			})),
		);
		const events = (await client().state()).events;
		expect(events).toHaveLength(2);
		expect(await client().requests({ path: '/users/track' })).toHaveLength(1);
		// Each try logs its summary: the later ones answered from the first, sending nothing.
		const tries = result.logs.filter((entry) => /Engagement Platform \/users\/track: /.test(entry.message));
		expect(tries.map((entry) => entry.message.replace(/^.*: (\d+ items → \d+ requests?).*$/, '$1'))).toEqual([
			'2 items → 1 request',
			'2 items → 0 requests',
			'2 items → 0 requests',
		]);
	});

	test("Export answers with the platform's profiles as it holds them, without the row's fields", async () => {
		const synced = await runNode(USER_NODE, {
			items: ROWS,
			parameters: updateAttributes,
			endpoint: sandbox().url,
			apiKey,
		});
		expect(synced.error).toBeUndefined();

		const result = await runNode(USER_NODE, {
			items: [{ external_id: 'c-1', sheet_row: 2 }],
			parameters: {
				operation: 'export',
				identifyBy: 'external_id',
				externalId: '={{ $json.external_id }}',
				simplify: false,
				fieldsToExport: ['first_name'],
			},
			endpoint: sandbox().url,
			apiKey,
		});

		expect(result.output(USER).map((item) => item.json)).toEqual([{ external_id: 'c-1', first_name: 'Ada' }]);
	});

	test('a refused key is said once for the run, not pinned on a row, and counts in the singular', async () => {
		const result = await runNode(USER_NODE, {
			items: [...ROWS, { ...ROWS[0], external_id: 'c-9' }],
			parameters: updateAttributes,
			endpoint: sandbox().url,
			apiKey: 'not-a-key',
		});

		expect(result.error).toBeInstanceOf(NodeApiError);
		const error = result.error as NodeApiError;
		expect(error.message).toBe('Error authenticating credentials');
		expect(error.context.itemIndex).toBeUndefined();
		expect(error.description).toContain('3 items → 1 request: 0 succeeded, 3 failed');
		// Going on past failed items would not help: every request meets the refused key.
		expect(error.description).not.toMatch(/On Error|Continue On Fail/);
	});

	test('an invalid row: named by its row and its column, every other one listed, the On Error setting by its name', async () => {
		const result = await runNode(USER_NODE, {
			items: [
				{ customer_id: 'c-1', sku: 'sku-9', price: 'abc' },
				{ customer_id: 'c-2', sku: 'sku-9', price: 'n/a' },
			],
			parameters: {
				operation: 'trackPurchase',
				externalId: '={{ $json.customer_id }}',
				productId: '={{ $json.sku }}',
				price: '={{ $json.price }}',
				currency: 'EUR',
			},
			endpoint: sandbox().url,
			apiKey,
		});

		const error = result.error as Error & { description?: string; context?: { itemIndex?: number } };
		expect(error.message).toBe(`Row 1 (item 0, customer_id 'c-1'): "Price" expects a number but got 'abc'`);
		expect(error.context?.itemIndex).toBe(0);
		expect(error.description).toContain(
			'Nothing was sent. To send the valid items and get an error item for each invalid one, set Settings → On Error → "Continue (using error output)". 1 more item is invalid too:\n' +
				`- Row 2 (item 1, customer_id 'c-2'): "Price" expects a number but got 'n/a'`,
		);
		expect(error.description).not.toContain('Continue On Fail');
		expect(await client().requests()).toHaveLength(0);
	});
});
