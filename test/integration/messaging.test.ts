import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MESSAGE, MESSAGE_NODE } from '../support/nodeTypes';
import { OUTPUT_FIELD, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

const run = async (items: IDataObject[], parameters: INodeParameters, continueOnFail = false) =>
	await runNode(MESSAGE_NODE, { items, parameters, endpoint: sandbox().url, apiKey, continueOnFail });

const profiles = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ external_id: `crm-${i}`, email: `crm${i}@example.com` }));
const users = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `crm-${i}`, order: `#${1000 + i}` }));

const triggerCampaign = (overrides: INodeParameters = {}): INodeParameters => ({
	operation: 'triggerCampaign',
	campaignId: 'welcome-campaign',
	sendTo: 'recipients',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	recipientPropertiesInput: 'json',
	recipientPropertiesJson: '={{ { order_id: $json.order } }}',
	...overrides,
});

type Dispatch = { dispatch_id: string; recipients: unknown[]; notice?: string };

describe('Message node: Trigger Campaign and Trigger Canvas', () => {
	beforeEach(async () => {
		await client().seed({
			profiles: profiles(120),
			campaigns: [{ id: 'welcome-campaign' }, { id: 'winback-campaign' }],
			canvases: [{ id: 'onboarding-canvas' }, { id: 'paused-canvas', state: 'paused' }],
		});
	});

	test('120 customers become 3 requests of 50, 50 and 20 recipients; each item gets its request’s dispatch_id', async () => {
		const customers = users(120);
		const result = await run(customers, triggerCampaign());

		expect(result.error).toBeUndefined();
		const requests = await client().requests({ path: '/campaigns/trigger/send' });
		expect(requests.map((r) => (r.body as { recipients: unknown[] }).recipients.length)).toEqual([50, 50, 20]);
		expect((requests[0].body as { recipients: IDataObject[] }).recipients[3]).toEqual({
			external_user_id: 'crm-3',
			trigger_properties: { order_id: '#1003' },
		});
		const output = result.output(MESSAGE);
		const dispatchOf = (item: number) => wordsOf(output[item].json).dispatch_id;
		expect(dispatchOf(0)).toBe(dispatchOf(49));
		expect(dispatchOf(50)).not.toBe(dispatchOf(49));
		// The answer keeps the item's fields as they came, the node's words beside them.
		expect(output[101]).toEqual({
			json: {
				...customers[101],
				[OUTPUT_FIELD]: {
					status: 'sent',
					campaign_id: 'welcome-campaign',
					external_user_id: 'crm-101',
					dispatch_id: dispatchOf(100),
				},
			},
			pairedItem: { item: 101 },
		});
		const { dispatches } = (await client().state()) as unknown as { dispatches: Dispatch[] };
		expect(dispatches.map((d) => d.recipients.length)).toEqual([50, 50, 20]);
	});

	test('items for different campaigns never share a request', async () => {
		const items = users(10).map((user, i) => ({ ...user, campaign: i % 2 ? 'winback-campaign' : 'welcome-campaign' }));

		await run(items, triggerCampaign({ campaignId: '={{ $json.campaign }}' }));

		const bodies = (await client().requests({ path: '/campaigns/trigger/send' })).map(
			(r) => r.body as { campaign_id: string; recipients: unknown[] },
		);
		expect(bodies.map((b) => [b.campaign_id, b.recipients.length]).sort()).toEqual([
			['welcome-campaign', 5],
			['winback-campaign', 5],
		]);
	});

	test('a paused canvas answers with a notice: every item shows it as a warning, not as sent', async () => {
		const result = await run(users(3), {
			operation: 'triggerCanvas',
			canvasId: 'paused-canvas',
			sendTo: 'recipients',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
		});

		expect(result.error).toBeUndefined();
		for (const item of result.output(MESSAGE)) {
			expect(wordsOf(item.json)).toMatchObject({
				status: 'not_sent',
				notice: expect.any(String),
				warnings: [expect.any(String)],
			});
		}
		expect(result.run.data.resultData.runData[MESSAGE][0].hints).toEqual([
			expect.objectContaining({ type: 'warning' }),
		]);
	});

	test('recipient rules are checked per item before sending', async () => {
		const result = await run(
			[{ id: 'crm-1' }, { id: 'brand-new' }],
			triggerCampaign({ externalId: '={{ $json.id }}', sendToExistingOnly: '={{ $json.id === "crm-1" }}' }),
			true,
		);

		expect(statusOf(result.output(MESSAGE)[0].json)).toBe('sent');
		expect(wordsOf(result.output(MESSAGE)[1].json)).toMatchObject({
			status: 'failed',
			field: 'Recipient Attributes',
			delivery: 'invalid',
		});
	});

	test('canvas entry properties over 50 KB are refused on their item', async () => {
		const result = await run([{ id: 'crm-1', big: 'x'.repeat(60_000) }], {
			operation: 'triggerCanvas',
			canvasId: 'onboarding-canvas',
			sendTo: 'recipients',
			externalId: '={{ $json.id }}',
			recipientPropertiesInput: 'json',
			recipientPropertiesJson: '={{ { note: $json.big } }}',
		});

		expect(result.error?.message).toContain('"Canvas Entry Properties" is 60,');
		expect(await client().requests()).toHaveLength(0);
	});
});

describe('Message node: Send Now', () => {
	const sendNow = (overrides: INodeParameters = {}): INodeParameters => ({
		operation: 'sendNow',
		sendTo: 'users',
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
		messages: '{"email": {"app_id": "app", "subject": "Your order", "body": "<p>Thanks!</p>"}}',
		...overrides,
	});

	test('60 users with the same message become 2 requests; each item gets its dispatch_id', async () => {
		await client().seed({ profiles: profiles(60) });

		const result = await run(users(60), sendNow());

		const requests = await client().requests({ path: '/messages/send' });
		expect(requests.map((r) => (r.body as { external_user_ids: string[] }).external_user_ids.length)).toEqual([50, 10]);
		expect(wordsOf(result.output(MESSAGE)[59].json)).toMatchObject({
			status: 'sent',
			external_user_id: 'crm-59',
			dispatch_id: expect.any(String),
		});
	});

	test('a broadcast to a segment is one request per item, with broadcast true and no users', async () => {
		await client().seed({ profiles: profiles(3), segments: [{ id: 'vip', external_ids: ['crm-0', 'crm-2'] }] });

		const result = await run([{}, {}], sendNow({ sendTo: 'broadcast', segmentId: 'vip' }));

		const bodies = (await client().requests({ path: '/messages/send' })).map((r) => r.body as IDataObject);
		expect(bodies).toHaveLength(2);
		expect(bodies[0]).toMatchObject({ segment_id: 'vip', broadcast: true });
		expect(bodies[0].external_user_ids).toBeUndefined();
		expect(result.output(MESSAGE).map((item) => statusOf(item.json))).toEqual(['sent', 'sent']);
	});

	test('a connected audience that is not one of the shown shapes is refused, naming the field', async () => {
		const result = await run(users(1), sendNow({ audienceJson: '{"NOT": [{"custom_attribute": {}}]}' }));

		expect(result.error?.message).toContain('"Audience" must be {"AND": [...]}');
		expect(await client().requests()).toHaveLength(0);
	});

	test('an unknown channel in the messages is refused, naming it', async () => {
		const result = await run(users(1), sendNow({ messages: '{"carrier_pigeon": {"body": "hi"}}' }));

		// The message names the row and n8n's item number, so n8n's editor adds no "[item 0]" of its own.
		expect(result.error?.message).toBe(
			`Row 1 (item 0, id 'crm-0'): "Messages.carrier_pigeon" is not a channel the platform knows`,
		);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
		expect(await client().requests()).toHaveLength(0);
	});
});

describe('Message node: Send Transactional Email', () => {
	const receipt = (overrides: INodeParameters = {}): INodeParameters => ({
		operation: 'sendTransactionalEmail',
		campaignId: 'order-receipt',
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
		triggerPropertiesInput: 'json',
		triggerPropertiesJson: '={{ { order_id: $json.order } }}',
		...overrides,
	});

	beforeEach(async () => {
		await client().seed({
			profiles: profiles(5),
			campaigns: [
				{ id: 'order-receipt', kind: 'transactional' },
				{ id: 'paused-receipt', kind: 'transactional', state: 'paused' },
			],
		});
	});

	test('one request per recipient, each with an external_send_id of its own derived from its email', async () => {
		const result = await run(users(5), receipt());

		expect(result.error).toBeUndefined();
		const requests = await client().requests({ path: '/transactional/v1/campaigns/order-receipt/send' });
		expect(requests).toHaveLength(5);
		const sendIds = requests.map((r) => (r.body as { external_send_id: string }).external_send_id);
		expect(new Set(sendIds).size).toBe(5);
		sendIds.forEach((id) => expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/));
		expect(wordsOf(result.output(MESSAGE)[2].json)).toMatchObject({
			status: 'sent',
			external_user_id: 'crm-2',
			external_send_id: sendIds[2],
			dispatch_id: expect.any(String),
		});
	});

	test('a send whose answer was lost is resent with the same external_send_id, and the platform sends it once', async () => {
		await client().injectFaults([
			{ path: '/transactional/v1/campaigns/order-receipt/send', times: 1, kind: 'reset-after' },
		]);

		const result = await run(users(1), receipt());

		expect(statusOf(result.output(MESSAGE)[0].json)).toBe('sent');
		const requests = await client().requests({ path: '/transactional/v1/campaigns/order-receipt/send' });
		expect(requests).toHaveLength(2);
		expect((requests[0].body as IDataObject).external_send_id).toBe((requests[1].body as IDataObject).external_send_id);
		const { transactionalSends } = (await client().state()) as unknown as { transactionalSends: unknown[] };
		expect(transactionalSends).toHaveLength(1);
	});

	// Shrunk by the messaging sequence suite: the resend after a lost answer was refused, and the item
	// said not_applied ("safe to run again") for an email the platform had sent.
	test.each([
		['refused (400)', { kind: 'answer' as const, status: 400, answerBody: { message: 'Invalid recipient' } }],
		['met a refused connection', { kind: 'reset-before' as const }],
		['met a 429 past the wait budget', { kind: 'status' as const, status: 429, retryAfterSeconds: 3600 }],
		[
			'met a redirect',
			{ kind: 'answer' as const, status: 301, answerHeaders: { Location: 'http://127.0.0.2:9/elsewhere' } },
		],
	])('a lost answer, then a resend %s: the item may have been sent, and says so', async (_, second) => {
		const path = '/transactional/v1/campaigns/order-receipt/send';
		await client().injectFaults([
			{ path, times: 1, kind: 'reset-after' },
			{ path, times: 10, ...second },
		]);

		const result = await run(users(1), receipt(), true);

		const { transactionalSends } = (await client().state()) as unknown as { transactionalSends: unknown[] };
		expect(transactionalSends).toHaveLength(1);
		const [answer] = result.output(MESSAGE).map(({ json }) => json);
		expect(wordsOf(answer)).toMatchObject({ status: 'failed', delivery: 'maybe_applied' });
		expect(String(wordsOf(answer).description)).toMatch(/before running/i);
	});

	const QUEUED = 'The external reference has been queued. Please retry to obtain send_id.';
	const path = '/transactional/v1/campaigns/order-receipt/send';

	test('a lost answer, then "queued": asked again after a pause, the item is sent with the one dispatch', async () => {
		await client().injectFaults([
			{ path, times: 1, kind: 'reset-after' },
			{ path, times: 1, kind: 'answer', status: 400, answerBody: { message: QUEUED } },
		]);

		const result = await run(users(1), receipt(), true);

		const { transactionalSends } = (await client().state()) as unknown as {
			transactionalSends: Array<{ dispatch_id: string }>;
		};
		expect(transactionalSends).toHaveLength(1);
		expect(wordsOf(result.output(MESSAGE)[0].json)).toMatchObject({
			status: 'sent',
			dispatch_id: transactionalSends[0].dispatch_id,
		});
		expect(await client().requests({ path })).toHaveLength(3);
	});

	test('"queued" every time it is asked: the item says queued, with its External Send ID, never to run again', async () => {
		await client().injectFaults([
			{ path, times: 1, kind: 'reset-after' },
			{ path, times: 10, kind: 'answer', status: 400, answerBody: { message: QUEUED } },
		]);

		const result = await run(users(1), receipt({ externalSendId: 'order-1000-receipt' }), true);

		const [answer] = result.output(MESSAGE).map(({ json }) => json);
		expect(wordsOf(answer)).toMatchObject({ status: 'queued', external_send_id: 'order-1000-receipt' });
		expect(answer.error).toBeUndefined();
		expect(wordsOf(answer).error).toBeUndefined();
		expect(JSON.stringify(answer)).not.toContain('run these items again');
	});

	test("the platform's validation message reaches the item: a paused campaign", async () => {
		const result = await run(users(1), receipt({ campaignId: 'paused-receipt' }), true);

		const [answer] = result.output(MESSAGE).map(({ json }) => json);
		const reason = 'The campaign is paused. Resume the campaign in order for trigger requests to take effect.';
		expect(answer.error).toBe(`Row 1 (item 0, id 'crm-0'): ${reason}`);
		expect(wordsOf(answer)).toMatchObject({ status: 'failed', error: answer.error, delivery: 'not_applied' });
	});

	test('one External Send ID on two items: the later is refused before anything is sent, naming the first', async () => {
		const result = await run(
			users(3),
			receipt({ externalSendId: '={{ $json.id === "crm-1" ? "crm-0" : $json.id }}' }),
			true,
		);

		const answers = result.output(MESSAGE).map(({ json }) => json);
		expect(wordsOf(answers[0])).toMatchObject({ status: 'sent', external_send_id: 'crm-0' });
		expect(wordsOf(answers[1])).toMatchObject({ status: 'failed', delivery: 'invalid', field: 'External Send ID' });
		expect(String(answers[1].error)).toContain('item 0');
		expect(wordsOf(answers[2])).toMatchObject({ status: 'sent', external_send_id: 'crm-2' });
		const sent = (await client().requests({ path: '/transactional/v1/campaigns/order-receipt/send' })).map(
			(request) => (request.body as { external_send_id: string }).external_send_id,
		);
		expect(sent.sort()).toEqual(['crm-0', 'crm-2']);
	});

	test('a given external send ID with spaces is refused before sending', async () => {
		const result = await run(users(1), receipt({ externalSendId: 'order 1001' }));

		expect(result.error?.message).toContain('"External Send ID"');
		expect(await client().requests()).toHaveLength(0);
	});
});

describe('Message node: scheduled canvases', () => {
	beforeEach(async () => {
		await client().seed({
			canvases: [{ id: 'onboarding-canvas' }],
			canvasSchedules: [
				{
					canvas_id: 'onboarding-canvas',
					schedule_id: 'sched-1',
					schedule: { time: '2026-12-01T09:00:00Z', in_local_time: true },
				},
			],
		});
	});

	test('an update replaces the whole schedule', async () => {
		const result = await run([{}], {
			operation: 'updateScheduledCanvas',
			canvasId: 'onboarding-canvas',
			scheduleId: 'sched-1',
			time: '2026-12-02T10:00:00Z',
		});

		expect(result.output(MESSAGE)[0].json).toEqual({
			[OUTPUT_FIELD]: { status: 'updated', canvas_id: 'onboarding-canvas', schedule_id: 'sched-1' },
		});
		const { canvasSchedules } = (await client().state()) as unknown as { canvasSchedules: IDataObject[] };
		expect(canvasSchedules[0]).toMatchObject({ schedule: { time: '2026-12-02T10:00:00Z', in_local_time: false } });
	});

	test('a delete cancels it; an unknown schedule is an error on its item', async () => {
		const result = await run(
			[{ id: 'sched-1' }, { id: 'sched-404' }],
			{ operation: 'deleteScheduledCanvas', canvasId: 'onboarding-canvas', scheduleId: '={{ $json.id }}' },
			true,
		);

		expect(statusOf(result.output(MESSAGE)[0].json)).toBe('deleted');
		expect(result.output(MESSAGE)[1].json).toMatchObject({ id: 'sched-404', error: expect.any(String) });
		expect(wordsOf(result.output(MESSAGE)[1].json)).toMatchObject({ status: 'failed', httpCode: 404 });
		const { canvasSchedules } = (await client().state()) as unknown as { canvasSchedules: unknown[] };
		expect(canvasSchedules).toHaveLength(0);
	});
});
