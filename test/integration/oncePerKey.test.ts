/**
 * Fix and run again, safely. A run partly fails (a currency `EURO`); the marketer fixes the row upstream
 * and runs the whole workflow again, as n8n's Retry would use the saved input. With Track Once Per Key
 * each purchase is stored once: an item this node got accepted before is answered `already_tracked`.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../harness';
import { runWorkflow } from '../harness';
import { deduplicationStore } from '../harness/deduplicationStore';
import { USER_NODE } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { installVirtualClock, moveClockBy } from '../sequences/virtualClock';
import { useSandbox } from './sandboxLifecycle';

// The node's and the sandbox's Date read a clock the tests can move on (Remember For).
installVirtualClock();

const { sandbox, client, apiKey } = useSandbox();
const store = deduplicationStore();
beforeEach(() => store.reset());

const NODE = 'Track Purchase';

const trackPurchase = (options: IDataObject = {}): INodeParameters => ({
	operation: 'trackPurchase',
	identifyBy: 'external_id',
	externalId: '={{ $json.customer }}',
	productId: '={{ $json.sku }}',
	currency: '={{ $json.currency }}',
	price: '={{ $json.price }}',
	propertiesInput: 'json',
	propertiesJson: '={{ { order_id: $json.order_id } }}',
	options: { trackOncePerKey: true, ...options },
});

async function orderFlow(rows: IDataObject[], parameters = trackPurchase()): Promise<RunResult> {
	return await runWorkflow({
		workflowId: 'order-flow',
		nodes: [
			{ id: 'e5e5e5e5-0000-4000-8000-000000000001', name: NODE, type: USER_NODE, parameters, continueOnFail: true },
		],
		connections: { Start: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		items: rows,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
	});
}

const ORDERS = [
	{ order_id: 'B-2001', customer: 'c-1', sku: 'sku-1', currency: 'EUR', price: '19.90' },
	{ order_id: 'B-2002', customer: 'c-2', sku: 'sku-2', currency: 'EURO', price: '9.90' },
	{ order_id: 'B-2003', customer: 'c-3', sku: 'sku-3', currency: 'EUR', price: '29.90' },
];
const FIXED = ORDERS.map((row) => (row.currency === 'EURO' ? { ...row, currency: 'EUR' } : row));

/** How many purchases the platform holds per order. */
async function purchasesByOrder(): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const purchase of (await client().state()).purchases) {
		const order = String(purchase.properties?.order_id);
		counts[order] = (counts[order] ?? 0) + 1;
	}
	return counts;
}

const statuses = (result: RunResult) => result.output(NODE).map(({ json }) => statusOf(json));
const hintsOf = (result: RunResult) =>
	(result.run.data.resultData.runData[NODE][0].hints ?? []).map(({ message }) => message);

test('a run with one bad row, fixed and run again: each purchase is stored once', async () => {
	const first = await orderFlow(ORDERS);
	expect(statuses(first)).toEqual(['tracked', 'failed', 'tracked']);

	const again = await orderFlow(FIXED);

	expect(await purchasesByOrder()).toEqual({ 'B-2001': 1, 'B-2002': 1, 'B-2003': 1 });
	expect(statuses(again)).toEqual(['already_tracked', 'tracked', 'already_tracked']);
	const since = Date.parse(String(wordsOf(again.output(NODE)[0].json).trackedSince));
	expect(since).toBeLessThanOrEqual(Date.now());
	expect(Date.now() - since).toBeLessThan(31 * 86_400_000);
	expect(hintsOf(again)).toContainEqual(expect.stringMatching(/^2 items were not sent: this node got the same key/));
});

test('a key from the row: an order sent again with another price is still the same purchase', async () => {
	const byOrder = trackPurchase({ trackOncePerKeyKey: '={{ $json.order_id }}' });
	await orderFlow(FIXED, byOrder);
	const again = await orderFlow(
		FIXED.map((row) => ({ ...row, price: '1.00' })),
		byOrder,
	);

	expect(statuses(again)).toEqual(['already_tracked', 'already_tracked', 'already_tracked']);
	expect(await purchasesByOrder()).toEqual({ 'B-2001': 1, 'B-2002': 1, 'B-2003': 1 });
});

test('the same key twice in one run: the later item is answered with the earlier one', async () => {
	const result = await orderFlow([FIXED[0], FIXED[0]]);

	expect(statuses(result)).toEqual(['tracked', 'already_tracked']);
	expect(wordsOf(result.output(NODE)[1].json).sameKeyAs).toBe(0);
	expect(await purchasesByOrder()).toEqual({ 'B-2001': 1 });
});

test('an item the platform did not accept is not remembered: the next run sends it', async () => {
	await client().injectFaults([{ path: '/users/track', kind: 'status', status: 400, times: 1 }]);
	const refused = await orderFlow([FIXED[0]]);
	expect(statuses(refused)).toEqual(['failed']);

	const again = await orderFlow([FIXED[0]]);
	expect(statuses(again)).toEqual(['tracked']);
	expect(await purchasesByOrder()).toEqual({ 'B-2001': 1 });
});

test('Preview shows which items it would leave out, and remembers nothing', async () => {
	await orderFlow([FIXED[0]]);
	const preview = await orderFlow(FIXED, trackPurchase({ preview: true }));

	expect(preview.output(NODE).map(({ json }) => wordsOf(json).alreadyTracked ?? false)).toEqual([true, false, false]);
	const real = await orderFlow(FIXED);
	expect(statuses(real)).toEqual(['already_tracked', 'tracked', 'tracked']);
});

test('Forget What Was Tracked: every item is tracked again, and remembered anew', async () => {
	await orderFlow([FIXED[0]]);
	const forgot = await orderFlow([FIXED[0]], trackPurchase({ forgetTracked: true }));
	expect(statuses(forgot)).toEqual(['tracked']);
	expect(statuses(await orderFlow([FIXED[0]]))).toEqual(['already_tracked']);
	expect(await purchasesByOrder()).toEqual({ 'B-2001': 2 });
});

test('Remember For (Days): a key older than that is tracked again', async () => {
	await orderFlow([FIXED[0]], trackPurchase({ rememberDays: 1 }));
	moveClockBy(2 * 86_400_000);
	const later = await orderFlow([FIXED[0]], trackPurchase({ rememberDays: 1 }));
	expect(statuses(later)).toEqual(['tracked']);
	expect(await purchasesByOrder()).toEqual({ 'B-2001': 2 });
});

test('without the option, a second run stores the purchases again (as the platform keeps duplicates)', async () => {
	const plain = trackPurchase();
	delete (plain.options as IDataObject).trackOncePerKey;
	await orderFlow(FIXED, plain);
	await orderFlow(FIXED, plain);
	expect(await purchasesByOrder()).toEqual({ 'B-2001': 2, 'B-2002': 2, 'B-2003': 2 });
});

test('two executions at once, on a store both read and write back whole: each keeps what it tracked', async () => {
	// Each record call waits between its read and its write, so that one run writes back a row read before
	// the other's write, dropping what the other recorded.
	store.race = {
		database: 'postgres',
		between: async (method) =>
			await new Promise((resolve) => setTimeout(resolve, method === 'checkProcessedAndRecord' ? 30 : 0)),
	};
	const results = await Promise.all([orderFlow([FIXED[0]]), orderFlow([FIXED[2]])]);
	store.race = undefined;
	expect(results.map(statuses)).toEqual([['tracked'], ['tracked']]);
	expect(store.raced.overwrites).toBeGreaterThan(0);

	expect(statuses(await orderFlow([FIXED[0], FIXED[2]]))).toEqual(['already_tracked', 'already_tracked']);
	expect(await purchasesByOrder()).toEqual({ 'B-2001': 1, 'B-2003': 1 });
});

test('two executions at once, one refused: the refused order is not remembered, however the writes interleave', async () => {
	store.race = {
		database: 'postgres',
		between: async (method) =>
			await new Promise((resolve) => setTimeout(resolve, method === 'checkProcessedAndRecord' ? 30 : 0)),
	};
	// The first request the platform gets is refused whole: one run's order, whichever comes first.
	await client().injectFaults([{ path: '/users/track', kind: 'status', status: 400, times: 1 }]);
	const results = await Promise.all([orderFlow([FIXED[0]]), orderFlow([FIXED[2]])]);
	store.race = undefined;
	expect(results.map(statuses).flat().sort()).toEqual(['failed', 'tracked']);

	const again = await orderFlow([FIXED[0], FIXED[2]]);
	expect(await purchasesByOrder()).toEqual({ 'B-2001': 1, 'B-2003': 1 });
	expect(statuses(again).sort()).toEqual(['already_tracked', 'tracked']);
});

test("Track User Data: an item's event is tracked once, its attributes are sent as always", async () => {
	const parameters: INodeParameters = {
		operation: 'trackUserData',
		identifyBy: 'external_id',
		externalId: '={{ $json.customer }}',
		attributesInput: 'json',
		attributesJson: '={{ { plan: $json.plan } }}',
		eventsJson: '={{ [{ name: "signed_up", time: "2026-11-24T02:00:00Z" }] }}',
		options: { trackOncePerKey: true },
	};
	const row = { customer: 'c-9', plan: 'gold' };
	await orderFlow([row], parameters);
	const again = await orderFlow([row], parameters);

	const words = wordsOf(again.output(NODE)[0].json);
	expect(words.status).not.toBe('already_tracked');
	expect(words.alreadyTracked).toEqual({ trackedSince: expect.any(String) });
	const { events, profiles } = await client().state();
	expect(events.filter(({ name }) => name === 'signed_up')).toHaveLength(1);
	expect(profiles.find(({ external_id }) => external_id === 'c-9')?.custom_attributes.plan).toBe('gold');
	const tracks = await client().requests({ path: '/users/track' });
	expect((tracks.at(-1)!.body as IDataObject).events).toBeUndefined();
});

test('Track Event: the same event run again is answered already_tracked', async () => {
	const parameters: INodeParameters = {
		operation: 'trackEvent',
		identifyBy: 'external_id',
		externalId: '={{ $json.customer }}',
		eventName: 'ticket_closed',
		options: { trackOncePerKey: true, trackOncePerKeyKey: '={{ $json.ticket }}' },
	};
	await orderFlow([{ customer: 'c-1', ticket: 'T-1' }], parameters);
	const again = await orderFlow([{ customer: 'c-1', ticket: 'T-1', note: 'edited' }], parameters);
	expect(statuses(again)).toEqual(['already_tracked']);
	expect((await client().state()).events.filter(({ name }) => name === 'ticket_closed')).toHaveLength(1);
});
