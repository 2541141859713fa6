/**
 * The sandbox sends real postbacks: a transactional email sent through its API goes sent →
 * processed → delivered (or bounced), and it POSTs each status to the URL of its "transactional event
 * status postback" setting, here the trigger's production URL on the harness's webhook server
 * (n8n-core's WebhookContext and WorkflowExecute; see test/harness/webhook.ts).
 */
import { randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { StateView } from '../../sandbox/adminApiTypes';
import type { WebhookServer } from '../harness';
import { startWebhookServer } from '../harness';
import { TRIGGER, TRIGGER_NODE } from '../support/nodeTypes';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

const TOKEN = `tok-${randomBytes(16).toString('hex')}`;

let server: WebhookServer;

beforeEach(async () => {
	await client().seed({
		profiles: [
			{ external_id: 'customer-1001', email: 'ada@example.com' },
			{ external_id: 'customer-1002', email: 'full@bounce.example.com' },
		],
		campaigns: [{ id: 'order-receipt', kind: 'transactional' }],
	});
	server = await startWebhookServer({
		trigger: {
			type: TRIGGER_NODE,
			name: TRIGGER,
			parameters: { authentication: 'headerAuth', statuses: ['delivered', 'bounced'] },
		},
		credentials: { engagementPlatformPostbackAuthApi: { headerName: 'X-Postback-Token', headerToken: TOKEN } },
	});
});
afterEach(async () => await server.close());

async function sendReceipt(externalId: string, externalSendId: string): Promise<string> {
	const response = await fetch(`${sandbox().url}/transactional/v1/campaigns/order-receipt/send`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` },
		body: JSON.stringify({ external_send_id: externalSendId, recipient: { external_user_id: externalId } }),
	});
	expect(response.status).toBe(201);
	return ((await response.json()) as { dispatch_id: string }).dispatch_id;
}

/** Waits until the sandbox has had `count` postbacks answered, and the trigger has finished with them. */
async function postbacksAnswered(count: number): Promise<StateView['postbacks']> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const { postbacks } = await client().state();
		if (postbacks.length >= count) {
			await server.settled();
			return postbacks;
		}
		if (Date.now() > deadline) throw new Error(`only ${postbacks.length} of ${count} postbacks were answered`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

const startedItems = () =>
	server.calls.flatMap((call) => call.execution?.output(TRIGGER).map((item) => item.json as IDataObject) ?? []);

describe("Engagement Platform Trigger receiving the sandbox's postbacks", () => {
	test('an order receipt: sent and processed are answered 200 and start nothing, delivered starts one execution', async () => {
		await client().configure({ postbacks: { url: server.url, headers: { 'X-Postback-Token': TOKEN }, delayMs: 5 } });

		const dispatchId = await sendReceipt('customer-1001', 'order-1001-receipt');
		const postbacks = await postbacksAnswered(3);

		expect(postbacks.map((postback) => [(postback.body as IDataObject).status, postback.responseStatus])).toEqual([
			['sent', 200],
			['processed', 200],
			['delivered', 200],
		]);
		expect(server.calls.filter((call) => call.execution)).toHaveLength(1);
		expect(startedItems()).toEqual([
			{
				dispatch_id: dispatchId,
				status: 'delivered',
				external_send_id: 'order-1001-receipt',
				campaign_api_id: 'order-receipt',
				status_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
				reason: null,
				metadata: expect.objectContaining({ delivered_at: expect.any(String) }),
			},
		]);
	});

	test('a bounce comes out with its reason', async () => {
		await client().configure({ postbacks: { url: server.url, headers: { 'X-Postback-Token': TOKEN }, delayMs: 5 } });

		await sendReceipt('customer-1002', 'order-1002-receipt');
		await postbacksAnswered(3);

		expect(startedItems()).toEqual([
			expect.objectContaining({
				status: 'bounced',
				external_send_id: 'order-1002-receipt',
				reason: '550 5.1.1 mailbox unavailable',
			}),
		]);
	});

	test('postbacks configured with the wrong token are all answered 401 and start nothing', async () => {
		await client().configure({
			postbacks: { url: server.url, headers: { 'X-Postback-Token': 'an-old-token-1234567' }, delayMs: 5 },
		});

		await sendReceipt('customer-1001', 'order-1001-receipt');
		const postbacks = await postbacksAnswered(3);

		expect(postbacks.map((postback) => postback.responseStatus)).toEqual([401, 401, 401]);
		expect(startedItems()).toEqual([]);
	});
});
