/**
 * The Engagement Platform Trigger run the way n8n runs a webhook trigger: real HTTP requests to a
 * server on 127.0.0.1, handed (as n8n's webhook server does) to n8n-core's WebhookContext, and the
 * items it returns executed by n8n-core's WorkflowExecute (see test/harness/webhook.ts).
 */
import { randomBytes } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { WebhookCall, WebhookRequest, WebhookServer } from '../harness';
import { runWebhook, startWebhookServer } from '../harness';
import { TRIGGER, TRIGGER_NODE } from '../support/nodeTypes';

const CREDENTIAL = 'engagementPlatformPostbackAuthApi';

// Secrets made up per run: whatever they leak into, they cannot be there by chance.
const TOKEN = `tok-${randomBytes(16).toString('hex')}`;
const USER = 'platform';
const PASSWORD = `pw-${randomBytes(16).toString('hex')}`;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const headerAuth = { authentication: 'headerAuth' };
const basicAuth = { authentication: 'basicAuth' };
const credentials = {
	[CREDENTIAL]: { headerName: 'X-Postback-Token', headerToken: TOKEN, user: USER, password: PASSWORD },
};

/** Every call of the file, to look for the secrets in at the end. */
const everything: WebhookCall[] = [];

async function post(parameters: INodeParameters, request: WebhookRequest): Promise<WebhookCall> {
	const call = await runWebhook({ trigger: { type: TRIGGER_NODE, name: TRIGGER, parameters }, credentials, request });
	everything.push(call);
	return call;
}

function postback(status: string, metadata: IDataObject = {}, dispatchId = 'dispatch-7f3a'): IDataObject {
	return {
		dispatch_id: dispatchId,
		status,
		metadata: { external_send_id: 'order-1001-receipt', campaign_api_id: 'campaign-receipts', ...metadata },
	};
}

const items = (call: WebhookCall) => call.execution?.output(TRIGGER).map((item) => item.json) ?? [];

function expectNoExecution(call: WebhookCall) {
	expect(call.execution).toBeUndefined();
	expect(call.webhookResult).toEqual({ noWebhookResponse: true });
}

describe('Engagement Platform Trigger: a postback becomes one item', () => {
	test('"order receipt delivered" starts one execution with the flat fields and the raw metadata', async () => {
		const metadata = { delivered_at: '2025-03-01T10:00:05Z' };
		const call = await post({}, { body: postback('delivered', metadata) });

		expect(call.status).toBe(200);
		expect(call.json()).toEqual({ message: 'Workflow was started' });
		expect(call.execution?.run.status).toBe('success');
		expect(call.execution?.run.mode).toBe('webhook');
		expect(items(call)).toEqual([
			{
				dispatch_id: 'dispatch-7f3a',
				status: 'delivered',
				external_send_id: 'order-1001-receipt',
				campaign_api_id: 'campaign-receipts',
				status_time: '2025-03-01T10:00:05Z',
				reason: null,
				metadata: { external_send_id: 'order-1001-receipt', campaign_api_id: 'campaign-receipts', ...metadata },
			},
		]);
	});

	test.each([
		[
			'sent',
			{
				received_at: '2025-03-01T10:00:00Z',
				enqueued_at: '2025-03-01T10:00:01Z',
				executed_at: '2025-03-01T10:00:02Z',
				sent_at: '2025-03-01T10:00:03Z',
			},
			'2025-03-01T10:00:03Z',
			null,
		],
		['processed', { processed_at: '2025-03-01T10:00:04Z' }, '2025-03-01T10:00:04Z', null],
		[
			'bounced',
			{ bounced_at: '2025-03-01T10:00:06Z', reason: '550 5.1.1 mailbox unavailable' },
			'2025-03-01T10:00:06Z',
			'550 5.1.1 mailbox unavailable',
		],
		[
			'aborted',
			{ aborted_at: '2025-03-01T10:00:00Z', reason: 'user has no email address' },
			'2025-03-01T10:00:00Z',
			'user has no email address',
		],
	])('a "%s" postback gives its own datetime as status_time', async (status, metadata, statusTime, reason) => {
		const call = await post({}, { body: postback(status, metadata) });

		expect(items(call)).toEqual([expect.objectContaining({ status, status_time: statusTime, reason })]);
		expect(items(call)[0].metadata).toEqual(expect.objectContaining(metadata));
	});

	test('a send without external_send_id gives null, not a missing field', async () => {
		const call = await post(
			{},
			{ body: { dispatch_id: 'd-1', status: 'processed', metadata: { campaign_api_id: 'c', processed_at: 't' } } },
		);

		expect(items(call)).toEqual([
			expect.objectContaining({ external_send_id: null, campaign_api_id: 'c', status_time: 't' }),
		]);
	});

	test("a JSON media type of the platform's own (application/…+json) is read too", async () => {
		const call = await post(
			{},
			{
				headers: { 'Content-Type': 'application/vnd.engagement.postback+json; charset=utf-8' },
				body: JSON.stringify(postback('delivered')),
			},
		);

		expect(items(call)).toHaveLength(1);
	});

	test('n8n activates the trigger without calling the platform: checkExists reports the URL as set up by hand', async () => {
		const server = await startWebhookServer({ trigger: { type: TRIGGER_NODE, name: TRIGGER, parameters: {} } });
		expect(server.url).toMatch(/\/webhook\/[0-9a-f-]{36}\/engagement-platform-postback$/);
		expect(server.lifecycle).toEqual(['checkExists → true']);
		await server.close();
		expect(server.lifecycle).toEqual(['checkExists → true', 'delete → true']);
	});

	test("only POST is registered: a GET is n8n's 404 and starts nothing", async () => {
		const call = await post({}, { method: 'GET' });

		expect(call.status).toBe(404);
		expect(call.webhookResult).toBeUndefined();
		expect(call.execution).toBeUndefined();
	});
});

describe('Statuses: only the chosen ones start the workflow', () => {
	const bouncesOnly = { statuses: ['bounced'] };

	test('"bounced only": a delivered postback is answered 200 and starts nothing', async () => {
		const call = await post(bouncesOnly, { body: postback('delivered') });

		expect(call.status).toBe(200);
		expect(call.json<{ message: string }>().message).toContain('does not start on "delivered"');
		expectNoExecution(call);
	});

	test('"bounced only": a bounce starts the workflow', async () => {
		const call = await post(bouncesOnly, { body: postback('bounced', { bounced_at: 't', reason: 'r' }) });

		expect(items(call)).toEqual([expect.objectContaining({ status: 'bounced', reason: 'r' })]);
	});

	test.each(['opened', 'clicked', 'deferred'])(
		'"bounced only": a status the trigger does not know ("%s") is answered 200 and starts nothing',
		async (status) => {
			const call = await post(bouncesOnly, { body: postback(status) });

			expect(call.status).toBe(200);
			expect(call.json<{ message: string }>().message).toContain(`does not start on "${status}"`);
			expectNoExecution(call);
		},
	);

	test('every status chosen: a status the trigger does not know passes through as it came', async () => {
		const call = await post({}, { body: postback('opened', { opened_at: '2025-03-01T10:07:00Z' }) });

		expect(call.status).toBe(200);
		expect(items(call)).toEqual([
			expect.objectContaining({ status: 'opened', status_time: '2025-03-01T10:07:00Z', dispatch_id: 'dispatch-7f3a' }),
		]);
	});
});

describe('Authentication: a postback without the right secret is 401 and starts nothing', () => {
	const good = { body: postback('delivered') };

	test('header token: the right token starts the workflow (header names are case-insensitive)', async () => {
		const call = await post(headerAuth, { ...good, headers: { 'x-postback-token': TOKEN } });

		expect(call.status).toBe(200);
		expect(items(call)).toHaveLength(1);
	});

	test.each([
		['a wrong token', { 'X-Postback-Token': `${TOKEN}x` }],
		[
			'a token of the same length, one character off',
			{ 'X-Postback-Token': `${TOKEN.slice(0, -1)}${TOKEN.endsWith('0') ? '1' : '0'}` },
		],
		['the token in another header', { 'X-Other': TOKEN }],
		['no token', {}],
		['the token as Basic credentials', { Authorization: basic(USER, TOKEN) }],
	])('header token: %s → 401', async (_, headers) => {
		const call = await post(headerAuth, { ...good, headers });

		expect(call.status).toBe(401);
		expect(call.json()).toEqual({ message: 'Authorization is missing or wrong' });
		expectNoExecution(call);
	});

	test('basic auth: the right user and password start the workflow', async () => {
		const call = await post(basicAuth, { ...good, headers: { Authorization: basic(USER, PASSWORD) } });

		expect(items(call)).toHaveLength(1);
	});

	test.each([
		['a wrong password', { Authorization: basic(USER, `${PASSWORD}x`) }],
		['a wrong user', { Authorization: basic('someone', PASSWORD) }],
		['user and password swapped', { Authorization: basic(PASSWORD, USER) }],
		['no Authorization header', {}],
		['a Bearer token', { Authorization: `Bearer ${PASSWORD}` }],
		['Basic without a colon', { Authorization: `Basic ${Buffer.from(USER + PASSWORD).toString('base64')}` }],
	])('basic auth: %s → 401 with a Basic challenge', async (_, headers) => {
		const call = await post(basicAuth, { ...good, headers });

		expect(call.status).toBe(401);
		expect(call.headers['www-authenticate']).toBe('Basic realm="Engagement Platform postback"');
		expectNoExecution(call);
	});

	test('authentication is checked before anything else: a wrong secret with a bad body is 401, not 400 or 415', async () => {
		const call = await post(headerAuth, { headers: { 'Content-Type': 'text/plain' }, body: 'hello' });

		expect(call.status).toBe(401);
	});

	test('a credential that cannot authenticate (a 6-character token) refuses every postback with 500, and says why in the log only', async () => {
		const call = await runWebhook({
			trigger: { type: TRIGGER_NODE, name: TRIGGER, parameters: headerAuth },
			credentials: { [CREDENTIAL]: { headerName: 'X-Postback-Token', headerToken: 'abc123' } },
			request: { ...good, headers: { 'X-Postback-Token': 'abc123' } },
		});

		expect(call.status).toBe(500);
		expect(call.body).not.toContain('16');
		expectNoExecution(call);
		expect(call.logs).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ level: 'warn', message: expect.stringContaining('shorter than 16 characters') }),
			]),
		);
		expect(JSON.stringify(call.logs)).not.toContain('abc123');
	});
});

describe('Malformed postbacks are 400 and start nothing', () => {
	test.each([
		['an array', [postback('delivered')], 'The body must be a JSON object'],
		['a JSON string', 'just text', 'The body must be a JSON object'],
		['no dispatch_id', { status: 'delivered', metadata: {} }, 'dispatch_id is missing'],
		['an empty dispatch_id', { dispatch_id: '', status: 'delivered', metadata: {} }, 'dispatch_id is empty'],
		['a numeric dispatch_id', { dispatch_id: 42, status: 'delivered', metadata: {} }, 'dispatch_id must be a string'],
		['no status', { dispatch_id: 'd', metadata: {} }, 'status is missing'],
		['a numeric status', { dispatch_id: 'd', status: 3, metadata: {} }, 'status must be a string'],
		['an empty status', { dispatch_id: 'd', status: '', metadata: {} }, 'status is empty'],
		['no metadata', { dispatch_id: 'd', status: 'delivered' }, 'metadata is missing'],
		['metadata as an array', { dispatch_id: 'd', status: 'delivered', metadata: [] }, 'metadata must be a JSON object'],
		['metadata null', { dispatch_id: 'd', status: 'delivered', metadata: null }, 'metadata must be a JSON object'],
	])('%s', async (_, body, problem) => {
		const call = await post({}, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

		expect(call.status).toBe(400);
		expect(call.json<{ message: string }>().message).toContain(problem);
		expectNoExecution(call);
	});

	test('an empty body is 400', async () => {
		const call = await post({}, { headers: { 'Content-Type': 'application/json' }, body: '' });

		expect(call.status).toBe(400);
		expectNoExecution(call);
	});

	test('broken JSON under a JSON media type of its own is 400', async () => {
		const call = await post(
			{},
			{ headers: { 'Content-Type': 'application/vnd.engagement+json' }, body: '{"dispatch_id": ' },
		);

		expect(call.status).toBe(400);
		expect(call.json<{ message: string }>().message).toContain('not valid JSON');
		expectNoExecution(call);
	});

	test("broken JSON as application/json never reaches the trigger: n8n's body parser answers 422", async () => {
		const call = await post({}, { headers: { 'Content-Type': 'application/json' }, body: '{"dispatch_id": ' });

		expect(call.status).toBe(422);
		expect(call.webhookResult).toBeUndefined();
		expect(call.execution).toBeUndefined();
	});
});

describe('Only JSON, up to 1 MB', () => {
	test.each([
		['text/plain', { 'Content-Type': 'text/plain' }],
		['form data', { 'Content-Type': 'application/x-www-form-urlencoded' }],
		['XML', { 'Content-Type': 'application/xml' }],
		['no content type', {}],
	])('%s → 415', async (_, headers) => {
		const call = await post({}, { headers, body: JSON.stringify(postback('delivered')) });

		expect(call.status).toBe(415);
		expectNoExecution(call);
	});

	const ofSize = (bytes: number) => {
		const base = JSON.stringify(postback('delivered', { padding: '' }));
		return JSON.stringify(postback('delivered', { padding: 'x'.repeat(bytes - base.length) }));
	};

	test('a postback of exactly 1 MB is accepted', async () => {
		const body = ofSize(1024 * 1024);
		expect(Buffer.byteLength(body)).toBe(1024 * 1024);

		const call = await post({}, { headers: { 'Content-Type': 'application/json' }, body });

		expect(items(call)).toHaveLength(1);
	});

	test('one byte more is 413 (declared by Content-Length)', async () => {
		const call = await post({}, { headers: { 'Content-Type': 'application/json' }, body: ofSize(1024 * 1024 + 1) });

		expect(call.status).toBe(413);
		expectNoExecution(call);
	});

	test('2 MB sent in chunks, without a Content-Length, is 413 too (measured)', async () => {
		const call = await post(
			{},
			{ headers: { 'Content-Type': 'application/json' }, body: ofSize(2 * 1024 * 1024), chunked: true },
		);

		expect(call.status).toBe(413);
		expectNoExecution(call);
	});
});

describe('Drop Duplicates: the same dispatch and status within the window starts nothing', () => {
	let server: WebhookServer;
	const send = async (body: IDataObject) => {
		const call = await server.send({ body });
		everything.push(call);
		return call;
	};
	const start = async (parameters: INodeParameters = {}) =>
		(server = await startWebhookServer({ trigger: { type: TRIGGER_NODE, name: TRIGGER, parameters } }));
	afterEach(async () => await server.close());

	test('a repeated "delivered" of one dispatch is answered 200 and starts nothing; its "bounced" still starts', async () => {
		await start();

		const first = await send(postback('delivered'));
		const repeat = await send(postback('delivered'));
		const otherStatus = await send(postback('bounced'));
		const otherDispatch = await send(postback('delivered', {}, 'dispatch-other'));

		expect(items(first)).toHaveLength(1);
		expect(repeat.status).toBe(200);
		expect(repeat.json<{ message: string }>().message).toContain('already received within the last 60 minutes');
		expectNoExecution(repeat);
		expect(items(otherStatus)).toHaveLength(1);
		expect(items(otherDispatch)).toHaveLength(1);
	});

	test('after the window the same postback starts the workflow again', async () => {
		await start({ windowMinutes: 5 });
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now');
		try {
			clock.mockReturnValue(now);
			expect(items(await send(postback('delivered')))).toHaveLength(1);
			clock.mockReturnValue(now + 4 * 60_000);
			expect(items(await send(postback('delivered')))).toHaveLength(0);
			clock.mockReturnValue(now + 5 * 60_000 + 1);
			expect(items(await send(postback('delivered')))).toHaveLength(1);
		} finally {
			clock.mockRestore();
		}
	});

	test('with Drop Duplicates off, every repeat starts the workflow and nothing is stored', async () => {
		await start({ dropDuplicates: false });

		expect(items(await send(postback('delivered')))).toHaveLength(1);
		expect(items(await send(postback('delivered')))).toHaveLength(1);
		expect(server.staticData()).toEqual({});
	});

	test("the seen keys live in the workflow's static data: hashes (not ids), pruned by age, at most 5,000", async () => {
		const now = Date.now();
		const seen: Record<string, number> = {};
		for (let i = 0; i < 5000; i++) seen[`recent-${String(i).padStart(4, '0')}`] = now - 30 * 60_000 + i;
		seen['expired-1'] = now - 61 * 60_000;
		server = await startWebhookServer({
			trigger: { type: TRIGGER_NODE, name: TRIGGER, parameters: {} },
			staticData: { [`node:${TRIGGER}`]: { seen } },
		});

		await send(postback('delivered', {}, 'a-long-dispatch-id-'.repeat(20)));

		const stored = (server.staticData()[`node:${TRIGGER}`] as { seen: Record<string, number> }).seen;
		expect(Object.keys(stored)).toHaveLength(5000);
		expect(stored['expired-1']).toBeUndefined(); // older than the window
		expect(stored['recent-0000']).toBeUndefined(); // the oldest, to make room
		expect(stored['recent-4999']).toBeDefined();
		expect(JSON.stringify(stored)).not.toContain('a-long-dispatch-id');
		expect(Math.max(...Object.keys(stored).map((key) => key.length))).toBeLessThanOrEqual(24);
	});
});

afterAll(() => {
	// The secrets never come back: not in an answer, an item, the run data, the static data or a log line.
	const secrets = [TOKEN, PASSWORD, basic(USER, PASSWORD).slice('Basic '.length)];
	expect(everything.length).toBeGreaterThan(40);
	for (const call of everything) {
		const seen = JSON.stringify({
			status: call.status,
			headers: call.headers,
			body: call.body,
			webhookResult: call.webhookResult,
			execution: call.execution?.run,
			logs: call.logs,
		});
		for (const secret of secrets) expect(seen).not.toContain(secret);
	}
});
