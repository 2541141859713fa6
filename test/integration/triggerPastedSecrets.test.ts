/**
 * A Trigger credential saved as users paste it (a token or password with a space, a tab or a line
 * break around it) against the sandbox's real postbacks, each carrying the secret as HTTP carries
 * it: a header value loses the spaces and tabs around it and cannot carry a line break; a Basic
 * header carries its user and password, padding and all, inside base64, and the platform may hold
 * them with the padding or without it. Whatever the paste, the authentic postback starts its one
 * execution, and a wrong one none (see test/harness/webhook.ts for how the trigger runs).
 */
import { randomBytes } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { StateView } from '../../sandbox/adminApiTypes';
import type { WebhookServer } from '../harness';
import { startWebhookServer } from '../harness';
import { leaksIn, traceOf, visibleTraces } from '../reliability/secrets';
import { TRIGGER, TRIGGER_NODE } from '../support/nodeTypes';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

// Made up per run: whatever they leak into, they cannot be there by chance.
const TOKEN = `tok-${randomBytes(16).toString('hex')}`;
const USER = `platform-${randomBytes(4).toString('hex')}`;
const PASSWORD = `pw-${randomBytes(16).toString('hex')}`;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

let server: WebhookServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

beforeEach(async () => {
	await client().seed({
		profiles: [{ external_id: 'customer-1001', email: 'ada@example.com' }],
		campaigns: [{ id: 'order-receipt', kind: 'transactional' }],
	});
});

/**
 * An order receipt sent through the platform, with the trigger set up as given and the platform's
 * postback setting sending `headers`: its three postbacks (sent, processed, delivered) and the
 * executions they started (the trigger starts on delivered only).
 */
async function receiptPostbacks(
	parameters: INodeParameters,
	credential: IDataObject,
	headers: Record<string, string>,
): Promise<{ statuses: Array<number | null>; executions: number; trace: string }> {
	server = await startWebhookServer({
		trigger: { type: TRIGGER_NODE, name: TRIGGER, parameters: { ...parameters, statuses: ['delivered'] } },
		credentials: { engagementPlatformPostbackAuthApi: credential as Record<string, string> },
	});
	await client().configure({ postbacks: { url: server.url, headers, delayMs: 5 } });
	const response = await fetch(`${sandbox().url}/transactional/v1/campaigns/order-receipt/send`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` },
		body: JSON.stringify({ external_send_id: 'order-1001-receipt', recipient: { external_user_id: 'customer-1001' } }),
	});
	expect(response.status).toBe(201);
	const postbacks = await postbacksAnswered(3);
	const calls = await server.settled();
	return {
		statuses: postbacks.map((postback) => postback.responseStatus),
		executions: calls.filter((call) => call.execution).length,
		trace: calls
			.map(({ logs, webhookResult, webhookError, execution }) =>
				[traceOf([logs, webhookResult, webhookError]), execution ? visibleTraces(execution) : ''].join('\n'),
			)
			.join('\n'),
	};
}

async function postbacksAnswered(count: number): Promise<StateView['postbacks']> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const { postbacks } = await client().state();
		if (postbacks.length >= count) return postbacks;
		if (Date.now() > deadline) throw new Error(`only ${postbacks.length} of ${count} postbacks were answered`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

describe('a Header Token saved with spaces or line breaks around it', () => {
	test.each([
		['a line break at its end', `${TOKEN}\n`, TOKEN],
		['a Windows line break at its end', `${TOKEN}\r\n`, TOKEN],
		['a space on either side, the platform holding it trimmed', ` ${TOKEN} `, TOKEN],
		['a space on either side, the platform holding the spaces too', ` ${TOKEN} `, ` ${TOKEN} `],
		['a tab before it, a line break after it', `\t${TOKEN}\n`, `\t${TOKEN}`],
	])('%s: the authentic postback starts one execution', async (_, saved, platformHolds) => {
		const run = await receiptPostbacks(
			{ authentication: 'headerAuth' },
			{ headerName: 'X-Postback-Token', headerToken: saved },
			{ 'X-Postback-Token': platformHolds },
		);

		expect(run.statuses).toEqual([200, 200, 200]);
		expect(run.executions).toBe(1);
		expect(leaksIn(run.trace, [saved, TOKEN])).toEqual([]);
	});

	test.each([
		['another token', `${TOKEN.slice(0, -1)}${TOKEN.endsWith('0') ? '1' : '0'}`],
		['the token with a space inside it, which HTTP carries', `${TOKEN.slice(0, 8)} ${TOKEN.slice(8)}`],
		['the token cut short', TOKEN.slice(0, -1)],
	])('%s is still answered 401 and starts nothing', async (_, platformHolds) => {
		const run = await receiptPostbacks(
			{ authentication: 'headerAuth' },
			{ headerName: 'X-Postback-Token', headerToken: `${TOKEN}\n` },
			{ 'X-Postback-Token': platformHolds },
		);

		expect(run.statuses).toEqual([401, 401, 401]);
		expect(run.executions).toBe(0);
	});
});

describe('a Basic Auth user and password saved with spaces or line breaks around them', () => {
	test.each([
		['a password with a line break at its end, the platform holding it trimmed', USER, `${PASSWORD}\n`, USER, PASSWORD],
		[
			'a user and password padded, the platform holding them padded (base64 carries it)',
			` ${USER}\t`,
			`${PASSWORD} `,
			` ${USER}\t`,
			`${PASSWORD} `,
		],
		['a password saved trimmed, the platform holding it with a space', USER, PASSWORD, USER, ` ${PASSWORD}`],
	])('%s: the authentic postback starts one execution', async (_, user, password, platformUser, platformPassword) => {
		const run = await receiptPostbacks(
			{ authentication: 'basicAuth' },
			{ headerName: 'X-Postback-Token', user, password },
			{ Authorization: basic(platformUser, platformPassword) },
		);

		expect(run.statuses).toEqual([200, 200, 200]);
		expect(run.executions).toBe(1);
		expect(leaksIn(run.trace, [password, PASSWORD])).toEqual([]);
	});

	test('a password with a space inside it where the saved one has none is answered 401', async () => {
		const run = await receiptPostbacks(
			{ authentication: 'basicAuth' },
			{ headerName: 'X-Postback-Token', user: USER, password: `${PASSWORD}\n` },
			{ Authorization: basic(USER, `${PASSWORD.slice(0, 6)} ${PASSWORD.slice(6)}`) },
		);

		expect(run.statuses).toEqual([401, 401, 401]);
		expect(run.executions).toBe(0);
	});
});

/**
 * A header's bytes are read by n8n (Node) one byte per character (latin1), but a platform's HTTP
 * client may write a letter such as "é" as its UTF-8 bytes (the sandbox's does, as Node writes a
 * header with its body's encoding): the Header Token is compared in either encoding. A Basic header's
 * base64 may hold UTF-8 or latin1 (RFC 7617 names UTF-8 only as an option): both are compared too.
 */
describe('a secret holding a Latin-1 letter, as a platform may encode it', () => {
	const LETTERED = `${TOKEN.slice(0, 8)}é${TOKEN.slice(8)}ß`;
	const asBytes = (text: string, encoding: BufferEncoding) => Buffer.from(text, encoding).toString('latin1');
	const aborted = { dispatch_id: 'dispatch-1', status: 'aborted', metadata: {} };

	test('the sandbox posting the Header Token (UTF-8 bytes) starts one execution', async () => {
		const run = await receiptPostbacks(
			{ authentication: 'headerAuth' },
			{ headerName: 'X-Postback-Token', headerToken: `${LETTERED}\n` },
			{ 'X-Postback-Token': LETTERED },
		);

		expect(run.statuses).toEqual([200, 200, 200]);
		expect(run.executions).toBe(1);
	});

	test.each([
		['latin1', 'headerAuth', { 'X-Postback-Token': asBytes(LETTERED, 'latin1') }],
		['UTF-8', 'headerAuth', { 'X-Postback-Token': asBytes(LETTERED, 'utf8') }],
		[
			'latin1',
			'basicAuth',
			{ Authorization: `Basic ${Buffer.from(`${USER}:${LETTERED}`, 'latin1').toString('base64')}` },
		],
		['UTF-8', 'basicAuth', { Authorization: `Basic ${Buffer.from(`${USER}:${LETTERED}`, 'utf8').toString('base64')}` }],
	])('in %s bytes, %s starts one execution', async (_, authentication, headers) => {
		server = await startWebhookServer({
			trigger: { type: TRIGGER_NODE, name: TRIGGER, parameters: { authentication, statuses: ['aborted'] } },
			credentials: {
				engagementPlatformPostbackAuthApi: {
					headerName: 'X-Postback-Token',
					headerToken: LETTERED,
					user: USER,
					password: LETTERED,
				},
			},
		});

		const call = await server.send({ headers, body: aborted });

		expect(call.status).toBe(200);
		expect(call.execution?.output(TRIGGER)).toHaveLength(1);
	});

	test('the same letter written as another one is still refused', async () => {
		server = await startWebhookServer({
			trigger: {
				type: TRIGGER_NODE,
				name: TRIGGER,
				parameters: { authentication: 'headerAuth', statuses: ['aborted'] },
			},
			credentials: { engagementPlatformPostbackAuthApi: { headerName: 'X-Postback-Token', headerToken: LETTERED } },
		});

		const call = await server.send({ headers: { 'X-Postback-Token': LETTERED.replace('é', 'e') }, body: aborted });

		expect(call.status).toBe(401);
		expect(call.execution).toBeUndefined();
	});
});
