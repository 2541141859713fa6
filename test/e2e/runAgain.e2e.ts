import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { SandboxClient, startSandbox } from '../../sandbox';
import { wordsOf } from '../support/nodeWords';
import { sandboxCredentials } from '../support/sandboxCredentials';
import { eventTimesByCustomer } from '../support/storedEvents';
import { N8N_APPS, N8N_APP_2X, ensureN8nApp, pinnedN8nVersion } from './support/n8nApp';
import { N8nInstance } from './support/n8nInstance';
import type { FinishedExecution } from './support/n8nRestClient';
import { N8nRestClient } from './support/n8nRestClient';

/**
 * Receipts run again in the real n8n application, on each line, as a marketer and a shop run them:
 * a shop's order webhook → one item per order → Send Transactional Email (External Send ID empty). One
 * customer is not on the platform yet, so the node stops the workflow after three receipts went; the
 * marketer adds the customer and clicks *Retry* on the failed execution (n8n's own
 * `POST /rest/executions/:id/retry`), with the saved workflow and with the current one. And the shop
 * delivers the same webhook twice. Each time every customer gets one receipt. And sign-ups tracked as
 * events with *Time* left empty (the time of the run) and a `{{ $now }}` property: Executions → Retry
 * records each customer's event once, all with the time the failed execution gave them. And orders
 * tracked as purchases with Track Once Per Key: a row with a bad currency fixed and the whole flow run
 * again (a new execution) stores each purchase once.
 */
const PACKAGE = 'n8n-nodes-engagement-platform';
const WORKFLOW_ID = 'epRunAgainE2e';
const WEBHOOK_ID = randomUUID();
const WEBHOOK_PATH = 'orders-paid';
const MESSAGE = 'Send Receipt';

const workflow = {
	id: WORKFLOW_ID,
	name: 'Paid orders → receipts',
	active: false,
	nodes: [
		{
			id: randomUUID(),
			name: 'Order Paid',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: WEBHOOK_ID,
			parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, options: {} },
		},
		{
			id: randomUUID(),
			name: 'One Item per Order',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [220, 0],
			parameters: { fieldToSplitOut: 'body.orders', options: {} },
		},
		{
			id: randomUUID(),
			name: MESSAGE,
			type: `${PACKAGE}.engagementPlatformMessage`,
			typeVersion: 2,
			position: [440, 0],
			parameters: {
				operation: 'sendTransactionalEmail',
				campaignId: 'order-receipt',
				identifyBy: 'external_id',
				externalId: '={{ $json.customer }}',
				triggerPropertiesInput: 'json',
				triggerPropertiesJson: '={{ { order_id: $json.order, total: $json.total } }}',
				// One request at a time, in order: the fourth customer's refusal comes after three receipts went.
				options: { parallelRequests: 1 },
			},
			credentials: { engagementPlatformApi: { id: 'epSandboxCredential', name: 'Engagement Platform (sandbox)' } },
		},
	],
	connections: {
		'Order Paid': { main: [[{ node: 'One Item per Order', type: 'main', index: 0 }]] },
		'One Item per Order': { main: [[{ node: MESSAGE, type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

const SIGNUP_WORKFLOW_ID = 'epRunAgainSignUpsE2e';
const SIGNUP_PATH = 'signed-up';
const TRACK = 'Track Sign-up';

const signUpWorkflow = {
	id: SIGNUP_WORKFLOW_ID,
	name: 'Sign-ups → events',
	active: false,
	nodes: [
		{
			id: randomUUID(),
			name: 'Signed Up',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: SIGNUP_PATH, options: {} },
		},
		{
			id: randomUUID(),
			name: 'One Item per Sign-up',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [220, 0],
			parameters: { fieldToSplitOut: 'body.signups', options: {} },
		},
		{
			id: randomUUID(),
			name: TRACK,
			type: `${PACKAGE}.engagementPlatformUser`,
			typeVersion: 2,
			position: [440, 0],
			parameters: {
				operation: 'trackEvent',
				identifyBy: 'external_id',
				externalId: '={{ $json.customer }}',
				eventName: 'signed_up',
				// Empty: the time of the run, as a new user leaves it.
				time: '',
				propertiesInput: 'json',
				propertiesJson: '={{ { synced_at: $now.toISO() } }}',
				additionalFields: { _update_existing_only: true },
				// One customer a request: the fourth is refused after the three before it were accepted.
				options: { batchSize: 1, parallelRequests: 1 },
			},
			credentials: { engagementPlatformApi: { id: 'epSandboxCredential', name: 'Engagement Platform (sandbox)' } },
		},
	],
	connections: {
		'Signed Up': { main: [[{ node: 'One Item per Sign-up', type: 'main', index: 0 }]] },
		'One Item per Sign-up': { main: [[{ node: TRACK, type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

const ORDER_FLOW_ID = 'epOrderFlowOnceE2e';
const ORDER_FLOW_PATH = 'orders-placed';
const PURCHASE = 'Track Purchase';

/** Orders → purchases, with Track Once Per Key by order and product: a failed row fixed and the flow run again. */
const orderFlow = {
	id: ORDER_FLOW_ID,
	name: 'Orders → purchases, once per order line',
	active: false,
	nodes: [
		{
			id: randomUUID(),
			name: 'Orders Placed',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: ORDER_FLOW_PATH, options: {} },
		},
		{
			id: randomUUID(),
			name: 'One Item per Order',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [220, 0],
			parameters: { fieldToSplitOut: 'body.orders', options: {} },
		},
		{
			id: randomUUID(),
			name: PURCHASE,
			type: `${PACKAGE}.engagementPlatformUser`,
			typeVersion: 2,
			position: [440, 0],
			onError: 'continueRegularOutput',
			parameters: {
				operation: 'trackPurchase',
				identifyBy: 'external_id',
				externalId: '={{ $json.customer }}',
				productId: '={{ $json.sku }}',
				currency: '={{ $json.currency }}',
				price: '={{ $json.price }}',
				propertiesInput: 'json',
				propertiesJson: '={{ { order_id: $json.order } }}',
				options: { trackOncePerKey: true, trackOncePerKeyKey: "={{ $json.order + '-' + $json.sku }}" },
			},
			credentials: { engagementPlatformApi: { id: 'epSandboxCredential', name: 'Engagement Platform (sandbox)' } },
		},
	],
	connections: {
		'Orders Placed': { main: [[{ node: 'One Item per Order', type: 'main', index: 0 }]] },
		'One Item per Order': { main: [[{ node: PURCHASE, type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

const ORDERS = (customers: string[]) =>
	customers.map((customer, index) => ({ order: `o-${customer}`, customer, total: 10 + index }));

let sandbox: Sandbox;
let client: SandboxClient;

beforeAll(async () => {
	sandbox = await startSandbox();
	client = new SandboxClient(sandbox.url);
});

afterAll(async () => {
	await sandbox?.close();
});

/** Receipts the platform holds, by customer. */
async function receiptsByCustomer(): Promise<Record<string, number>> {
	const state = (await client.state()) as unknown as {
		transactionalSends: Array<{ service_id: string; statuses: string[] }>;
		profiles: Array<{ service_id: string; external_id?: string }>;
	};
	const counts: Record<string, number> = {};
	for (const send of state.transactionalSends) {
		const customer = state.profiles.find((profile) => profile.service_id === send.service_id)?.external_id ?? '?';
		counts[customer] = (counts[customer] ?? 0) + 1;
	}
	return counts;
}

/** Until the platform has handed every receipt on from `queued`, as it has by the time a marketer retries. */
async function untilHandedOn(): Promise<void> {
	for (let wait = 0; wait < 200; wait++) {
		const { transactionalSends } = (await client.state()) as unknown as {
			transactionalSends: Array<{ statuses: string[] }>;
		};
		if (transactionalSends.every((send) => send.statuses.length > 1)) return;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error('the sandbox did not hand the receipts on');
}

describe.each(N8N_APPS.map((appFolder) => [pinnedN8nVersion(appFolder), appFolder] as const))(
	'receipts run again in n8n %s',
	(version, appFolder) => {
		let n8n: N8nInstance | undefined;
		let rest: N8nRestClient;
		let webhookUrl = '';
		let signUpUrl = '';
		let orderFlowUrl = '';

		beforeAll(async () => {
			const app = ensureN8nApp(appFolder);
			n8n = N8nInstance.create(app);
			await n8n.importCredentials(sandboxCredentials(sandbox.url));
			for (const saved of [workflow, signUpWorkflow, orderFlow]) {
				await n8n.importWorkflow(saved);
				// n8n 2.x publishes a workflow; 1.x activates it.
				await n8n.checkedCli(
					appFolder === N8N_APP_2X
						? ['publish:workflow', `--id=${saved.id}`]
						: ['update:workflow', `--id=${saved.id}`, '--active=true'],
				);
			}
			const baseUrl = await n8n.start();
			webhookUrl = `${baseUrl}/webhook/${WEBHOOK_PATH}`;
			signUpUrl = `${baseUrl}/webhook/${SIGNUP_PATH}`;
			orderFlowUrl = `${baseUrl}/webhook/${ORDER_FLOW_PATH}`;
			rest = await N8nRestClient.asOwner(app, baseUrl);
			// Readiness comes before the workflows are active: wait until the webhooks answer.
			const deadline = Date.now() + 120_000;
			for (const url of [webhookUrl, signUpUrl, orderFlowUrl])
				while ((await fetch(url, { method: 'POST', body: '{}' }).catch(() => undefined))?.status !== 200) {
					if (Date.now() > deadline) throw new Error(`the webhook never answered\n${n8n.log}`);
					await new Promise((resolve) => setTimeout(resolve, 500));
				}
		}, 300_000);

		afterAll(async () => {
			await n8n?.dispose();
		});

		beforeEach(async () => {
			await client.reset();
			await client.seed({
				profiles: ['c-1', 'c-2', 'c-3'].map((external_id) => ({ external_id })),
				campaigns: [{ id: 'order-receipt', kind: 'transactional' }],
			});
		});

		/** Posts the shop's webhook and returns the execution it started, finished. */
		async function deliver(customers: string[]): Promise<FinishedExecution> {
			const known = (await rest.executions(WORKFLOW_ID)).map((execution) => execution.id);
			const answer = await fetch(webhookUrl, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ orders: ORDERS(customers) }),
			});
			expect(answer.status).toBe(200);
			return await rest.nextExecution(WORKFLOW_ID, known, 60_000);
		}

		async function retry(
			failed: FinishedExecution,
			loadWorkflow: boolean,
			workflowId = WORKFLOW_ID,
		): Promise<FinishedExecution> {
			const known = (await rest.executions(workflowId)).map((execution) => execution.id);
			await rest.post(`/executions/${failed.id}/retry`, { loadWorkflow });
			return await rest.nextExecution(workflowId, known, 60_000);
		}

		/** Posts the sign-ups' webhook and returns the execution it started, finished. */
		async function signUp(customers: string[]): Promise<FinishedExecution> {
			const known = (await rest.executions(SIGNUP_WORKFLOW_ID)).map((execution) => execution.id);
			const answer = await fetch(signUpUrl, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ signups: customers.map((customer) => ({ customer })) }),
			});
			expect(answer.status).toBe(200);
			return await rest.nextExecution(SIGNUP_WORKFLOW_ID, known, 60_000);
		}

		/** Posts the orders and returns the execution they started, finished. */
		async function placeOrders(orders: IDataObject[]): Promise<FinishedExecution> {
			const known = (await rest.executions(ORDER_FLOW_ID)).map((execution) => execution.id);
			const answer = await fetch(orderFlowUrl, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ orders }),
			});
			expect(answer.status).toBe(200);
			return await rest.nextExecution(ORDER_FLOW_ID, known, 60_000);
		}

		/** Purchases the platform holds, by order. */
		async function purchasesByOrder(): Promise<Record<string, number>> {
			const counts: Record<string, number> = {};
			for (const purchase of (await client.state()).purchases) {
				const order = String(purchase.properties?.order_id);
				counts[order] = (counts[order] ?? 0) + 1;
			}
			return counts;
		}

		test(`${version}: Track Once Per Key: a row with a bad currency fixed and the flow run again stores each purchase once`, async () => {
			const orders = [
				{ order: 'B-2001', customer: 'c-1', sku: 'sku-1', currency: 'EUR', price: '19.90' },
				{ order: 'B-2002', customer: 'c-2', sku: 'sku-2', currency: 'EURO', price: '9.90' },
				{ order: 'B-2003', customer: 'c-3', sku: 'sku-3', currency: 'EUR', price: '29.90' },
			];
			const first = await placeOrders(orders);
			const statuses = (execution: FinishedExecution) =>
				(execution.outputs[PURCHASE] ?? []).map((item) => wordsOf(item.json as IDataObject).status);
			expect(statuses(first)).toEqual(['tracked', 'failed', 'tracked']);

			const again = await placeOrders(orders.map((row) => ({ ...row, currency: 'EUR' })));

			console.log(`n8n ${version}, orders run again after the fix: ${JSON.stringify(await purchasesByOrder())}`);
			expect(await purchasesByOrder()).toEqual({ 'B-2001': 1, 'B-2002': 1, 'B-2003': 1 });
			expect(statuses(again)).toEqual(['already_tracked', 'tracked', 'already_tracked']);
		}, 180_000);

		test.each([
			['the saved workflow', false],
			['the current workflow', true],
		])(
			`${version}: Track Event with Time empty, Executions → Retry with %s after the customer was added: one event each, at the first run's time`,
			async (_, loadWorkflow) => {
				const failed = await signUp(['c-1', 'c-2', 'c-3', 'c-4']);
				expect(failed.status).toBe('error');
				const [firstTime] = (await eventTimesByCustomer(client))['c-1'];

				await client.seed({ profiles: [{ external_id: 'c-4' }] });
				const retried = await retry(failed, loadWorkflow, SIGNUP_WORKFLOW_ID);

				expect(retried.status).toBe('success');
				expect(retried.mode).toBe('retry');
				const times = await eventTimesByCustomer(client);
				console.log(
					`n8n ${version}, sign-ups retried with the ${loadWorkflow ? 'current' : 'saved'} workflow: ${JSON.stringify(times)}`,
				);
				expect(times).toEqual({ 'c-1': [firstTime], 'c-2': [firstTime], 'c-3': [firstTime], 'c-4': [firstTime] });
				expect((retried.outputs[TRACK] ?? []).map((item) => wordsOf(item.json as IDataObject).status)).toEqual([
					'tracked',
					'tracked',
					'tracked',
					'tracked',
				]);
			},
			180_000,
		);

		const answers = (execution: FinishedExecution) =>
			(execution.outputs[MESSAGE] ?? []).map((item) => wordsOf(item.json as IDataObject));

		test.each([
			['the saved workflow', false],
			['the current workflow', true],
		])(
			`${version}: Executions → Retry with %s after the customer was added: one receipt each`,
			async (_, loadWorkflow) => {
				const customers = ['c-1', 'c-2', 'c-3', 'c-4'];
				const failed = await deliver(customers);
				expect(failed.status).toBe('error');
				expect(await receiptsByCustomer()).toEqual({ 'c-1': 1, 'c-2': 1, 'c-3': 1 });
				await untilHandedOn();

				await client.seed({ profiles: [{ external_id: 'c-4' }] });
				const retried = await retry(failed, loadWorkflow);

				expect(retried.status).toBe('success');
				expect(retried.mode).toBe('retry');
				expect(await receiptsByCustomer()).toEqual({ 'c-1': 1, 'c-2': 1, 'c-3': 1, 'c-4': 1 });
				expect(answers(retried).map((answer) => answer.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
				console.log(
					`n8n ${version}, retry with ${loadWorkflow ? 'the current' : 'the saved'} workflow: ${JSON.stringify(await receiptsByCustomer())}`,
				);
			},
			180_000,
		);

		test(`${version}: the shop delivers the webhook twice: one receipt each, the second run answered duplicate`, async () => {
			await client.seed({ profiles: [{ external_id: 'c-4' }] });
			const customers = ['c-1', 'c-2', 'c-3', 'c-4'];
			const first = await deliver(customers);
			expect(first.status).toBe('success');
			await untilHandedOn();

			const second = await deliver(customers);

			expect(second.status).toBe('success');
			expect(await receiptsByCustomer()).toEqual({ 'c-1': 1, 'c-2': 1, 'c-3': 1, 'c-4': 1 });
			expect(answers(second).map((answer) => answer.status)).toEqual([
				'duplicate',
				'duplicate',
				'duplicate',
				'duplicate',
			]);
			expect(answers(second).map((answer) => answer.dispatch_id)).toEqual(
				answers(first).map((answer) => answer.dispatch_id),
			);
		}, 180_000);
	},
);
