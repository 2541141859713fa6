import type { IExecuteFunctions } from 'n8n-workflow';

import type { RateLimitGroup } from '../../limits/rateLimits';
import { RATE_LIMITS } from '../../limits/rateLimits';
import { Pacer } from './pacer';
import { MethodChoice, resolveEndpoint, sendRequest } from './transport';
import type { OperationSpec, Piece, PieceOutcome, PlannedRequest, RunSettings } from '../operation';
import { responseError } from './platformErrors';
import { requestParts } from '../plan/planner';
import { sendWithRetries } from './sendWithRetries';

export interface SendReport {
	outcomes: Map<Piece, PieceOutcome>;
	requestsSent: number;
	/** Requests planned but not sent, because the run stopped at the first failure. */
	requestsSkipped: number;
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
	const groupOf = (request: PlannedRequest): RateLimitGroup =>
		typeof endpoint.rateLimit === 'function' ? endpoint.rateLimit(request) : endpoint.rateLimit;
	const planned = new Map<RateLimitGroup, number>();
	for (const request of requests) planned.set(groupOf(request), (planned.get(groupOf(request)) ?? 0) + 1);
	const pacers = new Map<RateLimitGroup, Pacer>();
	const pacerOf = (request: PlannedRequest) => {
		const group = groupOf(request);
		let pacer = pacers.get(group);
		if (!pacer) {
			pacer = new Pacer({
				limit: RATE_LIMITS[group],
				parallel: settings.parallelRequests,
				planned: planned.get(group) ?? 0,
				onWait: (waitMs, reason) => log(`waiting ${(waitMs / 1000).toFixed(1)} s for ${reason}`),
			});
			pacers.set(group, pacer);
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
			const requestOutcomes = outcomesOf(spec, request, result);
			for (const [piece, outcome] of requestOutcomes) {
				outcomes.set(piece, outcome);
				if (!outcome.ok) failed = true;
			}
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
		return spec.readResponse(result.response, request);
	}
	if (
		result.kind === 'response' &&
		!result.maybeApplied &&
		result.response.statusCode >= 400 &&
		spec.readErrorResponse
	) {
		return spec.readErrorResponse(result.response, request);
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
export async function runPool<T>(
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
export function settleRemaining<Group, Payload>(
	request: PlannedRequest<Group, Payload>,
	outcome: PieceOutcome,
	outcomes = new Map<Piece<Group, Payload>, PieceOutcome>(),
): Map<Piece<Group, Payload>, PieceOutcome> {
	for (const pieces of request.slots.values()) {
		for (const piece of pieces) if (!outcomes.has(piece)) outcomes.set(piece, outcome);
	}
	return outcomes;
}

/** The piece of a request whose slots allow one piece (the API is one item per request). */
export function onlyPiece<Group, Payload>(request: PlannedRequest<Group, Payload>): Piece<Group, Payload> {
	return [...request.slots.values()][0][0];
}
