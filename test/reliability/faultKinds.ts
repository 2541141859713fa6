import type { FaultRule } from '../../sandbox';

/**
 * The faults the sandbox injects on an operation's first request, and what each means for it:
 * a 429 was not processed and is always waited out; a 5xx or a reset before processing was not
 * processed but the node cannot know; a reset after processing and a late answer were processed.
 */
export interface FaultKind {
	name: string;
	rules(target: { method: string; path: string }): FaultRule[];
	rateLimited: boolean;
	/** The sandbox stored the request's data although the node got no answer. */
	processed: boolean;
	/** The node's Timeout option for the run, in seconds. */
	timeoutSeconds?: number;
}

const once = (
	target: { method: string; path: string },
	rule: Omit<FaultRule, 'path' | 'method' | 'times'>,
): FaultRule[] => [{ ...target, times: 1, ...rule }];

export const FAULT_KINDS: FaultKind[] = [
	{
		name: '429 burst with Retry-After',
		rules: (target) => [{ ...target, times: 2, kind: 'status', status: 429, retryAfterSeconds: 1 }],
		rateLimited: true,
		processed: false,
	},
	{
		name: '429 burst without Retry-After',
		rules: (target) => [{ ...target, times: 2, kind: 'status', status: 429, rateLimitResetInSeconds: 1 }],
		rateLimited: true,
		processed: false,
	},
	...[500, 502, 503, 504].map((status) => ({
		name: `${status}`,
		rules: (target: { method: string; path: string }) => once(target, { kind: 'status', status }),
		rateLimited: false,
		processed: false,
	})),
	{
		name: 'reset before processing',
		rules: (target) => once(target, { kind: 'reset-before' }),
		rateLimited: false,
		processed: false,
	},
	{
		name: 'reset after processing',
		rules: (target) => once(target, { kind: 'reset-after' }),
		rateLimited: false,
		processed: true,
	},
	{
		name: 'answer slower than the timeout',
		rules: (target) => once(target, { kind: 'slow', delayMs: 2500 }),
		rateLimited: false,
		processed: true,
		timeoutSeconds: 1,
	},
];
