/**
 * The row comes out as it went in. Sheets and CRMs hand over rows with columns called `status`, `id`,
 * `error` and `message`; the next node (Append or Update Row mapped automatically, a shop update by
 * `{{ $json.id }}`) writes the item back. Every column arrives unchanged, and the node's words are in
 * one field beside them; a failed item keeps its row too, whichever output it leaves by.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../harness';
import { CATALOG, CATALOG_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { OUTPUT_FIELD, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

const purchase: INodeParameters = {
	operation: 'trackPurchase',
	externalId: '={{ $json.customer_id }}',
	productId: '={{ $json.sku }}',
	currency: '={{ $json.currency }}',
	price: '={{ $json.price }}',
};
const ORDERS: IDataObject[] = [
	{ order_id: 'o-1', customer_id: 'c-1', sku: 'mug', currency: 'EUR', price: '12.50', status: 'paid', id: 7 },
	// Refused: no price.
	{
		order_id: 'o-2',
		customer_id: 'c-2',
		sku: 'kettle',
		currency: 'EUR',
		price: '',
		status: 'paid',
		error: 'stale reason',
		message: 'leave at the door',
	},
];

const track = async (settings: {
	onError?: 'continueErrorOutput' | 'continueRegularOutput';
	options?: INodeParameters;
}) =>
	await runNode(USER_NODE, {
		items: ORDERS,
		parameters: { ...purchase, options: settings.options ?? {} },
		endpoint: sandbox().url,
		apiKey,
		onError: settings.onError,
	});

const json = (result: RunResult, output = 0) => result.output(USER, output).map((item) => item.json);

test("an orders sheet's status and id come out as they went in; what happened is in engagementPlatform", async () => {
	const result = await track({ onError: 'continueErrorOutput' });

	const [tracked] = json(result);
	expect(tracked).toEqual({
		...ORDERS[0],
		[OUTPUT_FIELD]: { status: 'tracked', external_id: 'c-1', purchases_tracked: 1 },
	});
	expect((await client().stats()).purchases).toBe(1);
});

test("on the error branch the row arrives with this run's reason in error, and its own message kept", async () => {
	const result = await track({ onError: 'continueErrorOutput' });

	const [refused] = json(result, 1);
	const { error, ...rest } = refused;
	const { error: stale, ...row } = ORDERS[1];
	expect(rest).toEqual(row);
	expect(stale).toBe('stale reason');
	expect(error).toMatch(/^Row 2 \(item 1, customer_id 'c-2'\): "Price" /);
	expect(error).toContain(" — Not sent: the node refused this item's input");
});

test('on the regular output a failed item keeps its row, with error and the answer failed', async () => {
	const result = await track({ onError: 'continueRegularOutput' });

	const [, failed] = json(result);
	expect(failed).toMatchObject({ order_id: 'o-2', customer_id: 'c-2', status: 'paid', message: 'leave at the door' });
	expect(failed.error).toMatch(/"Price"/);
	expect(wordsOf(failed)).toMatchObject({ status: 'failed', delivery: 'invalid', field: 'Price' });
});

test('Output Field Name puts the words elsewhere, so an earlier Engagement Platform node’s stay', async () => {
	const earlier = { status: 'subscribed' };
	const result = await runNode(USER_NODE, {
		items: [{ ...ORDERS[0], [OUTPUT_FIELD]: earlier }],
		parameters: { ...purchase, options: { outputField: 'purchase' } },
		endpoint: sandbox().url,
		apiKey,
	});

	const [item] = json(result);
	expect(item[OUTPUT_FIELD]).toEqual(earlier);
	expect(statusOf(item, 'purchase')).toBe('tracked');
});

test("a shop product's own id and status come out as they went in, beside the catalog's answer", async () => {
	await client().seed({ catalogs: [{ name: 'products', fields: [{ name: 'name', type: 'string' }] }] });
	const product = { id: 4711, sku: 'mug', name: 'Mug', status: 'active' };
	const result = await runNode(CATALOG_NODE, {
		items: [product],
		parameters: {
			operation: 'replaceItems',
			catalogName: 'products',
			itemId: '={{ $json.sku }}',
			fieldsInput: 'json',
			fieldsJson: '={{ { name: $json.name } }}',
		},
		endpoint: sandbox().url,
		apiKey,
	});

	const [item] = result.output(CATALOG).map(({ json: output }) => output);
	expect(item).toMatchObject(product);
	expect(statusOf(item)).toBe('accepted');
});
