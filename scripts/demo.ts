/**
 * The quick start's main job: a "Shopify orders → purchases" workflow executed by n8n's own
 * engine (n8n-core WorkflowExecute) against the local sandbox. No account needed.
 *
 *   npm run demo               1,000 orders
 *   npm run demo -- 10000      any number of orders
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO_API_KEY, SandboxClient, startSandbox } from '../sandbox';
import { runWorkflow } from '../test/harness';

const ORDER_COUNT = Number(process.argv[2] ?? 1000);
const PRODUCTS = [
	{ sku: 'mug-classic', price: 12.5 },
	{ sku: 'tea-sampler', price: 24 },
	{ sku: 'kettle-steel', price: 59.9 },
];

/** Orders as a shop's "order created" node would give them; one carries a mistake a marketer might make. */
function demoOrders(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => {
		const lines = PRODUCTS.slice(0, 1 + (i % PRODUCTS.length));
		return {
			order_id: `#${1000 + i}`,
			customer_id: `customer-${i % Math.max(1, Math.floor(count * 0.8))}`,
			email: `customer${i}@example.com`,
			created_at: new Date(Date.UTC(2026, 10, 1, 9, 0, 0) + i * 60_000).toISOString(),
			currency: i === 17 ? 'dollars' : 'USD',
			line_items: lines.map((line) => ({ sku: line.sku, price: line.price, quantity: 1 + (i % 2) })),
			total: lines.reduce((sum, line) => sum + line.price, 0),
		};
	});
}

const userNode = {
	name: 'Track Orders',
	type: 'n8n-nodes-engagement-platform.engagementPlatformUser',
	continueOnFail: true,
	parameters: {
		operation: 'trackUserData',
		identifyBy: 'external_id',
		externalId: '={{ $json.customer_id }}',
		attributesInput: 'json',
		attributesJson: '={{ { email: $json.email, last_order_total: $json.total } }}',
		eventsJson: '={{ [{ name: "order_placed", time: $json.created_at, properties: { order_id: $json.order_id } }] }}',
		purchasesJson:
			'={{ $json.line_items.map(l => ({ product_id: l.sku, currency: $json.currency, price: l.price, quantity: l.quantity, time: $json.created_at })) }}',
	},
};

async function main(): Promise<void> {
	const sandbox = await startSandbox({ seed: 'demo' });
	const client = new SandboxClient(sandbox.url);
	await client.reset({ seed: 'demo' });
	const before = await client.stats();
	const orders = demoOrders(ORDER_COUNT);

	console.log(`Engagement Platform demo: sandbox at ${sandbox.url} (in memory, no account needed)`);
	console.log(`Workflow: Start (${orders.length.toLocaleString('en-US')} orders) → ${userNode.name} (User · Track User Data)\n`);

	const started = performance.now();
	const result = await runWorkflow({
		nodes: [userNode],
		connections: { Start: { main: [[{ node: userNode.name, type: 'main', index: 0 }]] } },
		items: orders,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox.url, apiKey: DEMO_API_KEY } },
	});
	const seconds = (performance.now() - started) / 1000;

	const output = result.output(userNode.name);
	const requests = await client.requests({ path: '/users/track' });
	const after = await client.stats();
	const failed = output.filter((item) => item.json.error);
	const objects = { attributes: 0, events: 0, purchases: 0 };
	for (const request of requests) {
		const body = request.body as Record<keyof typeof objects, unknown[] | undefined>;
		for (const key of Object.keys(objects) as Array<keyof typeof objects>) objects[key] += body[key]?.length ?? 0;
	}

	const row = (label: string, value: string) => console.log(`  ${label.padEnd(16)} ${value}`);
	row('Items in', orders.length.toLocaleString('en-US'));
	row('Requests sent', `${requests.length} × POST /users/track, carrying ${objects.attributes} attributes, ${objects.events} events, ${objects.purchases} purchases`);
	row('Items out', `${output.length.toLocaleString('en-US')}: ${output.length - failed.length} processed, ${failed.length} failed`);
	for (const item of failed) {
		const index = (item.pairedItem as { item: number }).item;
		row('', `order ${String(orders[index].order_id)} (item ${index}): ${String(item.json.error)}`);
	}
	row('Sandbox stored', `${after.events - before.events} events, ${after.purchases - before.purchases} purchases, ${after.profiles - before.profiles} new profiles`);
	row('Time', `${seconds.toFixed(2)} s (${Math.round(orders.length / seconds).toLocaleString('en-US')} items/s)`);
	if (result.error) row('Workflow error', result.error.message);
	console.log(`\nFirst output item: ${JSON.stringify(output[0]?.json)}`);

	await sandbox.close();
	if (result.error || output.length !== orders.length) process.exitCode = 1;
}

void main();
