import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import type { FaultRule } from '../../sandbox/adminApiTypes';
import { useSandbox } from '../integration/sandboxLifecycle';
import { DASHBOARD_USER_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { rowOf, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { freshSecret, leakedSecrets } from './secrets';

/**
 * The API key stays with the platform: a redirect to another host is not followed (the key would go
 * with it), and an answer that echoes the request's headers back never carries the key into an item,
 * the error output, the thrown error or n8n's log.
 */
const { sandbox, client } = useSandbox();
const KEY = freshSecret('key');

interface Received {
	method?: string;
	headers: IncomingHttpHeaders;
	body: string;
}
let foreign: Server;
let foreignUrl: string;
const received: Received[] = [];

beforeAll(async () => {
	foreign = createServer((request, response) => {
		let body = '';
		request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
		request.on('end', () => {
			received.push({ method: request.method, headers: request.headers, body });
			response.writeHead(201, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ message: 'success' }));
		});
	});
	await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
	foreignUrl = `http://localhost:${(foreign.address() as AddressInfo).port}`;
});
afterAll(async () => await new Promise((resolve) => foreign.close(resolve)));
beforeEach(async () => {
	received.length = 0;
	await client().addApiKey(KEY, '*');
});

const trackEvent: INodeParameters = {
	operation: 'trackEvent',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	eventName: 'visited',
	time: '2026-11-24T02:00:00Z',
};
const run = async (onError?: 'continueErrorOutput') =>
	await runNode(USER_NODE, {
		parameters: trackEvent,
		items: [{ id: 'u1' }],
		endpoint: sandbox().url,
		apiKey: KEY,
		...(onError ? { onError } : { continueOnFail: true }),
	});

describe('a redirect to another host is not followed', () => {
	for (const status of [301, 302, 303, 307, 308]) {
		test(`${status} to another origin: nothing reaches it, and the item names the host without the key`, async () => {
			await client().injectFaults([
				{
					path: '/users/track',
					kind: 'answer',
					times: 1,
					status,
					answerBody: {},
					answerHeaders: { Location: `${foreignUrl}/users/track` },
				},
			]);
			const result = await run();

			expect(received).toEqual([]);
			const [answer] = result.output(USER).map(({ json }) => json);
			expect(statusOf(answer)).toBe('failed');
			expect(String(answer.error)).toContain(new URL(foreignUrl).host);
			expect(rowOf(answer)).toEqual({ id: 'u1', error: wordsOf(answer).error });
			expect(leakedSecrets(result, [KEY])).toEqual([]);
		});
	}
});

describe('a redirect to the same origin is not followed either', () => {
	for (const status of [301, 302, 303, 307, 308]) {
		test(`${status} to a path of the endpoint: one request, and the item names the endpoint's host`, async () => {
			await client().injectFaults([
				{
					path: '/users/track',
					kind: 'answer',
					times: 1,
					status,
					answerBody: {},
					answerHeaders: { Location: '/users/track/' },
				},
			]);
			const result = await run();

			expect(await client().requests()).toHaveLength(1);
			const [answer] = result.output(USER).map(({ json }) => json);
			expect(statusOf(answer)).toBe('failed');
			expect(String(answer.error)).toContain(`redirecting to ${new URL(sandbox().url).host}: not followed`);
			expect(rowOf(answer)).toEqual({ id: 'u1', error: wordsOf(answer).error });
			expect(leakedSecrets(result, [KEY])).toEqual([]);
		});
	}
});

describe('an answer that echoes the request headers carries no key anywhere', () => {
	const echoes: Array<[string, Partial<FaultRule>]> = [
		[
			'a 401 JSON',
			{ status: 401, answerBody: { message: `Bad key: Bearer ${KEY}`, headers: { authorization: `Bearer ${KEY}` } } },
		],
		['a 502 HTML page', { status: 502, answerBody: `<html><pre>Authorization: Bearer ${KEY}</pre></html>` }],
		['a 400 text', { status: 400, answerBody: `authorization=Bearer ${KEY}`, contentType: 'text/plain' }],
	];
	for (const [name, echo] of echoes) {
		test(`${name}: not in the item, the error output, the thrown error or the log`, async () => {
			for (const onError of [undefined, 'continueErrorOutput'] as const) {
				await client().injectFaults([{ path: '/users/track', kind: 'answer', times: 4, ...echo }]);
				const regular = await run(onError);
				expect(leakedSecrets(regular, [KEY])).toEqual([]);
			}
			await client().injectFaults([{ path: '/users/track', kind: 'answer', times: 4, ...echo }]);
			const stopped = await runNode(USER_NODE, {
				parameters: trackEvent,
				items: [{ id: 'u1' }],
				endpoint: sandbox().url,
				apiKey: KEY,
			});
			expect(stopped.error).toBeDefined();
			expect(leakedSecrets(stopped, [KEY])).toEqual([]);
		});
	}
});

describe('the SCIM token stays with the platform too', () => {
	const TOKEN = freshSecret('scim');
	const ORIGIN = 'n8n.example.com';

	test('a 401 echoing the token and a 307 to another host: the token is nowhere, and nothing reaches the host', async () => {
		await client().addScimToken(TOKEN, ORIGIN);
		await client().injectFaults([
			{
				path: '/scim/v2/Users',
				method: 'GET',
				kind: 'answer',
				times: 1,
				status: 401,
				answerBody: { detail: `Bearer ${TOKEN} refused` },
			},
			{
				path: '/scim/v2/Users',
				method: 'GET',
				kind: 'answer',
				times: 1,
				status: 307,
				answerBody: {},
				answerHeaders: { Location: `${foreignUrl}/scim/v2/Users` },
			},
		]);
		for (let run = 0; run < 2; run++) {
			const result = await runNode(DASHBOARD_USER_NODE, {
				parameters: { operation: 'findByEmail', email: 'mia@example.com' },
				items: [{}],
				credentials: {
					engagementPlatformScimApi: { scimEndpoint: sandbox().url, scimToken: TOKEN, requestOrigin: ORIGIN },
				},
				continueOnFail: true,
			});
			expect(leakedSecrets(result, [TOKEN])).toEqual([]);
		}
		expect(received).toEqual([]);
	});
});
