import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { RouteResult } from './route';

export function readBody(request: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks)));
		request.on('error', reject);
	});
}

export function sendJson(
	response: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	const text = body === undefined ? '' : JSON.stringify(body);
	response.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': String(Buffer.byteLength(text)),
		...headers,
	});
	response.end(text);
}

/** A route's answer: JSON, or its text as it is when the route asked for text/plain. */
export function sendResult(response: ServerResponse, result: RouteResult): void {
	if (result.format !== 'text') {
		sendJson(response, result.status, result.body, result.headers);
		return;
	}
	const text = String(result.body);
	response.writeHead(result.status, {
		'Content-Type': 'text/plain; charset=utf-8',
		'Content-Length': String(Buffer.byteLength(text)),
		...result.headers,
	});
	response.end(text);
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; failure: RouteResult; raw: string };

/** The JSON body of a request: undefined when there is none. */
export function parseJsonBody(headers: IncomingHttpHeaders, raw: Buffer): ParsedBody {
	if (raw.length === 0) return { ok: true, value: undefined };
	const text = raw.toString('utf8');
	const contentType = headers['content-type'] ?? '';
	// The spec: requests carry Content-Type: application/json. Anything else is refused with 415.
	if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType)) {
		const message = `Content-Type must be application/json (got ${contentType === '' ? 'none' : contentType})`;
		return { ok: false, raw: text, failure: { status: 415, body: { message, errors: [message] } } };
	}
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch (error) {
		const detail = error instanceof Error ? error.message : String(error);
		return {
			ok: false,
			raw: text,
			failure: { status: 400, body: { message: 'Invalid JSON body', errors: [`Invalid JSON body: ${detail}`] } },
		};
	}
}

export function queryOf(url: URL): Record<string, string> {
	return Object.fromEntries(url.searchParams);
}

export function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
