/**
 * The conservation checks themselves, on hand-written request logs: they must catch an item lost, an
 * item sent twice, a piece of no item's, a piece carrying another item's data, an answer that is not
 * its request's, a row that does not come out as it went in, and a request over a limit, and pass a
 * log that conserves every item. The answers are the node's: the row, and the node's words in
 * `engagementPlatform`.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { RecordedRequest } from '../../sandbox';
import { MESSAGE_NODE } from '../support/nodeTypes';
import type { ConservationCase } from './conservationCase';
import { checkConservation } from './conservationChecks';
import { limitViolations } from './wireLimits';
import { userKey } from './pieceReading';

let seq = 0;
const request = (
	path: string,
	body: IDataObject,
	response: IDataObject = { message: 'success' },
	status = 201,
): RecordedRequest => ({
	seq: ++seq,
	method: 'POST',
	path,
	query: {},
	headers: {},
	body,
	status,
	response,
	receivedAt: 0,
});
const answer = (item: number, json: IDataObject): INodeExecutionData => ({ json, pairedItem: { item } });
/** An item the node succeeded on: its row, and the node's words. */
const succeeded = (item: number, words: IDataObject) => answer(item, { ...items[item], engagementPlatform: words });
/** An item that failed on the regular output: its row, the reason beside it, and the node's words. */
const failed = (item: number, error: string) =>
	answer(item, {
		...items[item],
		error,
		engagementPlatform: { status: 'failed', error, description: 'Check it.', delivery: 'not_applied' },
	});

/** Send Now by external user ID: item i is user u-i. */
const sendNow: ConservationCase = {
	name: 'self-test',
	nodeType: MESSAGE_NODE,
	operation: 'sendNow',
	parameters: {},
	items: fc.constant([]),
	numRuns: 1,
	seed: () => ({}),
	expected: (json) => [
		{
			key: userKey('recipient', 'external_user_ids', json.id),
			value: { request: { messages: {} }, field: 'external_user_ids', recipient: json.id },
		},
	],
};
const items = [{ id: 'u-0' }, { id: 'u-1' }];
const sent = (dispatch: string) => [
	succeeded(0, { status: 'sent', dispatch_id: dispatch }),
	succeeded(1, { status: 'sent', dispatch_id: dispatch }),
];

describe('conservation checks', () => {
	test('pass a log that holds each item once, answered from its request', () => {
		const log = [request('/messages/send', { messages: {}, external_user_ids: ['u-0', 'u-1'] }, { dispatch_id: 'd1' })];
		expect(checkConservation(sendNow, items, sent('d1'), log).problems).toEqual([]);
	});

	test('an item answered as sent but missing from the wire is lost', () => {
		const log = [request('/messages/send', { messages: {}, external_user_ids: ['u-0'] }, { dispatch_id: 'd1' })];
		const findings = checkConservation(sendNow, items, sent('d1'), log);
		expect(findings.lost).toBe(1);
		expect(findings.problems[0]).toMatch(
			/^item 1 is answered "sent" with the dispatch_id of request #\d+ but is not in exactly one accepted request: recipient:external_id:u-1 in 0$/,
		);
	});

	test('an item in two accepted requests is lost too (sent twice)', () => {
		const log = [
			request('/messages/send', { messages: {}, external_user_ids: ['u-0', 'u-1'] }, { dispatch_id: 'd1' }),
			request('/messages/send', { messages: {}, external_user_ids: ['u-1'] }, { dispatch_id: 'd1' }),
		];
		expect(checkConservation(sendNow, items, sent('d1'), log).lost).toBe(1);
	});

	test('a piece of no input item, or with other data than its item, is astray', () => {
		const log = [
			request('/messages/send', { messages: {}, external_user_ids: ['u-0', 'u-1', 'u-9'] }, { dispatch_id: 'd1' }),
			request('/messages/send', { messages: { sms: {} }, external_user_ids: ['u-0'] }, { dispatch_id: 'd1' }),
		];
		const findings = checkConservation(sendNow, items, sent('d1'), log);
		expect(findings.problems.some((problem) => problem.includes('belongs to no input item'))).toBe(true);
		expect(findings.problems.some((problem) => problem.includes("the item's data is"))).toBe(true);
	});

	test("an item whose dispatch_id is not its request's was not answered from it", () => {
		const log = [request('/messages/send', { messages: {}, external_user_ids: ['u-0', 'u-1'] }, { dispatch_id: 'd1' })];
		const findings = checkConservation(sendNow, items, sent('d2'), log);
		expect(findings.astray).toBe(2);
		expect(findings.problems[0]).toMatch(/was not answered from it: dispatch_id d2, its request's is d1/);
	});

	test('an item answered with an error its request did not give is astray', () => {
		const log = [request('/messages/send', { messages: {}, external_user_ids: ['u-0', 'u-1'] }, { dispatch_id: 'd1' })];
		const output = [succeeded(0, { status: 'sent', dispatch_id: 'd1' }), failed(1, 'refused')];
		const findings = checkConservation(sendNow, items, output, log);
		expect(findings.astray).toBe(1);
		expect(findings.failedItems).toBe(1);
		expect(findings.problems).toContainEqual(expect.stringMatching(/^item 1 is answered with an error, .*: refused$/));
	});

	test('an item failed in its words alone is failed too', () => {
		const log = [request('/messages/send', { messages: {}, external_user_ids: ['u-0', 'u-1'] }, { dispatch_id: 'd1' })];
		const { error: _error, ...withoutReasonAtTop } = failed(1, 'refused').json;
		const output = [succeeded(0, { status: 'sent', dispatch_id: 'd1' }), answer(1, withoutReasonAtTop)];
		expect(checkConservation(sendNow, items, output, log).failedItems).toBe(1);
	});

	test("an item whose row does not come out as it went in, or that lays the node's words over it, is named", () => {
		const log = [request('/messages/send', { messages: {}, external_user_ids: ['u-0', 'u-1'] }, { dispatch_id: 'd1' })];
		const changed = [
			answer(0, { id: 'u-0?', engagementPlatform: { status: 'sent', dispatch_id: 'd1' } }),
			answer(1, { id: 'u-1', status: 'sent', dispatch_id: 'd1' }),
		];
		const { problems } = checkConservation(sendNow, items, changed, log);
		expect(problems).toContainEqual(expect.stringMatching(/^item 0 does not carry its row as it came/));
		expect(problems).toContainEqual(expect.stringMatching(/^item 1 does not carry its row as it came/));
	});

	test('requests over the spec limits are named with the spec text', () => {
		const ids = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
		expect(limitViolations(request('/users/track', { events: ids(76, 'e') }))).toEqual([
			expect.stringMatching(/^POST \/users\/track: events: 76 > 75/),
		]);
		expect(
			limitViolations(
				request('/v2/subscription/status/set', {
					subscription_groups: [
						{ subscription_group_id: 'g', subscription_state: 'subscribed', external_ids: ids(30, 'a') },
						{ subscription_group_id: 'g', subscription_state: 'subscribed', emails: ids(30, 'b') },
					],
				}),
			),
		).toEqual([expect.stringMatching(/users in all elements: 60 > 50/)]);
		expect(
			limitViolations(
				request('/users/export/ids', {
					external_ids: ids(30, 'a'),
					user_aliases: ids(30, 'b'),
					fields_to_export: ['email'],
				}),
			),
		).toHaveLength(1);
		expect(
			limitViolations(
				request('/users/export/ids', { email_address: ['a@x.io', 'b@x.io'], fields_to_export: ['email'] }),
			),
		).toHaveLength(1);
		expect(
			limitViolations(
				request('/messages/send', { external_user_ids: ids(26, 'a'), user_aliases: ids(25, 'b'), messages: {} }),
			),
		).toHaveLength(1);
		expect(
			limitViolations(
				request('/canvas/trigger/send', {
					canvas_id: 'c',
					canvas_entry_properties: { blob: 'x'.repeat(50_000) },
					broadcast: true,
				}),
			),
		).toHaveLength(1);
		expect(
			limitViolations(
				request('/transactional/v1/campaigns/receipt/send', {
					recipient: { external_user_id: 'a', user_alias: { alias_name: 'b', alias_label: 'c' } },
				}),
			),
		).toHaveLength(1);
		expect(
			limitViolations(
				request('/users/identify', { aliases_to_identify: ids(30, 'a'), emails_to_identify: ids(21, 'b') }),
			),
		).toHaveLength(1);
		expect(limitViolations(request('/not/in/the/spec', {}))).toEqual([
			'POST /not/in/the/spec: not an endpoint of the spec',
		]);
		expect(
			limitViolations(
				request('/users/track', { attributes: ids(75, 'a'), events: ids(75, 'e'), purchases: ids(75, 'p') }),
			),
		).toEqual([]);
	});
});
