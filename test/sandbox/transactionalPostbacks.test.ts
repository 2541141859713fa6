import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { eventually, sleep, startPostbackReceiver, type PostbackReceiver } from './postbackReceiver';
import { useSandbox } from './sandboxTestKit';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('sandbox: transactional status postbacks', () => {
	const sandbox = useSandbox();
	let receiver: PostbackReceiver;

	beforeEach(async () => {
		receiver = await startPostbackReceiver();
		await sandbox.admin.seed({
			profiles: [
				{ external_id: 'reader', email: 'reader@example.com' },
				{ external_id: 'bouncer', email: 'full@Bounce.Example.com' },
				{ external_id: 'no-email', phone: '+14155550100' },
			],
			campaigns: [{ id: 'receipt', kind: 'transactional' }],
		});
	});
	afterEach(async () => {
		await receiver.close();
	});

	const send = (externalId: string, externalSendId?: string) =>
		sandbox.call('POST', '/transactional/v1/campaigns/receipt/send', {
			...(externalSendId ? { external_send_id: externalSendId } : {}),
			recipient: { external_user_id: externalId },
		});

	it('POSTs sent, processed and delivered, in order, with the configured headers, and records each answer', async () => {
		await sandbox.admin.configure({
			postbacks: {
				url: receiver.url,
				headers: { 'X-Postback-Secret': 's3cret', Authorization: 'Basic dXNlcjpwYXNz' },
				delayMs: 20,
			},
		});
		const answer = await send('reader', 'order-17');
		const received = await receiver.waitFor(3);
		const dispatchId = answer.body.dispatch_id;

		expect(received.map((postback) => postback.body.status)).toEqual(['sent', 'processed', 'delivered']);
		for (const postback of received) {
			expect(postback.headers['x-postback-secret']).toBe('s3cret');
			expect(postback.headers.authorization).toBe('Basic dXNlcjpwYXNz');
			expect(postback.headers['content-type']).toBe('application/json');
		}
		const [sent, processed, delivered] = received.map((postback) => postback.body);
		expect(sent).toEqual({
			dispatch_id: dispatchId,
			status: 'sent',
			metadata: {
				external_send_id: 'order-17',
				campaign_api_id: 'receipt',
				received_at: expect.stringMatching(ISO),
				enqueued_at: expect.stringMatching(ISO),
				executed_at: expect.stringMatching(ISO),
				sent_at: expect.stringMatching(ISO),
			},
		});
		expect(processed).toEqual({
			dispatch_id: dispatchId,
			status: 'processed',
			metadata: { external_send_id: 'order-17', campaign_api_id: 'receipt', processed_at: expect.stringMatching(ISO) },
		});
		expect(delivered).toEqual({
			dispatch_id: dispatchId,
			status: 'delivered',
			metadata: { external_send_id: 'order-17', campaign_api_id: 'receipt', delivered_at: expect.stringMatching(ISO) },
		});
		expect(Date.parse(sent.metadata.sent_at)).toBeLessThanOrEqual(Date.parse(processed.metadata.processed_at));
		expect(Date.parse(processed.metadata.processed_at)).toBeLessThanOrEqual(
			Date.parse(delivered.metadata.delivered_at),
		);

		const { postbacks } = await eventually(async () => {
			const state = await sandbox.admin.state();
			return state.postbacks.length === 3 ? state : undefined;
		});
		expect(postbacks).toEqual(
			received.map((postback) => ({
				url: receiver.url,
				body: postback.body,
				responseStatus: 200,
				sentAt: expect.stringMatching(ISO),
			})),
		);
	});

	it('bounces mail to bounce.example.com after it was sent and processed', async () => {
		await sandbox.admin.configure({ postbacks: { url: receiver.url, delayMs: 5 } });
		await send('bouncer');
		const received = await receiver.waitFor(3);
		expect(received.map((postback) => postback.body.status)).toEqual(['sent', 'processed', 'bounced']);
		expect(received[2].body.metadata).toEqual({
			campaign_api_id: 'receipt',
			bounced_at: expect.stringMatching(ISO),
			reason: '550 5.1.1 mailbox unavailable',
		});
		const { transactionalSends } = await sandbox.admin.state();
		expect(transactionalSends[0].statuses).toEqual(['queued', 'sent', 'processed', 'bounced']);
	});

	it('aborts a send to a user without an email address', async () => {
		await sandbox.admin.configure({ postbacks: { url: receiver.url, delayMs: 5 } });
		await send('no-email', 'abc');
		const [aborted] = await receiver.waitFor(1);
		expect(aborted.body).toEqual({
			dispatch_id: expect.any(String),
			status: 'aborted',
			metadata: {
				external_send_id: 'abc',
				campaign_api_id: 'receipt',
				aborted_at: expect.stringMatching(ISO),
				reason: 'User has no email address',
			},
		});
		await sleep(60);
		expect(receiver.received).toHaveLength(1);
		expect((await sandbox.admin.state()).transactionalSends[0].statuses).toEqual(['queued', 'aborted']);
	});

	it('paces status changes by delayMs', async () => {
		await sandbox.admin.configure({ postbacks: { url: receiver.url, delayMs: 120 } });
		const start = Date.now();
		await send('reader');
		const received = await receiver.waitFor(3);
		expect(received[0].receivedAt - start).toBeGreaterThanOrEqual(100);
		expect(received[1].receivedAt - received[0].receivedAt).toBeGreaterThanOrEqual(100);
		expect(received[2].receivedAt - received[1].receivedAt).toBeGreaterThanOrEqual(100);
	});

	it('records an error answer and goes on with the next status', async () => {
		receiver.answerWith(500);
		await sandbox.admin.configure({ postbacks: { url: receiver.url, delayMs: 5 } });
		await send('reader');
		await receiver.waitFor(3);
		const { postbacks } = await eventually(async () => {
			const state = await sandbox.admin.state();
			return state.postbacks.length === 3 ? state : undefined;
		});
		expect(postbacks.map((postback) => postback.responseStatus)).toEqual([500, 500, 500]);
	});

	it('survives an unreachable postback URL: null responses, the error recorded, the API still serving', async () => {
		const closedPort = await freePort();
		const url = `http://127.0.0.1:${closedPort}/postbacks`;
		await sandbox.admin.configure({ postbacks: { url, delayMs: 5 } });
		expect((await send('reader')).status).toBe(201);
		const { postbacks } = await eventually(async () => {
			const state = await sandbox.admin.state();
			return state.postbacks.length === 3 ? state : undefined;
		});
		expect(postbacks.map((postback) => [postback.url, postback.responseStatus])).toEqual([
			[url, null],
			[url, null],
			[url, null],
		]);
		expect(postbacks[0].error).toMatch(/ECONNREFUSED/);
		expect((await send('reader')).status).toBe(201);
	});

	it('stops pending status changes and postbacks on reset', async () => {
		await sandbox.admin.configure({ postbacks: { url: receiver.url, delayMs: 100 } });
		await send('reader');
		await receiver.waitFor(1);
		await sandbox.admin.reset();
		await sleep(300);
		expect(receiver.received).toHaveLength(1);
		expect((await sandbox.admin.state()).postbacks).toEqual([]);
		expect((await sandbox.admin.configure({})).postbacks).toEqual({ url: null, headers: {}, delayMs: 50 });
	});

	it.each([
		['a URL that is not http(s)', { url: 'ftp://example.com/x' }, /postbacks\.url must be an http\(s\) URL/],
		[
			'a header value that is not a string',
			{ url: 'http://127.0.0.1:1/x', headers: { 'X-Count': 1 } },
			/postbacks\.headers\.X-Count must be a string/,
		],
		[
			'a bad header name',
			{ url: 'http://127.0.0.1:1/x', headers: { 'Bad Header': 'x' } },
			/'Bad Header' is not a valid header name/,
		],
		['a negative delay', { url: null, delayMs: -1 }, /postbacks\.delayMs must be a number of at least 0/],
	])('refuses a postback setting with %s', async (_case, postbacks, message) => {
		await expect(sandbox.admin.configure({ postbacks: postbacks as never })).rejects.toThrow(message);
	});

	it('replaces the whole postback setting and shows it in the config', async () => {
		const first = await sandbox.admin.configure({
			postbacks: { url: receiver.url, headers: { 'X-A': '1' }, delayMs: 10 },
		});
		expect(first.postbacks).toEqual({ url: receiver.url, headers: { 'X-A': '1' }, delayMs: 10 });
		const second = await sandbox.admin.configure({ postbacks: { url: null } });
		expect(second.postbacks).toEqual({ url: null, headers: {}, delayMs: 50 });
	});
});

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
