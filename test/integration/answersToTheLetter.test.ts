import type { INodeParameters } from 'n8n-workflow';

import type { FaultRule } from '../../sandbox/adminApiTypes';
import { USER, USER_NODE } from '../support/nodeTypes';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

/**
 * Answers read to the letter: what the platform's (or a proxy's) answer says is what the item says,
 * and a wait the answer implies has a floor and a ceiling.
 */
const { sandbox, client, apiKey } = useSandbox();

const trackEvent = (options: INodeParameters = {}): INodeParameters => ({
	operation: 'trackEvent',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	eventName: 'visited',
	time: '2026-11-24T02:00:00Z',
	options,
});

describe('a rate-limit answer whose wait is already over waits as one without headers does', () => {
	const PAST = new Date(Date.now() - 60_000).toUTCString();
	const cases: Array<[string, Partial<FaultRule>]> = [
		['X-RateLimit-Reset in the past', { rateLimitResetInSeconds: -30 }],
		['Retry-After an HTTP date in the past', { retryAfter: PAST }],
		['Retry-After 0', { retryAfterSeconds: 0 }],
		['Retry-After negative', { retryAfterSeconds: -5 }],
		['Retry-After garbled', { retryAfter: 'soon', rateLimitResetInSeconds: -30 }],
	];
	for (const [name, fault] of cases) {
		test(`${name}: a few resends within the wait budget, not a tight loop`, async () => {
			await client().injectFaults([{ path: '/users/track', kind: 'status', status: 429, times: 10_000, ...fault }]);
			const result = await runNode(USER_NODE, {
				parameters: trackEvent({ maxRateLimitWaitSeconds: 2 }),
				items: [{ id: 'u1' }],
				endpoint: sandbox().url,
				apiKey,
				continueOnFail: true,
			});
			const sent = (await client().requests({ path: '/users/track' })).length;
			// Backoff from 0.5 s doubling, within 2 s of waiting: at most a handful of tries.
			expect(sent).toBeLessThanOrEqual(8);
			expect(result.output(USER)[0].json).toMatchObject({ delivery: 'not_applied' });
		});
	}
});
