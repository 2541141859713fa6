import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { RateLimitName } from '../../limits/rateLimits';
import { RATE_LIMITS } from '../../limits/rateLimits';
import { Pacer, backoffMs, rateLimitWaitMs } from './pacer';
import { MethodChoice, resolveEndpoint, sendRequest } from './transport';
import type {
	EarlierAttempts,
	OperationSpec,
	Piece,
	PieceOutcome,
	PlannedRequest,
	RunSettings,
	PieceError,
} from '../operation';
import { responseError, mayHaveBeenApplied } from './platformErrors';
import { requestParts } from '../plan/planner';
import type { ApiResponse, TransportFailure } from './transport';

export interface SendReport {
	outcomes: Map<Piece, PieceOutcome>;
	requestsSent: number;
	/** Requests planned but not sent, because the run stopped at the first failure. */
	requestsSkipped: number;
	/** Preview: the requests the run would send. */
	planned?: PlannedRequest[];
}

/** Sends the planned requests, paced and in parallel, and records what happened to each piece. */
export async function sendRequests(
	context: IExecuteFunctions,
	spec: OperationSpec,
	settings: RunSettings,
	requests: PlannedRequest[],
	stopAtFirstFailure: boolean,
): Promise<SendReport> {
	const outcomes = new Map<Piece, PieceOutcome>();
	if (requests.length === 0) return { outcomes, requestsSent: 0, requestsSkipped: 0 };

	const { endpoint } = spec;
	const { baseUrl, secrets } = await resolveEndpoint(context, endpoint.credentialType);
	const log = (message: string) => context.logger.info(`Engagement Platform ${endpoint.path}: ${message}`);
	const limitOf = (request: PlannedRequest): RateLimitName =>
		typeof endpoint.rateLimit === 'function' ? endpoint.rateLimit(request) : endpoint.rateLimit;
	const planned = new Map<RateLimitName, number>();
	for (const request of requests) planned.set(limitOf(request), (planned.get(limitOf(request)) ?? 0) + 1);
	const pacers = new Map<RateLimitName, Pacer>();
	const pacerOf = (request: PlannedRequest) => {
		const limit = limitOf(request);
		let pacer = pacers.get(limit);
		if (!pacer) {
			pacer = new Pacer({
				limit: RATE_LIMITS[limit],
				parallel: settings.parallelRequests,
				planned: planned.get(limit) ?? 0,
				onWait: (waitMs, reason) => log(`waiting ${(waitMs / 1000).toFixed(1)} s for ${reason}`),
			});
			pacers.set(limit, pacer);
		}
		return pacer;
	};
	const methods = new MethodChoice(endpoint, log);
	const cancelled = () => context.getExecutionCancelSignal?.()?.aborted === true;
	const progress = progressLogger(requests.length, log);

	let failed = false;
	let requestsSent = 0;
	let answered = 0;
	await runPool(
		requests,
		settings.parallelRequests,
		async (request) => {
			requestsSent++;
			const parts = requestParts(endpoint.path, spec.shape, request);
			const result = await sendWithRetries(
				async () =>
					await methods.send(
						async (method) =>
							await sendRequest(context, {
								credentialType: endpoint.credentialType,
								baseUrl,
								secrets,
								method,
								...parts,
								timeoutMs: settings.timeoutMs,
							}),
					),
				pacerOf(request),
				{
					safeToResend: settings.resendUnsafe || spec.isSafeToResend(request),
					successSaysSo: endpoint.successSaysSo,
					successCarries: endpoint.successCarries,
					asksAgainLater: spec.asksAgainLater,
					maxRateLimitWaitMs: settings.maxRateLimitWaitMs,
					onWait: (waitMs, reason) => log(`waiting ${(waitMs / 1000).toFixed(1)} s: ${reason}`),
				},
			);
			outcomesOf(spec, request, result).forEach((outcome, piece) => {
				outcomes.set(piece, outcome);
				if (!outcome.ok) failed = true;
			});
			progress(++answered);
		},
		() => cancelled() || (stopAtFirstFailure && failed),
	);
	return { outcomes, requestsSent, requestsSkipped: requests.length - requestsSent };
}

function outcomesOf(
	spec: OperationSpec,
	request: PlannedRequest,
	result: Awaited<ReturnType<typeof sendWithRetries>>,
): Map<Piece, PieceOutcome> {
	if (result.kind === 'response' && result.response.statusCode < 300 && !result.maybeApplied) {
		return spec.readResponse(result.response, request, result.before);
	}
	if (
		result.kind === 'response' &&
		!result.maybeApplied &&
		result.response.statusCode >= 400 &&
		spec.readErrorResponse
	) {
		return spec.readErrorResponse(result.response, request, result.before);
	}
	const error =
		result.kind === 'failure' ? result.error : responseError(result.response, spec.endpoint, result.maybeApplied);
	const outcomes = new Map<Piece, PieceOutcome>();
	for (const pieces of request.slots.values()) {
		for (const piece of pieces) outcomes.set(piece, { ok: false, error });
	}
	return outcomes;
}

/** Logs progress at every tenth of a long run, so a 100,000-item run shows it is moving. */
function progressLogger(total: number, log: (message: string) => void): (done: number) => void {
	if (total < 20) return () => {};
	const step = Math.ceil(total / 10);
	return (done) => {
		if (done % step === 0 || done === total) log(`${done} of ${total} requests answered`);
	};
}

/** Runs `work` over every task with at most `parallel` at once; `shouldStop` ends it early. */
async function runPool<T>(
	tasks: T[],
	parallel: number,
	work: (task: T, index: number) => Promise<void>,
	shouldStop: () => boolean,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < tasks.length && !shouldStop()) {
			const index = next++;
			await work(tasks[index], index);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, tasks.length)) }, worker));
}

/** Gives every piece of the request that has no outcome yet the same outcome. */
export function answerRemaining<Group, Payload>(
	request: PlannedRequest<Group, Payload>,
	outcome: PieceOutcome,
	outcomes = new Map<Piece<Group, Payload>, PieceOutcome>(),
): Map<Piece<Group, Payload>, PieceOutcome> {
	request.slots.forEach((pieces) => {
		for (let index = 0; index < pieces.length; index++)
			if (!outcomes.has(pieces[index])) outcomes.set(pieces[index], outcome);
	});
	return outcomes;
}

/** The piece of a request whose slots allow one piece (the API is one item per request). */
export function onlyPiece<Group, Payload>(request: PlannedRequest<Group, Payload>): Piece<Group, Payload> {
	return [...request.slots.values()][0][0];
}

/** Server errors and unclear network failures are tried this many times in all, where a resend is safe. */
const MAX_ATTEMPTS = 4;

interface RetryPolicy {
	/** A resend cannot duplicate data (GET, PUT, attribute-only batches, ...). */
	safeToResend: boolean;
	/** A 2xx counts only when its `message` is "success" (OperationSpec's endpoint.successSaysSo). */
	successSaysSo?: boolean;
	/** A 2xx counts only when it carries this field as text (OperationSpec's endpoint.successCarries). */
	successCarries?: string;
	/** The answer asks to be asked again later (OperationSpec.asksAgainLater). */
	asksAgainLater?: (response: ApiResponse) => boolean;
	maxRateLimitWaitMs: number;
	onWait: (waitMs: number, reason: string) => void;
}

type SendResult =
	| { kind: 'response'; response: ApiResponse; maybeApplied: boolean; before: EarlierAttempts }
	| { kind: 'failure'; error: PieceError };

/**
 * Sends one request under the policy of "Retries and pacing" in docs/delivery.md. A 429 is always resent (nothing was processed)
 * until the wait budget is spent; a 5xx, reset or timeout is resent only when that cannot
 * duplicate data, and otherwise reported as "may or may not have been applied".
 */
async function sendWithRetries(
	send: () => Promise<ApiResponse>,
	pacer: Pacer,
	policy: RetryPolicy,
): Promise<SendResult> {
	const tries: Tries = {
		attempts: 0,
		rateLimitWaited: 0,
		rateLimitHits: 0,
		earlierMayHaveApplied: false,
		askedAgainFirst: false,
	};
	for (;;) {
		const acquired = await pacer.acquire(policy.maxRateLimitWaitMs - tries.rateLimitWaited);
		if (!acquired.ok) return failed(tries, rateLimitExhausted(acquired.waitMs, tries.rateLimitWaited));
		tries.attempts++;
		let response: ApiResponse;
		try {
			response = await send();
		} catch (caught) {
			pacer.settle();
			// sendRequest turns every failure into a TransportFailure.
			const next = afterConnectionFailure(caught as TransportFailure, tries, policy);
			if (next.kind !== 'again') return next;
			await backOff(policy, tries.attempts, next.backOff);
			continue;
		}

		// What the answer says of the platform's window paces the next requests under the same limit.
		pacer.settle(response);
		const next =
			response.statusCode === 429
				? afterRateLimit(response, tries, pacer, policy)
				: afterAnswer(response, tries, policy);
		if (next.kind !== 'again') return next;
		if (next.backOff !== undefined) await backOff(policy, tries.attempts, next.backOff);
	}
}

/** What the attempts at one request have met so far. */
interface Tries {
	attempts: number;
	rateLimitWaited: number;
	rateLimitHits: number;
	/**
	 * Once an attempt may have been applied (its answer lost, a 5xx, a 2xx proving nothing), a later
	 * refusal speaks for the later attempt alone: the request as a whole may still have been applied.
	 */
	earlierMayHaveApplied: boolean;
	askedAgainFirst: boolean;
}

/** Another attempt, after backing off for the reason given (after a 429, the pacer waits instead). */
interface Again {
	kind: 'again';
	backOff?: string;
}

function answered(tries: Tries, response: ApiResponse, maybeApplied: boolean): SendResult {
	return {
		kind: 'response',
		response,
		maybeApplied,
		before: { mayHaveApplied: tries.earlierMayHaveApplied, askedAgainFirst: tries.askedAgainFirst },
	};
}

function failed(tries: Tries, error: PieceError): SendResult {
	return {
		kind: 'failure',
		error: tries.earlierMayHaveApplied && error.delivery === 'not_applied' ? mayHaveBeenApplied(error) : error,
	};
}

/** No answer came: resent when it did not reach the platform or a resend is safe, while attempts are left. */
function afterConnectionFailure(
	error: TransportFailure,
	tries: Tries,
	policy: RetryPolicy,
): SendResult | Required<Again> {
	const resend = !error.reachedServer || policy.safeToResend;
	tries.earlierMayHaveApplied ||= error.reachedServer;
	if (resend && tries.attempts < MAX_ATTEMPTS) return { kind: 'again', backOff: error.message };
	return failed(tries, transportError(error, tries.attempts));
}

/** A 429: resent once the platform's window allows, unless that is past the wait budget. */
function afterRateLimit(response: ApiResponse, tries: Tries, pacer: Pacer, policy: RetryPolicy): SendResult | Again {
	const waitMs = rateLimitWaitMs(response, tries.rateLimitHits++);
	// The other requests of this group learn of the wait too, and fail fast when it is too long.
	pacer.pauseUntil(Date.now() + waitMs);
	if (tries.rateLimitWaited + waitMs > policy.maxRateLimitWaitMs) {
		return failed(tries, rateLimitExhausted(waitMs, tries.rateLimitWaited, response));
	}
	tries.rateLimitWaited += waitMs;
	policy.onWait(waitMs, 'the platform answered 429 (rate limit exceeded)');
	return { kind: 'again' };
}

/** Any other answer: asked again when it asks so, resent when unclear and safe, else the request's answer. */
function afterAnswer(response: ApiResponse, tries: Tries, policy: RetryPolicy): SendResult | Again {
	if (policy.asksAgainLater?.(response) === true) {
		if (tries.attempts === 1) tries.askedAgainFirst = true;
		if (tries.attempts < MAX_ATTEMPTS) return { kind: 'again', backOff: 'the platform asked to be asked again' };
		return answered(tries, response, false);
	}

	// A 2xx that does not say success tells nothing of what was stored: read as a server error.
	const unclear = response.statusCode >= 500 || !provesSuccess(response, policy);
	if (unclear) {
		tries.earlierMayHaveApplied = true;
		if (policy.safeToResend && tries.attempts < MAX_ATTEMPTS) {
			return { kind: 'again', backOff: `the platform answered ${response.statusCode} without success` };
		}
		return answered(tries, response, true);
	}
	// A refusal after an attempt that may have been applied does not undo that attempt.
	return answered(tries, response, tries.earlierMayHaveApplied && response.statusCode >= 300);
}

/** Whether a 2xx is the success the spec describes; other answers are read elsewhere. */
function provesSuccess(response: ApiResponse, policy: RetryPolicy): boolean {
	if (response.statusCode >= 300) return true;
	if (policy.successSaysSo === true && response.body.message !== 'success') return false;
	return policy.successCarries === undefined || typeof response.body[policy.successCarries] === 'string';
}

async function backOff(policy: RetryPolicy, attempt: number, reason: string): Promise<void> {
	const waitMs = backoffMs(attempt);
	policy.onWait(waitMs, `${reason}; trying again`);
	await sleep(waitMs);
}

function transportError(failure: TransportFailure, attempts: number): PieceError {
	const tried = attempts > 1 ? ` (tried ${attempts} times)` : '';
	if (!failure.reachedServer) {
		return {
			message: `${failure.message}${tried}`,
			description: 'Nothing was sent. Check the endpoint URL in the credential and that the platform is reachable.',
			delivery: 'not_applied',
		};
	}
	return {
		message: `${failure.message}${tried}: this item may or may not have been applied`,
		description:
			'The connection ended before the platform answered, and sending it again could store it twice, so it was not resent. Check the platform before running this item again.',
		delivery: 'maybe_applied',
	};
}

/**
 * The rate limit would hold this request longer than the node may wait: say when it resets
 * (for a daily limit that can be hours away) instead of sleeping until then.
 */
function rateLimitExhausted(nextWaitMs: number, waitedMs: number, response?: ApiResponse): PieceError {
	const resetsAt = new Date(Date.now() + nextWaitMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
	const waited = waitedMs > 0 ? ` after ${formatDuration(waitedMs)} of waiting` : '';
	return {
		message: `Rate limited: the platform's limit resets at ${resetsAt}, in ${formatDuration(nextWaitMs)}; nothing from this request was stored`,
		description:
			`That is longer than this node may wait${waited} ("Max Rate Limit Wait" in the options). ` +
			'Run these items again after that time, or raise "Max Rate Limit Wait".',
		delivery: 'not_applied',
		httpCode: response?.statusCode,
		response: response?.body,
	};
}

/** 42 s, 7 min 5 s, 6 h 12 min. */
export function formatDuration(ms: number): string {
	const seconds = Math.ceil(ms / 1000);
	if (seconds < 60) return `${seconds} s`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
	const hours = Math.floor(minutes / 60);
	return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
