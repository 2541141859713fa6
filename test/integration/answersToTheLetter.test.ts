import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { FaultRule } from '../../sandbox/adminApiTypes';
import { MESSAGE, MESSAGE_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
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
			expect(wordsOf(result.output(USER)[0].json)).toMatchObject({ status: 'failed', delivery: 'not_applied' });
		});
	}
});

describe("an accepted answer saying the window is spent, with a reset already past (the platform's clock behind ours)", () => {
	test('the next request waits as a 429 without headers does, from 0.5 s, instead of leaving at once', async () => {
		const past = String(Math.floor(Date.now() / 1000) - 30);
		await client().injectFaults([
			{
				path: '/users/track',
				kind: 'headers',
				times: 4,
				answerHeaders: { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': past },
			},
		]);
		const result = await runNode(USER_NODE, {
			parameters: trackEvent({ batchSize: 1, parallelRequests: 1 }),
			items: [{ id: 'u1' }, { id: 'u2' }, { id: 'u3' }, { id: 'u4' }],
			endpoint: sandbox().url,
			apiKey,
			continueOnFail: true,
		});
		expect(result.output(USER).map(({ json }) => statusOf(json))).toEqual(Array(4).fill('tracked'));
		const times = (await client().requests({ path: '/users/track' })).map((request) => request.receivedAt);
		const gaps = times.slice(1).map((time, index) => time - times[index]);
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(450);
	});
});

describe('a 2xx is a success only when it says so (message "success")', () => {
	const updateAttributes: INodeParameters = {
		operation: 'updateAttributes',
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
		attributesInput: 'json',
		attributesJson: '={{ { tier: "gold" } }}',
	};
	const run = async (parameters: INodeParameters, items: IDataObject[]) =>
		await runNode(USER_NODE, { parameters, items, endpoint: sandbox().url, apiKey, continueOnFail: true });
	const answers: Array<[string, Partial<FaultRule>, string]> = [
		[
			"the spec's fatal shape under 201",
			{ status: 201, answerBody: { message: 'Invalid request', errors: ['Invalid request'] } },
			'Invalid request',
		],
		['a 200 with another message', { status: 200, answerBody: { message: 'Internal error' } }, 'Internal error'],
		['a 200 HTML page from a proxy', { status: 200, answerBody: '<html><body>Gateway</body></html>' }, 'Gateway'],
	];

	for (const [name, answer, words] of answers) {
		test(`${name}: events are not answered tracked; the item says what the platform said and that it may not be stored`, async () => {
			await client().injectFaults([{ path: '/users/track', kind: 'answer', times: 1, ...answer }]);
			const result = await run(trackEvent(), [{ id: 'u1' }, { id: 'u2' }]);
			for (const { json } of result.output(USER)) {
				expect(wordsOf(json)).toMatchObject({ status: 'failed', delivery: 'maybe_applied' });
				expect(String(json.error)).toContain(words);
			}
		});
	}

	test('attributes alone are safe to send again: resent after such an answer, then updated', async () => {
		await client().injectFaults([
			{ path: '/users/track', kind: 'answer', times: 1, status: 200, answerBody: { message: 'Internal error' } },
		]);
		const result = await run(updateAttributes, [{ id: 'u1' }]);
		expect(statusOf(result.output(USER)[0].json)).toBe('updated');
		expect(await client().requests({ path: '/users/track' })).toHaveLength(2);
		const profile = (await client().state()).profiles.find((candidate) => candidate.external_id === 'u1');
		expect(profile?.custom_attributes.tier).toBe('gold');
	});

	test('a rename answered 201 "Rate limit exceeded" renames nothing, and no item says renamed', async () => {
		await client().seed({ profiles: [{ external_id: 'a' }, { external_id: 'b' }] });
		await client().injectFaults([
			{
				path: '/users/external_ids/rename',
				kind: 'answer',
				times: 1,
				status: 201,
				answerBody: { message: 'Rate limit exceeded' },
			},
		]);
		const result = await run(
			{ operation: 'renameExternalIds', currentExternalId: '={{ $json.from }}', newExternalId: '={{ $json.to }}' },
			[
				{ from: 'a', to: 'a2' },
				{ from: 'b', to: 'b2' },
			],
		);
		for (const { json } of result.output(USER)) {
			expect(statusOf(json)).toBe('failed');
			expect(String(json.error)).toContain('Rate limit exceeded');
		}
	});
});

describe('a rename counts as renamed only when the answer lists it', () => {
	const rename: INodeParameters = {
		operation: 'renameExternalIds',
		currentExternalId: '={{ $json.from }}',
		newExternalId: '={{ $json.to }}',
	};
	const answers: Array<[string, IDataObject]> = [
		['an error whose index is text', { rename_errors: [['second', 'new ID in use']] }],
		['an error with no index', { rename_errors: [['new ID in use']] }],
		['no errors at all', {}],
	];
	for (const [name, errors] of answers) {
		test(`external_ids lists the first of two, with ${name}: the second is not answered renamed`, async () => {
			await client().injectFaults([
				{
					path: '/users/external_ids/rename',
					kind: 'answer',
					times: 1,
					status: 201,
					answerBody: { message: 'success', external_ids: ['a'], ...errors },
				},
			]);
			const result = await runNode(USER_NODE, {
				parameters: rename,
				items: [
					{ from: 'a', to: 'a2' },
					{ from: 'b', to: 'b2' },
				],
				endpoint: sandbox().url,
				apiKey,
				continueOnFail: true,
			});
			const [first, second] = result.output(USER).map(({ json }) => json);
			expect(wordsOf(first)).toMatchObject({ status: 'renamed', current_external_id: 'a' });
			expect(wordsOf(second)).toMatchObject({ status: 'failed', delivery: 'maybe_applied' });
		});
	}
});

describe('an export that does not say success finds nobody and loses nobody', () => {
	test.each([
		['"Internal error" with no users', { message: 'Internal error', users: [] }],
		['"Internal error" with an empty answer', { message: 'Internal error' }],
	])('%s: email and ID items carry the platform\'s words, not "not found"', async (_, body) => {
		await client().injectFaults([
			{ path: '/users/export/ids', kind: 'answer', times: 4, status: 201, answerBody: body },
		]);
		const result = await runNode(USER_NODE, {
			parameters: {
				operation: 'export',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				fieldsToExport: ['first_name'],
			},
			items: [{ id: 'crm-1' }, { id: 'crm-2' }],
			endpoint: sandbox().url,
			apiKey,
			continueOnFail: true,
		});
		for (const { json } of result.output(USER)) {
			// Not a record answering "not found": the item's row, with the platform's words as its error.
			expect(json.status).not.toBe('not_found');
			expect(statusOf(json)).toBe('failed');
			expect(String(json.error)).toContain('Internal error');
		}
	});
});

describe('a send is sent only when the answer carries its dispatch_id (the spec: "The response carries dispatch_id")', () => {
	const FATAL_201 = { message: 'Invalid request', errors: ['Invalid request'] };
	const receipt = {
		operation: 'sendTransactionalEmail',
		campaignId: 'receipt',
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
	};
	const profiles = [{ external_id: 'crm-1' }, { external_id: 'crm-2' }];

	test('a receipt answered 201 with the error shape and no dispatch_id is asked again (its External Send ID makes that safe), then sent', async () => {
		await client().seed({ profiles, campaigns: [{ id: 'receipt', kind: 'transactional' }] });
		const path = '/transactional/v1/campaigns/receipt/send';
		await client().injectFaults([{ path, kind: 'answer', times: 1, status: 201, answerBody: FATAL_201 }]);
		const result = await runNode(MESSAGE_NODE, {
			parameters: receipt,
			items: [{ id: 'crm-1' }],
			endpoint: sandbox().url,
			apiKey,
			continueOnFail: true,
		});
		const { transactionalSends } = await client().state();
		expect(transactionalSends).toHaveLength(1);
		expect(wordsOf(result.output(MESSAGE)[0].json)).toMatchObject({
			status: 'sent',
			dispatch_id: transactionalSends[0].dispatch_id,
		});
		expect(await client().requests({ path })).toHaveLength(2);
	});

	test("a receipt answered so every time is not sent: the item carries the platform's words", async () => {
		await client().seed({ profiles, campaigns: [{ id: 'receipt', kind: 'transactional' }] });
		const path = '/transactional/v1/campaigns/receipt/send';
		await client().injectFaults([{ path, kind: 'answer', times: 10, status: 201, answerBody: FATAL_201 }]);
		const result = await runNode(MESSAGE_NODE, {
			parameters: receipt,
			items: [{ id: 'crm-1' }],
			endpoint: sandbox().url,
			apiKey,
			continueOnFail: true,
		});
		const [answer] = result.output(MESSAGE).map(({ json }) => json);
		expect(wordsOf(answer)).toMatchObject({ status: 'failed', delivery: 'maybe_applied' });
		expect(String(answer.error)).toContain('Invalid request');
	});

	test.each([
		[
			'Send Now',
			{
				operation: 'sendNow',
				sendTo: 'users',
				messages: '{"email": {"app_id": "app", "subject": "Hi", "body": "<p>Hi</p>"}}',
			},
			'/messages/send',
		],
		[
			'Trigger Campaign',
			{ operation: 'triggerCampaign', campaignId: 'welcome', sendTo: 'recipients' },
			'/campaigns/trigger/send',
		],
	])(
		'%s answered 200 "Internal error" with no dispatch_id: no item says sent, none is resent',
		async (_, parameters, path) => {
			await client().seed({ profiles, campaigns: [{ id: 'welcome' }] });
			await client().injectFaults([
				{ path, kind: 'answer', times: 1, status: 200, answerBody: { message: 'Internal error' } },
			]);
			const result = await runNode(MESSAGE_NODE, {
				parameters: { ...parameters, identifyBy: 'external_id', externalId: '={{ $json.id }}' },
				items: [{ id: 'crm-1' }, { id: 'crm-2' }],
				endpoint: sandbox().url,
				apiKey,
				continueOnFail: true,
			});
			for (const { json } of result.output(MESSAGE)) {
				expect(wordsOf(json)).toMatchObject({ status: 'failed', delivery: 'maybe_applied' });
				expect(String(json.error)).toContain('Internal error');
			}
			expect(await client().requests({ path })).toHaveLength(1);
		},
	);
});
