import { STATUS_CODES, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { FaultRule } from '../adminApiTypes';
import { authenticate } from './auth';
import { delay, parseJsonBody, sendResult, type ParsedBody } from './http';
import { rateLimitHeaders, secondsUntil, type RateLimitDecision } from './rateLimiter';
import type { RouteDeclaration, RouteResult, RouteTable } from './route';
import { asScimError } from './scimErrorBody';
import type { SandboxRuntime } from './runtime';

const RATE_LIMIT_MESSAGE = 'Rate limit exceeded';

export interface ApiRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	rawBody: Buffer;
	receivedAt: number;
}

/**
 * One API request, in the order a platform gateway would take it: injected fault, route, the route's
 * gateway answer (a method turned off), credentials, body, rate limit, endpoint. Then the configured latency, and the answer (or a reset socket).
 */
export async function serveApiRequest(
	runtime: SandboxRuntime,
	routes: RouteTable,
	request: ApiRequest,
	response: ServerResponse,
): Promise<void> {
	const { requestLog, config } = runtime;
	const parsed = parseJsonBody(request.headers, request.rawBody);
	const entry = requestLog.begin({ ...request, body: parsed.ok ? parsed.value : parsed.raw }, config.logBodies);
	const fault = runtime.faults.take(request.method, request.path);

	if (fault?.kind === 'reset-before') {
		response.socket?.destroy();
		requestLog.complete(entry, { status: 0, response: undefined, fault: fault.kind, reset: true }, config.logBodies);
		return;
	}

	const result =
		fault?.kind === 'status'
			? injectedStatus(runtime, routes, request, parsed, fault)
			: fault?.kind === 'unplaced-error'
				? unplacedError(fault)
				: fault?.kind === 'answer'
					? injectedAnswer(fault)
					: await processRequest(
							runtime,
							routes,
							request,
							parsed,
							fault?.kind === 'reset-after' ? (fault.queuedMs ?? 0) : 0,
						);

	if (fault?.kind === 'headers') result.headers = { ...result.headers, ...fault.answerHeaders };

	const wait = config.latencyMs + (fault?.kind === 'slow' ? (fault.delayMs ?? 0) : 0);
	if (wait > 0) await delay(wait);

	if (fault?.kind === 'reset-after') {
		response.socket?.destroy();
		requestLog.complete(
			entry,
			{ status: result.status, response: result.body, fault: fault.kind, reset: true },
			config.logBodies,
		);
		return;
	}
	sendResult(response, result);
	requestLog.complete(entry, { status: result.status, response: result.body, fault: fault?.kind }, config.logBodies);
}

async function processRequest(
	runtime: SandboxRuntime,
	routes: RouteTable,
	request: ApiRequest,
	parsed: ParsedBody,
	stillWorkingMs: number,
): Promise<RouteResult> {
	const match = routes.match(request.method, request.path);
	if (!match) {
		return { status: 404, body: { message: `Not found: no endpoint ${request.method} ${request.path}` } };
	}
	const gatewayAnswer = match.route.gatewayAnswer?.(runtime.config);
	if (gatewayAnswer) return gatewayAnswer;
	const auth = authenticate(runtime, match.route, request.headers);
	if (!auth.ok) return auth.failure;
	if (!parsed.ok) return inRouteErrorShape(match.route, parsed.failure);

	const now = new Date();
	const group = rateLimitGroupOf(match.route, parsed.value);
	const decision = group === null ? undefined : runtime.rateLimiter.take(auth.principal, group, now.getTime());
	if (decision && !decision.allowed)
		return inRouteErrorShape(match.route, tooManyRequests(runtime, decision, now.getTime()));

	const result = await handleSafely(match.route, {
		body: parsed.value,
		params: match.params,
		query: request.query,
		headers: request.headers,
		state: runtime.state,
		now,
		config: runtime.config,
		tasks: runtime.tasks,
		stillWorkingMs,
	});
	if (!decision) return result;
	return {
		...result,
		headers: { ...rateLimitHeaders(decision.limit, decision.remaining, decision.resetAtMs), ...result.headers },
	};
}

async function handleSafely(
	route: RouteDeclaration,
	context: Parameters<RouteDeclaration['handle']>[0],
): Promise<RouteResult> {
	try {
		return await route.handle(context);
	} catch (error) {
		// A bug in the sandbox, not a platform answer: say so plainly.
		const detail = error instanceof Error ? error.message : String(error);
		return { status: 500, body: { message: `Sandbox internal error: ${detail}` } };
	}
}

/** SCIM endpoints answer every error in the SCIM error shape, the pipeline's own included. */
function inRouteErrorShape(route: RouteDeclaration | undefined, failure: RouteResult): RouteResult {
	return route?.auth === 'scim' ? asScimError(failure) : failure;
}

function rateLimitGroupOf(route: RouteDeclaration, body: unknown): string | null {
	return typeof route.rateLimitGroup === 'function' ? route.rateLimitGroup(body) : route.rateLimitGroup;
}

function tooManyRequests(runtime: SandboxRuntime, decision: RateLimitDecision, nowMs: number): RouteResult {
	const headers = rateLimitHeaders(decision.limit, 0, decision.resetAtMs);
	if (runtime.config.retryAfterOn429) headers['Retry-After'] = String(secondsUntil(decision.resetAtMs, nowMs));
	return { status: 429, body: { message: RATE_LIMIT_MESSAGE }, headers };
}

const UNPLACED_ERROR_MESSAGE = 'Internal error while processing the request; some data may not have been recorded';

/**
 * An injected 'unplaced-error' fault: nothing is processed, yet the answer is /users/track's success
 * shape, 201 `{"message": "success", "errors": ["<a plain message>"]}`. A proxy in front of the
 * platform, or a platform variant, may answer so; the spec's non-fatal errors are objects
 * `{type, input_array, index}` naming the object they refuse, and this plain string names none. A
 * client cannot tell which objects (if any) were applied, so such an answer proves nothing: that
 * is why the sandbox applies nothing, the worst case a client must survive.
 */
function unplacedError(fault: FaultRule): RouteResult {
	return { status: 201, body: { message: 'success', errors: [fault.message ?? UNPLACED_ERROR_MESSAGE] } };
}

/** An injected 'answer' fault: nothing is processed; the status and body are the rule's, as given. */
function injectedAnswer(fault: FaultRule): RouteResult {
	const status = fault.status ?? 200;
	if (typeof fault.answerBody === 'string') {
		return {
			status,
			body: fault.answerBody,
			format: 'text',
			headers: { 'Content-Type': fault.contentType ?? 'text/html; charset=utf-8', ...fault.answerHeaders },
		};
	}
	return { status, body: fault.answerBody ?? {}, headers: fault.answerHeaders };
}

/** An injected 'status' fault: nothing is processed. A 429 looks like a real one, headers included. */
function injectedStatus(
	runtime: SandboxRuntime,
	routes: RouteTable,
	request: ApiRequest,
	parsed: ParsedBody,
	fault: FaultRule,
): RouteResult {
	const route = routes.match(request.method, request.path)?.route ?? routes.matchAnyMethod(request.path)?.route;
	return inRouteErrorShape(route, injectedStatusAnswer(runtime, route, parsed, fault));
}

function injectedStatusAnswer(
	runtime: SandboxRuntime,
	route: RouteDeclaration | undefined,
	parsed: ParsedBody,
	fault: FaultRule,
): RouteResult {
	const status = fault.status ?? 500;
	const nowMs = Date.now();
	const headers: Record<string, string> = {};
	const resetInMs =
		fault.rateLimitResetInSeconds === undefined ? undefined : nowMs + fault.rateLimitResetInSeconds * 1000;
	if (status === 429) {
		const group = route ? rateLimitGroupOf(route, parsed.ok ? parsed.value : undefined) : null;
		const window = group === null ? undefined : runtime.rateLimiter.peek(group, nowMs);
		const resetAtMs = resetInMs ?? window?.resetAtMs ?? nowMs + 1000;
		Object.assign(headers, rateLimitHeaders(window?.limit ?? 0, 0, resetAtMs));
		if (fault.retryAfter !== undefined) headers['Retry-After'] = fault.retryAfter;
		else if (fault.retryAfterSeconds !== undefined) headers['Retry-After'] = String(fault.retryAfterSeconds);
		else if (runtime.config.retryAfterOn429) headers['Retry-After'] = String(secondsUntil(resetAtMs, nowMs));
		return { status, body: { message: RATE_LIMIT_MESSAGE }, headers };
	}
	if (resetInMs !== undefined) headers['X-RateLimit-Reset'] = String(Math.ceil(resetInMs / 1000));
	return { status, body: { message: `${STATUS_CODES[status] ?? 'Error'} (injected fault)` }, headers };
}
