import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Sandbox } from '../../sandbox';
import { DEMO_API_KEY, startSandbox } from '../../sandbox';
import { sandboxCredentials } from '../support/sandboxCredentials';
import { N8N_APPS, ensureN8nApp, pinnedN8nVersion } from './support/n8nApp';
import { N8nInstance } from './support/n8nInstance';
import { N8nRestClient } from './support/n8nRestClient';

/**
 * The credential Test as a user clicks it, in the real n8n application on each line: n8n's own
 * credentials tester finds the nodes' test (the credentials declare none) and runs it. A working key
 * passes, a key pasted with a line break too; a refused key says so; an endpoint that redirects to
 * another host gets an Error naming that host, and the other host receives nothing.
 */
let sandbox: Sandbox;
let redirecting: Server;
let trap: Server;
let trapReceived = 0;
let redirectingUrl = '';

const listen = async (server: Server, host: string) =>
	await new Promise<string>((resolve) =>
		server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`)),
	);

beforeAll(async () => {
	sandbox = await startSandbox();
	trap = createServer((request, response) => {
		trapReceived++;
		request.resume();
		response.writeHead(201, { 'Content-Type': 'application/json' });
		response.end('{"message": "success"}');
	});
	const trapUrl = await listen(trap, '127.0.0.2');
	// A dashboard URL pasted for the endpoint: it sends every request on to another host.
	redirecting = createServer((request, response) => {
		request.resume();
		response.writeHead(302, { Location: `${trapUrl}${request.url ?? '/'}` });
		response.end();
	});
	redirectingUrl = await listen(redirecting, '127.0.0.1');
});

afterAll(async () => {
	await sandbox?.close();
	await Promise.all([trap, redirecting].map(async (server) => await new Promise((resolve) => server?.close(resolve))));
});

describe.each(N8N_APPS.map((appFolder) => [pinnedN8nVersion(appFolder), appFolder] as const))(
	'the credential Test in n8n %s',
	(version, appFolder) => {
		let n8n: N8nInstance | undefined;
		let rest: N8nRestClient;
		const credentials = () => [
			...sandboxCredentials(sandbox.url),
			{
				id: 'epPaddedKey',
				name: 'Key pasted with a line break',
				type: 'engagementPlatformApi',
				data: { restEndpoint: sandbox.url, apiKey: `${DEMO_API_KEY}\n` },
			},
			{
				id: 'epRefusedKey',
				name: 'A key the platform refuses',
				type: 'engagementPlatformApi',
				data: { restEndpoint: sandbox.url, apiKey: 'not-a-key-of-this-workspace' },
			},
			{
				id: 'epRedirecting',
				name: 'A dashboard URL',
				type: 'engagementPlatformApi',
				data: { restEndpoint: redirectingUrl, apiKey: DEMO_API_KEY },
			},
		];

		beforeAll(async () => {
			const app = ensureN8nApp(appFolder);
			n8n = N8nInstance.create(app);
			await n8n.importCredentials(credentials());
			rest = await N8nRestClient.asOwner(app, await n8n.start());
		}, 300_000);

		afterAll(async () => {
			await n8n?.dispose();
		});

		const test_ = async (id: string) => {
			const credential = credentials().find((candidate) => candidate.id === id)!;
			return await rest.post<{ status: string; message?: string }>('/credentials/test', { credentials: credential });
		};

		test(`${version}: the sandbox's key and SCIM token pass, and a key pasted with a line break too`, async () => {
			expect(await test_('epSandboxCredential')).toMatchObject({ status: 'OK' });
			expect(await test_('epSandboxScimCredential')).toMatchObject({ status: 'OK' });
			expect(await test_('epPaddedKey')).toMatchObject({ status: 'OK' });
		});

		test(`${version}: a refused key is an Error that says so`, async () => {
			const result = await test_('epRefusedKey');
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/refused this API key/);
		});

		test(`${version}: a redirect to another host is not followed: an Error naming the host, nothing reaches it`, async () => {
			const before = trapReceived;
			const result = await test_('epRedirecting');
			expect(result.status).toBe('Error');
			expect(result.message).toContain('127.0.0.2');
			expect(result.message).not.toContain(DEMO_API_KEY);
			expect(trapReceived).toBe(before);
		});
	},
);
