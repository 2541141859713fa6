import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Endpoint } from '../operation';

export interface ApiRequest {
	credentialType: string;
	baseUrl: string;
	/** The credential's secret values: never to come back in an answer's text (see redact). */
	secrets: readonly string[];
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	timeoutMs: number;
}

export interface ApiResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: IDataObject;
}

/**
 * The request never produced a response. `reachedServer` is false only when the connection
 * was refused or could not be opened, so the platform cannot have seen the request.
 */
export class TransportFailure extends Error {
	constructor(
		message: string,
		readonly code: string,
		readonly reachedServer: boolean,
	) {
		super(message);
		this.name = 'TransportFailure';
	}
}

/** Codes of failures where nothing reached the platform. */
const NOT_CONNECTED: ReadonlySet<string> = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);
const TIMED_OUT: ReadonlySet<string> = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);

/** The one place that speaks HTTP. Every status comes back as a response; only network failures throw. */
export async function sendRequest(context: IExecuteFunctions, request: ApiRequest): Promise<ApiResponse> {
	try {
		const response = (await context.helpers.httpRequestWithAuthentication.call(context, request.credentialType, {
			method: request.method,
			url: `${request.baseUrl}${request.path}`,
			body: request.body,
			qs: request.qs,
			json: true,
			timeout: request.timeoutMs,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// n8n's request helper sends the credential again to wherever a redirect points: a redirect
			// comes back as the answer, and the key goes nowhere but the credential's endpoint.
			disableFollowRedirect: true,
		})) as { statusCode: number; headers: ApiResponse['headers']; body: unknown };
		return {
			statusCode: response.statusCode,
			headers: response.headers ?? {},
			body: asObject(redact(response.body, request.secrets)),
		};
	} catch (error) {
		throw toTransportFailure(error);
	}
}

/**
 * Reads the endpoint URL of the credential once per run, and refuses one that would send
 * the key in clear text before any request leaves.
 */
export async function resolveEndpoint(
	context: IExecuteFunctions,
	credentialType: string,
): Promise<{ baseUrl: string; secrets: string[] }> {
	const credentials = await context.getCredentials(credentialType);
	const endpoint = String(credentials.restEndpoint ?? credentials.scimEndpoint ?? '').trim();
	const problem = endpointUrlProblem(endpoint);
	if (problem) {
		throw new NodeOperationError(context.getNode(), problem, {
			description: 'Open the credential and enter the endpoint URL of your workspace, starting with https://.',
		});
	}
	const secrets = [credentials.apiKey, credentials.scimToken].filter(
		(value): value is string => typeof value === 'string' && value.length >= MIN_SECRET_LENGTH,
	);
	return { baseUrl: endpoint.replace(/\/+$/, ''), secrets };
}

/** Shorter values could match ordinary text; a key this short is refused by the platform anyway. */
const MIN_SECRET_LENGTH = 6;

/**
 * An answer with the credential's values taken out. An error page may echo the request's headers
 * (`Authorization: Bearer …`), and what an answer says reaches items, errors, n8n's saved
 * executions and logs: the key must not ride along.
 */
export function redact(body: unknown, secrets: readonly string[]): unknown {
	if (secrets.length === 0) return body;
	if (typeof body === 'string') return secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), body);
	if (Array.isArray(body)) return body.map((entry) => redact(entry, secrets));
	if (body !== null && typeof body === 'object')
		return Object.fromEntries(
			Object.entries(body as Record<string, unknown>).map(([key, value]) => [
				redact(key, secrets) as string,
				redact(value, secrets),
			]),
		);
	return body;
}

function asObject(body: unknown): IDataObject {
	if (body && typeof body === 'object' && !Array.isArray(body)) return body as IDataObject;
	if (typeof body === 'string' && body.length > 0) {
		try {
			const parsed: unknown = JSON.parse(body);
			if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as IDataObject;
		} catch {
			// Not JSON: keep the text as the message.
		}
		return { message: body.slice(0, 1000) };
	}
	return {};
}

/**
 * Builds a fresh error from the failure's code alone: the original carries the request
 * configuration, headers included, and must never travel further.
 */
function toTransportFailure(error: unknown): TransportFailure {
	if (error instanceof TransportFailure) return error;
	const failure = error as { code?: string; cause?: { code?: string } };
	const code = failure.code ?? failure.cause?.code ?? 'UNKNOWN';
	if (NOT_CONNECTED.has(code)) {
		return new TransportFailure(`Could not connect to the platform (${code})`, code, false);
	}
	if (TIMED_OUT.has(code)) {
		return new TransportFailure('The platform did not answer before the timeout', code, true);
	}
	return new TransportFailure(`The connection failed before the platform answered (${code})`, code, true);
}

/**
 * The method a run uses for an endpoint. Where the endpoint names a fallback, a 405 Method Not
 * Allowed switches the run to it: the refused request is sent again at once with the fallback
 * (a 405 means nothing was processed), and every later request uses it from the start.
 */
export class MethodChoice {
	private method: IHttpRequestMethods;

	constructor(
		private readonly endpoint: Pick<Endpoint, 'method' | 'fallbackMethod'>,
		private readonly log: (message: string) => void,
	) {
		this.method = endpoint.method;
	}

	async send(sendWith: (method: IHttpRequestMethods) => Promise<ApiResponse>): Promise<ApiResponse> {
		const used = this.method;
		const response = await sendWith(used);
		const fallback = this.endpoint.fallbackMethod;
		if (response.statusCode !== 405 || !fallback || used === fallback) return response;
		if (this.method === used) {
			this.method = fallback;
			this.log(`the platform answered 405 to ${used}; using ${fallback} for the rest of this run`);
		}
		return await sendWith(this.method);
	}
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why an endpoint URL must not receive a key, or undefined when it may. Keys travel only over
 * https; plain http is accepted for a platform on this machine (a local sandbox).
 */
export function endpointUrlProblem(endpoint: string): string | undefined {
	let url: URL;
	try {
		url = new URL(endpoint);
	} catch {
		return `The endpoint "${endpoint}" is not a URL`;
	}
	if (url.protocol === 'https:') return undefined;
	if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
	return `The endpoint "${url.origin}" does not use https, so the key would travel unencrypted: it was not sent`;
}
