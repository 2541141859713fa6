import type { ICredentialTestFunctions, IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlannedRequest } from '../plan/planner';
import type { RateLimitName } from '../../limits/rateLimits';
import { credentialSecretProblem, redactorFor, runSecrets, secretsOf } from './secrets';

/** Where a request goes and which of the spec's rate limits it counts against. */
export interface Endpoint<Group = unknown, Payload = IDataObject> {
	method: IHttpRequestMethods;
	/** The path template, e.g. /catalogs/{catalog_name}/items: each {name} is filled from the request's group. */
	path: string;
	/** The Limits-table group every request counts against, or the declared rule that picks it per request. */
	rateLimit: RateLimitName | ((request: PlannedRequest<Group, Payload>) => RateLimitName);
	/** The API key permission the endpoint needs, named in errors. */
	permission: string;
	credentialType: 'engagementPlatformApi' | 'engagementPlatformScimApi';
	/**
	 * Where the platform's method is uncertain: the method to use for the rest of the run once
	 * it answers 405 Method Not Allowed to `method`.
	 */
	fallbackMethod?: IHttpRequestMethods;
	/**
	 * The spec describes this endpoint's success as `message` = success: a 2xx saying anything else
	 * (a fatal message, a proxy's page) is no success, and is read as a server error is.
	 */
	successSaysSo?: true;
	/**
	 * The spec's answer to a success carries this field (the messaging endpoints' `dispatch_id`): a 2xx
	 * without it proves no send, and is read as a server error is.
	 */
	successCarries?: 'dispatch_id';
}

export interface ApiRequest {
	credentialType: string;
	baseUrl: string;
	/** The credential's secret values, normalised (a run's carry their redactor): never to come back in an answer's text (see SecretRedactor). */
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

/** A request as it goes on the wire, whichever of n8n's helpers sends it. */
interface WireRequest {
	method: IHttpRequestMethods;
	url: string;
	body?: IDataObject;
	qs?: IDataObject;
	timeoutMs: number;
}

interface WireResponse {
	statusCode: number;
	headers?: ApiResponse['headers'];
	body: unknown;
}

/** One of n8n's request helpers, set to follow no redirect and to answer every status. */
type Wire = (request: WireRequest) => Promise<WireResponse>;

/**
 * The one place that speaks HTTP, for every request the package sends: a node's, through n8n's
 * httpRequestWithAuthentication, and a credential Test's, through the test context's request helper
 * (sendTestRequest). Either way no redirect is followed (n8n's helpers send the credential again,
 * and a 307 the body, to wherever a redirect points): a redirect comes back as the answer, its
 * Location made absolute so that an error can name its host, and the key goes nowhere but the
 * credential's endpoint. Every answer has each form of the credential's secrets taken out before
 * anything reads it. Every status comes back as a response; only network failures throw.
 */
async function sendOver(wire: Wire, request: ApiRequest): Promise<ApiResponse> {
	const url = `${request.baseUrl}${request.path}`;
	let response: WireResponse;
	try {
		response = await wire({
			method: request.method,
			url,
			body: request.body,
			qs: request.qs,
			timeoutMs: request.timeoutMs,
		});
	} catch (error) {
		throw toTransportFailure(error);
	}
	const redactor = redactorFor(request.secrets);
	const headers = redactor.value(response.headers ?? {}) as ApiResponse['headers'];
	return {
		statusCode: response.statusCode,
		headers: withAbsoluteLocation(headers, url),
		body: asObject(redactor.value(response.body)),
	};
}

/** A node's request: n8n applies the credential's authenticate(). */
export async function sendRequest(context: IExecuteFunctions, request: ApiRequest): Promise<ApiResponse> {
	return await sendOver(
		async ({ method, url, body, qs, timeoutMs }) =>
			(await context.helpers.httpRequestWithAuthentication.call(context, request.credentialType, {
				method,
				url,
				body,
				qs,
				json: true,
				timeout: timeoutMs,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
			})) as WireResponse,
		request,
	);
}

/**
 * A credential Test's request. n8n gives a Test only its request helper (the legacy request
 * options), without the credential's authenticate(): `headers` are the ones authenticate() sends,
 * built by the same function.
 */
export async function sendTestRequest(
	context: ICredentialTestFunctions,
	headers: Record<string, string>,
	request: ApiRequest,
): Promise<ApiResponse> {
	return await sendOver(
		async ({ method, url, body, qs, timeoutMs }) =>
			(await context.helpers.request({
				method,
				uri: url,
				body,
				qs,
				headers,
				json: true,
				timeout: timeoutMs,
				resolveWithFullResponse: true,
				simple: false,
				followRedirect: false,
				followAllRedirects: false,
				maxRedirects: 0,
			})) as WireResponse,
		request,
	);
}

/** A redirect's Location as an absolute URL (a relative one is resolved against the request's). */
function withAbsoluteLocation(headers: ApiResponse['headers'], url: string): ApiResponse['headers'] {
	const name = Object.keys(headers).find((key) => key.toLowerCase() === 'location');
	const location = name === undefined ? undefined : headers[name];
	const target = Array.isArray(location) ? location[0] : location;
	if (name === undefined || target === undefined) return headers;
	let absolute: string;
	try {
		absolute = new URL(target, url).href;
	} catch {
		return headers;
	}
	const resolved = { ...headers };
	delete resolved[name];
	return { ...resolved, location: absolute };
}

/**
 * Reads the endpoint URL and the secrets of the credential once per run, and refuses an endpoint that
 * would send the key in clear text, or a key a header cannot carry, before any request leaves.
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
	const secretProblem = credentialSecretProblem(credentials);
	if (secretProblem) {
		throw new NodeOperationError(context.getNode(), secretProblem, {
			description: 'Open the credential and paste the key again, as the platform shows it.',
		});
	}
	return { baseUrl: endpoint.replace(/\/+$/, ''), secrets: runSecrets(secretsOf(credentials)) };
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
function endpointUrlProblem(endpoint: string): string | undefined {
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

/**
 * The endpoint a credential Test sends to: plain http to anything but this machine is sent as https,
 * so the Test never carries the key unencrypted (a node refuses such an endpoint instead, see
 * endpointUrlProblem). Undefined when the endpoint is not a URL.
 */
export function testEndpointUrl(endpoint: string): string | undefined {
	let url: URL;
	try {
		url = new URL(endpoint.trim());
	} catch {
		return undefined;
	}
	if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) url.protocol = 'https:';
	return url.href.replace(/\/+$/, '');
}
