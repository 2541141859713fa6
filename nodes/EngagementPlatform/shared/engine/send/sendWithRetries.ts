import { sleep } from 'n8n-workflow';

import type { Pacer } from './pacer';
import { backoffMs, rateLimitWaitMs } from './pacer';
import type { PieceError } from '../operation';
import { mayHaveBeenApplied } from './platformErrors';
import type { ApiResponse, TransportFailure } from './transport';

/** Server errors and unclear network failures are tried this many times in all, where a resend is safe. */
const MAX_ATTEMPTS = 4;

export interface RetryPolicy {
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

export type SendResult =
	{ kind: 'response'; response: ApiResponse; maybeApplied: boolean } | { kind: 'failure'; error: PieceError };

/**
 * Sends one request under DESIGN.md's policy. A 429 is always resent (nothing was processed)
 * until the wait budget is spent; a 5xx, reset or timeout is resent only when that cannot
 * duplicate data, and otherwise reported as "may or may not have been applied".
 */
export async function sendWithRetries(
	send: () => Promise<ApiResponse>,
	pacer: Pacer,
	policy: RetryPolicy,
): Promise<SendResult> {
	let rateLimitWaited = 0;
	let rateLimitHits = 0;
	let attempts = 0;
	// Once an attempt may have been applied (its answer lost, a 5xx, a 2xx proving nothing), a later
	// refusal speaks for the later attempt alone: the request as a whole may still have been applied.
	let earlierMayHaveApplied = false;
	const failure = (error: PieceError): SendResult => ({
		kind: 'failure',
		error: earlierMayHaveApplied && error.delivery === 'not_applied' ? mayHaveBeenApplied(error) : error,
	});

	for (;;) {
		const acquired = await pacer.acquire(policy.maxRateLimitWaitMs - rateLimitWaited);
		if (!acquired.ok) return failure(rateLimitExhausted(acquired.waitMs, rateLimitWaited));
		attempts++;
		let response: ApiResponse;
		try {
			response = await send();
		} catch (caught) {
			pacer.settle();
			// sendRequest turns every failure into a TransportFailure.
			const error = caught as TransportFailure;
			const resend = !error.reachedServer || policy.safeToResend;
			earlierMayHaveApplied ||= error.reachedServer;
			if (resend && attempts < MAX_ATTEMPTS) {
				await backOff(policy, attempts, error.message);
				continue;
			}
			return failure(transportError(error, attempts));
		}

		// What the answer says of the platform's window paces the group's next requests.
		pacer.settle(response);

		if (response.statusCode === 429) {
			const waitMs = rateLimitWaitMs(response, rateLimitHits++);
			// The other requests of this group learn of the wait too, and fail fast when it is too long.
			pacer.pauseUntil(Date.now() + waitMs);
			if (rateLimitWaited + waitMs > policy.maxRateLimitWaitMs) {
				return failure(rateLimitExhausted(waitMs, rateLimitWaited, response));
			}
			rateLimitWaited += waitMs;
			policy.onWait(waitMs, 'the platform answered 429 (rate limit exceeded)');
			continue;
		}

		if (policy.asksAgainLater?.(response) === true) {
			if (attempts < MAX_ATTEMPTS) {
				await backOff(policy, attempts, 'the platform asked to be asked again');
				continue;
			}
			return { kind: 'response', response, maybeApplied: false };
		}

		// A 2xx that does not say success tells nothing of what was stored: read as a server error.
		const unclear = response.statusCode >= 500 || !provesSuccess(response, policy);
		if (unclear) {
			earlierMayHaveApplied = true;
			if (policy.safeToResend && attempts < MAX_ATTEMPTS) {
				await backOff(policy, attempts, `the platform answered ${response.statusCode} without success`);
				continue;
			}
			return { kind: 'response', response, maybeApplied: true };
		}
		// A refusal after an attempt that may have been applied does not undo that attempt.
		return { kind: 'response', response, maybeApplied: earlierMayHaveApplied && response.statusCode >= 300 };
	}
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
function formatDuration(ms: number): string {
	const seconds = Math.ceil(ms / 1000);
	if (seconds < 60) return `${seconds} s`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
	const hours = Math.floor(minutes / 60);
	return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
