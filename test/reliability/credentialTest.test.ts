/**
 * The credential Test sends the key the way the nodes do, through the package's one transport: it
 * follows no redirect (n8n's request helper would take the key, and a 307 the body, wherever the
 * Location points), says which host the redirect named, sends a pasted key trimmed, and never says the
 * key back, in whatever form the endpoint echoes it.
 */
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject, INodeType } from 'n8n-workflow';

import { packageCredentialTypes, packageNodeTypes } from '../harness';

import { useSandbox } from '../integration/sandboxLifecycle';
import { runCredentialTest, testCredential } from '../support/testCredential';
import { ECHOES, PADS, pastedKey } from './echoes';
import { leaksIn, traceOf } from './secrets';

const { sandbox, client } = useSandbox();
const ORIGIN = 'n8n.example.com';
const REDIRECTS = [301, 302, 303, 307, 308] as const;

interface Received {
	method?: string;
	url?: string;
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
			received.push({ method: request.method, url: request.url, headers: request.headers, body });
			response.writeHead(201, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ message: 'success', schemas: [], totalResults: 0, Resources: [] }));
		});
	});
	await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
	foreignUrl = `http://localhost:${(foreign.address() as AddressInfo).port}`;
});
afterAll(async () => await new Promise((resolve) => foreign.close(resolve)));
beforeEach(() => (received.length = 0));

/** The two credentials the nodes use, each with the request its Test sends. */
const CREDENTIALS = [
	{
		type: 'engagementPlatformApi',
		method: 'POST',
		path: '/users/track',
		async register(key: string) {
			await client().addApiKey(key, ['users.track']);
		},
		data: (key: string, endpoint = sandbox().url): ICredentialDataDecryptedObject => ({
			restEndpoint: endpoint,
			apiKey: key,
		}),
	},
	{
		type: 'engagementPlatformScimApi',
		method: 'GET',
		path: '/scim/v2/Users',
		async register(key: string) {
			await client().addScimToken(key, ORIGIN);
		},
		data: (key: string, endpoint = sandbox().url): ICredentialDataDecryptedObject => ({
			scimEndpoint: endpoint,
			scimToken: key,
			requestOrigin: ORIGIN,
		}),
	},
] as const;

describe.each(CREDENTIALS)('the $type credential Test', (credential) => {
	const redirectTo = async (status: number, location: string) =>
		await client().injectFaults([
			{
				path: credential.path,
				method: credential.method,
				kind: 'answer',
				times: 1,
				status,
				answerBody: {},
				answerHeaders: { Location: location },
			},
		]);

	test.each(REDIRECTS)(
		'%i to another origin: nothing reaches it, the Test says Error and names the host',
		async (status) => {
			const { core } = pastedKey([], '', '');
			await credential.register(core);
			await redirectTo(status, `${foreignUrl}${credential.path}`);

			const { result, logs } = await runCredentialTest(credential.type, credential.data(core));

			expect(received).toEqual([]);
			expect(result.status).toBe('Error');
			expect(result.message).toContain(`redirecting to ${new URL(foreignUrl).host}`);
			expect(result.message).toContain('not followed');
			expect(leaksIn(traceOf([result, logs]), [core])).toEqual([]);
			expect(await client().requests()).toHaveLength(1);
		},
	);

	test.each(REDIRECTS)(
		'%i to the same origin is not followed either: one request, and the Test names the host',
		async (status) => {
			const { core } = pastedKey([], '', '');
			await credential.register(core);
			await redirectTo(status, `${credential.path}/`);

			const outcome = await testCredential(undefined, credential.data(core), credential.type);

			expect(outcome).toEqual({
				status: 'Error',
				message: expect.stringContaining(`redirecting to ${new URL(sandbox().url).host}`),
			});
			expect(await client().requests()).toHaveLength(1);
		},
	);

	test.each(PADS.filter((pad) => pad !== ''))('a key pasted with %j around it passes, sent trimmed', async (pad) => {
		const { core, pasted } = pastedKey(['+', '/', '='], pad, pad);
		await credential.register(core);

		expect(await testCredential(undefined, credential.data(pasted), credential.type)).toEqual({ status: 'OK' });
		const [request] = await client().requests();
		expect(request).toMatchObject({ method: credential.method, path: credential.path });
		expect(request.status).toBeLessThan(300);
	});

	test.each(ECHOES)('an answer echoing the key, $name: the Test never says it back', async (echo) => {
		const { core, pasted } = pastedKey(['"', '+', '/', '%', 'é'], ' ', '\r\n');
		await credential.register(core);
		await client().injectFaults([
			{ path: credential.path, method: credential.method, kind: 'answer', times: 1, ...echo.answer(core, pasted) },
		]);

		const { result, logs } = await runCredentialTest(credential.type, credential.data(pasted));

		expect(result.status).toBe('Error');
		expect(leaksIn(traceOf([result, logs]), [pasted])).toEqual([]);
	});

	test('a key with a character no header can carry is refused before anything is sent', async () => {
		const { pasted } = pastedKey(['€'], '', '\n');

		const outcome = await testCredential(undefined, credential.data(pasted), credential.type);

		expect(outcome).toEqual({ status: 'Error', message: expect.stringContaining('cannot carry') });
		expect(leaksIn(traceOf(outcome), [pasted])).toEqual([]);
		expect(await client().requests()).toEqual([]);
	});
});

describe('n8n finds the Test', () => {
	test.each(CREDENTIALS.map(({ type }) => type))(
		'%s has no declarative test, and every node using it names the one Test function',
		(type) => {
			expect(packageCredentialTypes()[type].test).toBeUndefined();
			const users = (Object.values(packageNodeTypes()) as INodeType[]).flatMap((nodeType) =>
				(nodeType.description.credentials ?? [])
					.filter(({ name }) => name === type)
					.map(({ testedBy }) => nodeType.methods?.credentialTest?.[String(testedBy)]),
			);
			expect(users.length).toBeGreaterThan(0);
			expect(new Set(users).size).toBe(1);
			expect(typeof users[0]).toBe('function');
		},
	);
});

describe('the Test reads the answer to the letter', () => {
	test('the REST Test passes only on the platform\'s "success"', async () => {
		await client().injectFaults([
			{ path: '/users/track', kind: 'answer', times: 1, status: 200, answerBody: '<html>Dashboard</html>' },
		]);

		const outcome = await testCredential(undefined, { restEndpoint: sandbox().url, apiKey: 'sandbox-demo-key' });

		expect(outcome).toEqual({ status: 'Error', message: expect.stringContaining('answered 200') });
	});

	test('the SCIM Test passes only on JSON', async () => {
		await client().addScimToken('scim-token-for-the-test', ORIGIN);
		await client().injectFaults([
			{ path: '/scim/v2/Users', kind: 'answer', times: 1, status: 200, answerBody: '<html>Dashboard</html>' },
		]);

		const outcome = await testCredential(
			undefined,
			{ scimEndpoint: sandbox().url, scimToken: 'scim-token-for-the-test', requestOrigin: ORIGIN },
			'engagementPlatformScimApi',
		);

		expect(outcome).toEqual({ status: 'Error', message: expect.stringContaining('answered 200') });
	});

	test("another refusal names its status and the platform's words, without the key", async () => {
		const key = 'sk-live-5f1e9c0a7b2d4e8f';
		await client().addApiKey(key, '*');
		await client().injectFaults([
			{ path: '/users/track', kind: 'answer', times: 1, status: 429, answerBody: { message: `Slow down, ${key}` } },
		]);

		const outcome = await testCredential(undefined, { restEndpoint: sandbox().url, apiKey: key });

		expect(outcome).toEqual({ status: 'Error', message: expect.stringContaining('429') });
		expect(JSON.stringify(outcome)).not.toContain(key);
		expect(JSON.stringify(outcome)).toContain('Slow down, [redacted]');
	});
});
