import { sleep } from 'n8n-workflow';

import type { Pacer } from '../pacing/pacer';
import { backoffMs, rateLimitWaitMs, spentWindowResetsAt } from '../pacing/rateLimitWait';
import type { PieceError } from './operation';
import type { ApiResponse, TransportFailure } from './transport';

/** Server errors and unclear network failures are tried this many times in all, where a resend is safe. */
const MAX_ATTEMPTS = 4;

export interface RetryPolicy {
	/** A resend cannot duplicate data (GET, PUT, attribute-only batches, ...). */
	safeToResend: boolean;
	maxRateLimitWaitMs: number;
	onWait: (waitMs: number, reason: string) => void;
}

export type SendResult =
	| { kind: 'response'; response: ApiResponse; maybeApplied: boolean }
	| { kind: 'failure'; error: PieceError };

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

	for (;;) {
		await pacer.acquire();
		attempts++;
		let response: ApiResponse;
		try {
			response = await send();
		} catch (caught) {
			// sendRequest turns every failure into a TransportFailure.
			const error = caught as TransportFailure;
			const resend = !error.reachedServer || policy.safeToResend;
			if (resend && attempts < MAX_ATTEMPTS) {
				await backOff(policy, attempts, error.message);
				continue;
			}
			return { kind: 'failure', error: transportError(error, attempts) };
		}

		const resetsAt = spentWindowResetsAt(response);
		if (resetsAt !== undefined) pacer.pauseUntil(resetsAt);

		if (response.statusCode === 429) {
			const waitMs = rateLimitWaitMs(response, rateLimitHits++);
			if (rateLimitWaited + waitMs > policy.maxRateLimitWaitMs) {
				return { kind: 'failure', error: rateLimitExhausted(response, waitMs, rateLimitWaited) };
			}
			rateLimitWaited += waitMs;
			pacer.pauseUntil(Date.now() + waitMs);
			policy.onWait(waitMs, 'the platform answered 429 (rate limit exceeded)');
			continue;
		}

		if (response.statusCode >= 500) {
			if (policy.safeToResend && attempts < MAX_ATTEMPTS) {
				await backOff(policy, attempts, `the platform answered ${response.statusCode}`);
				continue;
			}
			return { kind: 'response', response, maybeApplied: true };
		}
		return { kind: 'response', response, maybeApplied: false };
	}
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

function rateLimitExhausted(response: ApiResponse, nextWaitMs: number, waitedMs: number): PieceError {
	const seconds = (ms: number) => Math.ceil(ms / 1000);
	return {
		message: `Rate limited by the platform: nothing from this request was stored`,
		description:
			`The platform asked to wait ${seconds(nextWaitMs)} s more after ${seconds(waitedMs)} s of waiting, which is past ` +
			`this node's limit for waiting. Run these items again later, or raise "Max Rate Limit Wait" in the node's options.`,
		delivery: 'not_applied',
		httpCode: response.statusCode,
		response: response.body,
	};
}
