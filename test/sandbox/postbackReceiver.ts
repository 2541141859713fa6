import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

interface ReceivedPostback {
	headers: IncomingHttpHeaders;
	body: any;
	receivedAt: number;
}

export interface PostbackReceiver {
	url: string;
	received: ReceivedPostback[];
	/** The status the receiver answers with (default 200). */
	answerWith(status: number): void;
	/** Resolves once `count` postbacks have arrived; rejects after `timeoutMs`. */
	waitFor(count: number, timeoutMs?: number): Promise<ReceivedPostback[]>;
	close(): Promise<void>;
}

/** A customer's postback endpoint: a local HTTP server on 127.0.0.1 and a free port, recording what arrives. */
export async function startPostbackReceiver(): Promise<PostbackReceiver> {
	const received: ReceivedPostback[] = [];
	let status = 200;
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push({
				headers: request.headers,
				body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
				receivedAt: Date.now(),
			});
			response.writeHead(status, { 'Content-Type': 'text/plain' });
			response.end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/postbacks`,
		received,
		answerWith: (next) => {
			status = next;
		},
		waitFor: (count, timeoutMs = 3000) =>
			eventually(() => (received.length >= count ? received : undefined), timeoutMs, `${count} postbacks`),
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/** Polls `probe` until it returns something other than undefined. */
export async function eventually<T>(
	probe: () => T | undefined | Promise<T | undefined>,
	timeoutMs = 3000,
	what = 'the condition',
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
