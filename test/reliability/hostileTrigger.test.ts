/**
 * The Trigger under generated hostile requests (fast-check, seeded): broken JSON, other media
 * types, bodies over 1 MB, a missing or wrong secret, replayed postbacks, other methods. Each
 * gets its status code and starts no execution, every time, and no secret is ever echoed.
 */
import fc from 'fast-check';

import type { WebhookCall, WebhookRequest, WebhookServer } from '../harness';
import { startWebhookServer } from '../harness';
import { TRIGGER, TRIGGER_NODE } from '../support/nodeTypes';
import { freshSecret } from './secrets';

const TOKEN = freshSecret('postback-token');
const PASSWORD = freshSecret('postback-password');
const HEADER = 'X-Postback-Token';
const ONE_MB = 1024 * 1024;
const tally = { sent: 0, asExpected: 0, executions: 0, leaked: 0 };
const sentByKind: Record<string, number> = {};

/** One hostile request, the status it must get, and a name for the failure message. */
interface Hostile {
	kind: string;
	request: WebhookRequest;
	status: number;
}

const authorized = { [HEADER]: TOKEN };
const postback = (dispatchId: string) => ({
	dispatch_id: dispatchId,
	status: 'delivered',
	metadata: { external_send_id: 'receipt-1' },
});
const notJson = fc.string({ minLength: 1, maxLength: 200 }).filter((text) => !parses(text));

const hostileRequests: fc.Arbitrary<Hostile> = fc.oneof(
	// A JSON media type of the platform's own reaches the trigger (400); application/json stops at n8n's parser (422).
	notJson.map((body) => ({
		kind: 'malformed JSON',
		request: { headers: { ...authorized, 'Content-Type': 'application/vnd.platform+json' }, body },
		status: 400,
	})),
	notJson.map((body) => ({
		kind: 'malformed JSON',
		request: { headers: { ...authorized, 'Content-Type': 'application/json' }, body },
		status: 422,
	})),
	fc
		.constantFrom(
			'text/plain',
			'application/xml',
			'application/x-www-form-urlencoded',
			'text/html; charset=utf-8',
			'application/octet-stream',
		)
		.map((type) => ({
			kind: 'wrong content type',
			request: { headers: { ...authorized, 'Content-Type': type }, body: JSON.stringify(postback('d-1')) },
			status: 415,
		})),
	fc.record({ extra: fc.integer({ min: 1, max: ONE_MB / 4 }), chunked: fc.boolean() }).map(({ extra, chunked }) => ({
		kind: 'body over 1 MB',
		request: {
			headers: { ...authorized, 'Content-Type': 'application/json' },
			body: oversizeBody(ONE_MB + extra),
			chunked,
		},
		status: 413,
	})),
	fc.constant({
		kind: 'missing secret',
		request: { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(postback('d-2')) },
		status: 401,
	}),
	fc
		.string({ minLength: 1, maxLength: 64 })
		.filter((token) => token !== TOKEN && /^[\x21-\x7e]+$/.test(token))
		.map((token) => ({
			kind: 'wrong secret',
			request: {
				headers: { [HEADER]: token, 'Content-Type': 'application/json' },
				body: JSON.stringify(postback('d-3')),
			},
			status: 401,
		})),
	fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH').map((method) => ({
		kind: 'wrong method',
		request: {
			method,
			headers: { ...authorized, 'Content-Type': 'application/json' },
			body: method === 'GET' ? undefined : JSON.stringify(postback('d-4')),
		},
		status: 404,
	})),
);

describe('The Trigger under hostile requests', () => {
	let server: WebhookServer;
	beforeAll(async () => {
		server = await startWebhookServer({
			trigger: { type: TRIGGER_NODE, parameters: { authentication: 'headerAuth' } },
			credentials: {
				engagementPlatformPostbackAuthApi: {
					headerName: HEADER,
					headerToken: TOKEN,
					user: 'platform',
					password: PASSWORD,
				},
			},
		});
	});
	afterAll(async () => {
		await server.close();
		// eslint-disable-next-line no-console
		console.log(
			`hostile requests: ${tally.sent} sent (${Object.entries(sentByKind)
				.map(([kind, count]) => `${count} ${kind}`)
				.join(', ')}), ` +
				`${tally.asExpected} answered with the expected status, ${tally.executions} executions started by them, ${tally.leaked} secrets echoed`,
		);
	});

	const send = async (request: WebhookRequest): Promise<WebhookCall> => {
		const call = await server.send(request);
		tally.sent++;
		if (JSON.stringify([call.body, call.headers, call.logs]).includes(TOKEN) || call.body.includes(PASSWORD))
			tally.leaked++;
		return call;
	};

	test('each gets its status code and starts nothing', async () => {
		await fc.assert(
			fc.asyncProperty(hostileRequests, async (hostile) => {
				const call = await send(hostile.request);
				sentByKind[hostile.kind] = (sentByKind[hostile.kind] ?? 0) + 1;
				if (call.execution) tally.executions++;
				expect({ kind: hostile.kind, status: call.status }).toEqual({ kind: hostile.kind, status: hostile.status });
				expect(call.execution).toBeUndefined();
				tally.asExpected++;
			}),
			{ seed: 20261122, numRuns: 120 },
		);
		expect(tally.leaked).toBe(0);
	});

	test('a replayed postback is acknowledged and starts nothing the second time', async () => {
		await fc.assert(
			fc.asyncProperty(fc.uuid(), fc.integer({ min: 1, max: 3 }), async (dispatchId, replays) => {
				const request = {
					headers: { ...authorized, 'Content-Type': 'application/json' },
					body: JSON.stringify(postback(dispatchId)),
				};
				const first = await send(request);
				expect(first.execution?.output(TRIGGER)).toHaveLength(1);
				for (let replay = 0; replay < replays; replay++) {
					const again = await send(request);
					sentByKind.replayed = (sentByKind.replayed ?? 0) + 1;
					if (again.execution) tally.executions++;
					expect(again.status).toBe(200);
					expect(again.execution).toBeUndefined();
					tally.asExpected++;
				}
				// The genuine first postback is not a hostile request.
				tally.sent--;
			}),
			{ seed: 20261123, numRuns: 30 },
		);
		expect(tally.leaked).toBe(0);
	});
});

function parses(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}

function oversizeBody(bytes: number): string {
	const base = JSON.stringify({ ...postback('d-5'), metadata: { padding: '' } });
	return JSON.stringify({ ...postback('d-5'), metadata: { padding: 'x'.repeat(bytes - base.length) } });
}
