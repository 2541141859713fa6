/**
 * The quick start's main job: the "shop orders → purchases" example workflow, fed 1,000 orders,
 * against the local sandbox. It runs in the real n8n application when that is installed
 * (scripts/n8n/install.sh, done by `npm run test:e2e`), else in n8n's engine in-process.
 *
 *   npm run demo                          1,000 orders
 *   npm run demo -- 10000                 any number of orders (also --orders 10000)
 *   npm run demo -- --in-process          skip the n8n application even when installed
 */
import { execFileSync } from 'node:child_process';

import type { IDataObject } from 'n8n-workflow';

import { DEMO_API_KEY, SandboxClient, startSandbox } from '../sandbox';
import { N8nInstance } from '../test/e2e/support/n8nInstance';
import { PROJECT_ROOT, installedN8nApp } from '../test/e2e/support/n8nApp';
import { runExampleWorkflow } from '../test/harness/runExampleWorkflow';
import type { Example } from '../test/support/examples';
import { loadExamples } from '../test/support/examples';
import { statusOf, wordsOf } from '../test/support/nodeWords';
import { demoOrderCount } from './demoArguments';

const argument = (name: string) => process.argv.includes(`--${name}`);
const orderCount = demoOrderCount(process.argv.slice(2));
const PRODUCTS = [
	{ sku: 'mug-classic', price: 12.5 },
	{ sku: 'tea-sampler', price: 24 },
	{ sku: 'kettle-steel', price: 59.9 },
];

/** Orders shaped like the example's own; order #1017 carries a mistake a marketer might make. */
function demoOrders(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => {
		const lines = PRODUCTS.slice(0, 1 + (i % PRODUCTS.length)).map((p) => ({
			sku: p.sku,
			price: p.price,
			quantity: 1 + (i % 2),
		}));
		return {
			order_id: `#${1000 + i}`,
			customer_id: `shop-${i % Math.max(1, Math.floor(count * 0.8))}`,
			email: `customer${i}@example.com`,
			created_at: new Date(Date.UTC(2026, 10, 1, 9) + i * 60_000).toISOString(),
			currency: i === 17 ? 'dollars' : 'USD',
			total: lines.reduce((sum, line) => sum + line.price * line.quantity, 0),
			line_items: lines,
		};
	});
}

/** The example with its sample orders replaced by the demo's. */
function withOrders(example: Example, orders: IDataObject[]): Example['workflow'] {
	const workflow = structuredClone(example.workflow);
	const source = workflow.nodes.find((node) => node.name === 'Shop Orders');
	if (!source) throw new Error('the orders example has no "Shop Orders" node');
	source.parameters.jsonOutput = JSON.stringify({ orders });
	return workflow;
}

async function runInN8n(
	workflow: Example['workflow'],
	sandboxUrl: string,
): Promise<{ engine: string; output: IDataObject[]; error?: string }> {
	const app = installedN8nApp()!;
	execFileSync('npm', ['run', '-s', 'build'], { cwd: PROJECT_ROOT, stdio: 'ignore' });
	const n8n = N8nInstance.create(app);
	try {
		await n8n.importCredentials([
			{
				id: 'epSandboxCredential',
				name: 'Engagement Platform (sandbox)',
				type: 'engagementPlatformApi',
				data: { restEndpoint: sandboxUrl, apiKey: DEMO_API_KEY },
			},
		]);
		await n8n.importWorkflow(workflow);
		const run = await n8n.execute(workflow.id);
		return {
			engine: 'the n8n application (n8n execute, Node 24)',
			output: (run.outputs['Track Orders'] ?? []).map((item) => item.json as IDataObject),
			error: run.error?.message ?? (run.ok ? undefined : run.raw.stderr.slice(-500)),
		};
	} finally {
		await n8n.dispose();
	}
}

async function runInProcess(
	workflow: Example['workflow'],
	sandboxUrl: string,
): Promise<{ engine: string; output: IDataObject[]; error?: string }> {
	const result = await runExampleWorkflow(workflow, {
		engagementPlatformApi: { restEndpoint: sandboxUrl, apiKey: DEMO_API_KEY },
	});
	return {
		engine: "n8n's engine in-process (n8n-core WorkflowExecute; install the app with `npm run test:e2e` to use it)",
		output: result.output('Track Orders').map((item) => item.json),
		error: result.error?.message,
	};
}

async function main(): Promise<void> {
	const example = loadExamples().find((e) => e.name === 'orders-to-purchases')!;
	const orders = demoOrders(orderCount);
	const workflow = withOrders(example, orders);
	const sandbox = await startSandbox({ seed: 'demo' });
	const client = new SandboxClient(sandbox.url);
	const before = await client.stats();

	console.log(`Engagement Platform demo: sandbox at ${sandbox.url} (in memory, no account needed)`);
	console.log(`Workflow: examples/orders-to-purchases.json with ${orders.length.toLocaleString('en-US')} orders\n`);

	const started = performance.now();
	const useN8n = !argument('in-process') && installedN8nApp() !== undefined;
	const { engine, output, error } = useN8n
		? await runInN8n(workflow, sandbox.url)
		: await runInProcess(workflow, sandbox.url);
	const seconds = (performance.now() - started) / 1000;

	const requests = await client.requests({ path: '/users/track' });
	const after = await client.stats();
	// What the items say, in the node's words beside each order's own fields (engagementPlatform): tracked;
	// replaced or unchanged when nothing of an item was sent; failed, with the reason.
	const failed = output.filter((item) => statusOf(item) === 'failed');
	const said = new Map<string, number>();
	for (const item of output) {
		const status = String(statusOf(item));
		if (status !== 'failed') said.set(status, (said.get(status) ?? 0) + 1);
	}
	// Tracked items whose attributes a later order of the same customer set instead (the platform keeps the last word).
	const attributesReplaced = output.filter((item) => statusOf(item) !== 'failed' && wordsOf(item).replaced).length;
	const sent = { attributes: 0, events: 0, purchases: 0 };
	for (const request of requests) {
		const body = request.body as Record<keyof typeof sent, unknown[] | undefined>;
		for (const key of Object.keys(sent) as Array<keyof typeof sent>) sent[key] += body[key]?.length ?? 0;
	}

	const row = (label: string, value: string) => console.log(`  ${label.padEnd(15)} ${value}`);
	row('Engine', engine);
	row('Items in', `${orders.length.toLocaleString('en-US')} orders`);
	row(
		'Requests sent',
		`${requests.length} × POST /users/track, carrying ${sent.attributes} attributes, ${sent.events} events, ${sent.purchases} purchases`,
	);
	const words = [...said].map(([status, count]) => `${count.toLocaleString('en-US')} ${status}`);
	row('Items out', `${output.length.toLocaleString('en-US')}: ${[...words, `${failed.length} failed`].join(', ')}`);
	if (attributesReplaced > 0)
		row(
			'',
			`${attributesReplaced.toLocaleString('en-US')} tracked orders left their attributes to a later order of the same customer (replaced)`,
		);
	for (const item of failed.slice(0, 5)) row('', String(wordsOf(item).error));
	row(
		'Sandbox stored',
		`${after.events - before.events} events, ${after.purchases - before.purchases} purchases, ${after.profiles - before.profiles} new profiles`,
	);
	row('Time', `${seconds.toFixed(2)} s`);
	if (error) row('Workflow error', error);
	console.log(`\nFirst output item: ${JSON.stringify(output[0])}`);

	await sandbox.close();
	if (error || output.length !== orders.length) process.exitCode = 1;
}

void main();
