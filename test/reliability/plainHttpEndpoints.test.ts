/**
 * A REST or SCIM endpoint without https (other than localhost) never receives a key: not from a
 * node run, not from the credential test. A listener records every byte that reaches it; it sits
 * on 127.0.0.2, an address of this machine that the nodes do not count as local, so it stands in
 * for a remote host without leaving the machine.
 */
import type { AddressInfo, Server, Socket } from 'node:net';
import { createServer } from 'node:net';

import { EngagementPlatformApi } from '../../credentials/EngagementPlatformApi.credentials';
import { EngagementPlatformScimApi } from '../../credentials/EngagementPlatformScimApi.credentials';
import { DASHBOARD_USER_NODE } from '../support/nodeTypes';
import { runNode } from '../support/runNode';
import { testCredential } from '../support/testCredential';
import { runUserNode, trackEventParameters } from '../support/userRuns';
import { freshSecret, leakedSecrets } from './secrets';

const API_KEY = freshSecret('key');
const SCIM_TOKEN = freshSecret('scim');

describe('An endpoint without https', () => {
	let listener: Server;
	let endpoint: string;
	const received: Buffer[] = [];
	const sockets = new Set<Socket>();
	const receivedText = () => Buffer.concat(received).toString('latin1');

	beforeAll(async () => {
		listener = createServer((socket) => {
			sockets.add(socket);
			socket.on('data', (chunk) => received.push(chunk));
			socket.on('close', () => sockets.delete(socket));
			// Answers nothing: whatever the client sends first is what it would have sent a remote host.
			setTimeout(() => socket.destroy(), 200);
		});
		await new Promise<void>((resolve) => listener.listen(0, '127.0.0.2', resolve));
		endpoint = `http://127.0.0.2:${(listener.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise((resolve) => listener.close(resolve));
	});
	beforeEach(() => (received.length = 0));

	test('is refused by the REST nodes before anything is sent', async () => {
		const result = await runUserNode({
			items: [{ userId: 'crm-1', event: 'clicked', time: '2026-11-01T12:00:00Z', properties: {} }],
			parameters: trackEventParameters(),
			endpoint,
			apiKey: API_KEY,
		});

		expect(result.error?.message).toContain('does not use https');
		expect(received).toEqual([]);
		expect(leakedSecrets(result, [API_KEY])).toEqual([]);
	});

	test('is refused by the SCIM node before anything is sent', async () => {
		const result = await runNode(DASHBOARD_USER_NODE, {
			parameters: { operation: 'findByEmail', email: 'mia@example.com' },
			credentials: {
				engagementPlatformScimApi: { scimEndpoint: endpoint, scimToken: SCIM_TOKEN, requestOrigin: 'n8n.example.com' },
			},
		});

		expect(result.error?.message).toContain('does not use https');
		expect(received).toEqual([]);
		expect(leakedSecrets(result, [SCIM_TOKEN])).toEqual([]);
	});

	test.each([
		['REST', new EngagementPlatformApi().test, 'engagementPlatformApi', { restEndpoint: '', apiKey: API_KEY }, API_KEY],
		[
			'SCIM',
			new EngagementPlatformScimApi().test,
			'engagementPlatformScimApi',
			{ scimEndpoint: '', scimToken: SCIM_TOKEN, requestOrigin: 'n8n.example.com' },
			SCIM_TOKEN,
		],
	] as const)(
		'gets the %s credential test over https only, so the key never travels in the clear',
		async (_, credentialTest, type, data, secret) => {
			const field = type === 'engagementPlatformApi' ? 'restEndpoint' : 'scimEndpoint';

			const outcome = await testCredential(credentialTest, { ...data, [field]: endpoint }, type);

			expect(outcome.status).toBe('Error');
			// A TLS handshake arrived instead of an HTTP request: no request line, no header, no key.
			expect(received.length).toBeGreaterThan(0);
			expect(received[0][0]).toBe(0x16);
			expect(receivedText()).not.toContain(secret);
			expect(receivedText()).not.toContain('Authorization');
		},
	);
});
