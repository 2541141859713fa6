/**
 * Once, however n8n runs it again. A marketer fixes a failed run the way n8n teaches: *Executions →
 * Retry* (the failed execution run again from its saved data), the failed step run again (a new
 * execution of the same items), *Retry On Fail* on the node; a shop delivers the same webhook twice. And
 * rows carry their own `error` column, which makes n8n try a run that did not fail: any value but
 * undefined on n8n 1.x, an empty text on 2.x. In each shape what the platform accepted the first time
 * is not applied again, and the items are answered as the first time.
 */
import type { IDataObject, INodeParameters, IRun } from 'n8n-workflow';
import { Container } from '@n8n/di';
import { InstanceSettings } from 'n8n-core';

import { runWorkflow } from '../harness';
import type { HarnessNode, RunResult } from '../harness';
import { MESSAGE, MESSAGE_NODE, SUBSCRIPTION, SUBSCRIPTION_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { runNodeInShape } from '../support/nodeShapes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { deduplicationStore } from '../harness/deduplicationStore';
import { eventTimesByCustomer } from '../support/storedEvents';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox({ subscriptionGroups: ['newsletter-group'] });
const store = deduplicationStore();
beforeEach(() => store.reset());

const WORKFLOW_ID = 'runAgainWorkflow';
const NODE_ID = '7d1c3a52-0000-4000-8000-00000000aa01';

interface Run {
	type: string;
	name: string;
	parameters: INodeParameters;
	items: IDataObject[];
	retryOnFail?: boolean;
	retryRule?: '1.x';
	retryOf?: IRun;
	retryWithCurrentWorkflow?: boolean;
}

/** The same saved workflow each time: its id and the node's id stay, as n8n keeps them. */
async function run({ type, name, parameters, items, retryOnFail, ...rerun }: Run): Promise<RunResult> {
	const node: HarnessNode = {
		id: NODE_ID,
		name,
		type,
		parameters,
		...(retryOnFail && { retryOnFail: { maxTries: 3, waitBetweenTries: 0 } }),
	};
	return await runWorkflow({
		workflowId: WORKFLOW_ID,
		nodes: [node],
		connections: { Start: { main: [[{ node: name, type: 'main', index: 0 }]] } },
		items,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		...rerun,
	});
}

const receipt: INodeParameters = {
	operation: 'sendTransactionalEmail',
	campaignId: 'order-receipt',
	identifyBy: 'external_id',
	externalId: '={{ $json.customer }}',
	triggerPropertiesInput: 'json',
	triggerPropertiesJson: '={{ { order_id: $json.order, total: $json.total } }}',
	// One request at a time, in item order: the refused fourth comes after the three accepted.
	options: { parallelRequests: 1 },
};
const ORDERS = [
	{ order: 'o-1', customer: 'c-1', total: 12.5 },
	{ order: 'o-2', customer: 'c-2', total: 59.9 },
	{ order: 'o-3', customer: 'c-3', total: 24 },
	{ order: 'o-4', customer: 'c-4', total: 84.4 },
];
const sendReceipts = (items: IDataObject[] = ORDERS, extra: Partial<Run> = {}) =>
	run({ type: MESSAGE_NODE, name: MESSAGE, parameters: receipt, items, ...extra });

/** Receipts the platform holds, by customer. */
async function receiptsByCustomer(): Promise<Record<string, number>> {
	const state = (await client().state()) as unknown as {
		transactionalSends: Array<{ service_id: string }>;
		profiles: Array<{ service_id: string; external_id?: string }>;
	};
	const counts: Record<string, number> = {};
	for (const send of state.transactionalSends) {
		const customer = state.profiles.find((profile) => profile.service_id === send.service_id)?.external_id ?? '?';
		counts[customer] = (counts[customer] ?? 0) + 1;
	}
	return counts;
}

/**
 * Until the platform has moved every receipt on from `queued` (handed to the email partner): a receipt
 * run again later is told from a new one by the platform answering a status further on (a repeat still
 * `queued` at that moment is answered `sent`: the platform holds one email either way).
 */
async function untilHandedOn(): Promise<void> {
	for (let wait = 0; wait < 100; wait++) {
		const { transactionalSends } = (await client().state()) as unknown as {
			transactionalSends: Array<{ statuses: string[] }>;
		};
		if (transactionalSends.every((send) => send.statuses.length > 1)) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	throw new Error('the sandbox did not hand the receipts on');
}

describe('Send Transactional Email, run again: one receipt per order', () => {
	beforeEach(async () => {
		await client().seed({
			profiles: ['c-1', 'c-2', 'c-3'].map((external_id) => ({ external_id })),
			campaigns: [{ id: 'order-receipt', kind: 'transactional' }],
		});
	});

	test('Executions → Retry after the customer was added: the three sent are not sent again, the fourth is', async () => {
		// c-4 is not on the platform yet: refused (400), and the node stops the workflow.
		const failed = await sendReceipts();
		expect(failed.error).toBeDefined();
		await untilHandedOn();
		expect(await receiptsByCustomer()).toEqual({ 'c-1': 1, 'c-2': 1, 'c-3': 1 });

		await client().seed({ profiles: [{ external_id: 'c-4' }] });
		const retried = await sendReceipts(ORDERS, { retryOf: failed.run });

		expect(retried.error).toBeUndefined();
		expect(await receiptsByCustomer()).toEqual({ 'c-1': 1, 'c-2': 1, 'c-3': 1, 'c-4': 1 });
		const answers = retried.output(MESSAGE).map((item) => wordsOf(item.json));
		expect(answers.map((answer) => answer.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
		expect(new Set(answers.map((answer) => answer.dispatch_id)).size).toBe(4);
		// Only the fourth went out again.
		expect(await client().requests({ path: '/transactional/v1/campaigns/order-receipt/send' })).toHaveLength(5);
	});

	test('the same orders as a new execution (the step run again, the webhook delivered twice): each receipt once, the repeats answered duplicate with when they went', async () => {
		await client().seed({ profiles: [{ external_id: 'c-4' }] });
		const first = await sendReceipts();
		const firstAnswers = first.output(MESSAGE).map((item) => wordsOf(item.json));
		await untilHandedOn();

		const again = await sendReceipts();

		expect(again.error).toBeUndefined();
		expect(await receiptsByCustomer()).toEqual({ 'c-1': 1, 'c-2': 1, 'c-3': 1, 'c-4': 1 });
		const answers = again.output(MESSAGE).map((item) => wordsOf(item.json));
		expect(answers.map((answer) => answer.status)).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate']);
		answers.forEach((answer, index) => {
			expect(answer.external_send_id).toBe(firstAnswers[index].external_send_id);
			expect(answer.dispatch_id).toBe(firstAnswers[index].dispatch_id);
			expect(answer.note).toContain(
				String((firstAnswers[index].metadata as IDataObject | undefined)?.received_at ?? 'received'),
			);
		});
		// The row comes out as it came.
		expect(again.output(MESSAGE)[1].json).toMatchObject(ORDERS[1]);
	});

	test('a different order of the same customer is a different receipt, and two identical items of one run are two', async () => {
		await client().seed({ profiles: [{ external_id: 'c-4' }] });
		await sendReceipts(ORDERS.slice(0, 2));
		await untilHandedOn();

		const next = await sendReceipts([
			ORDERS[0],
			{ order: 'o-5', customer: 'c-1', total: 5 },
			{ order: 'o-6', customer: 'c-2', total: 7 },
			{ order: 'o-6', customer: 'c-2', total: 7 },
		]);

		expect(next.output(MESSAGE).map((item) => statusOf(item.json))).toEqual(['duplicate', 'sent', 'sent', 'sent']);
		expect(await receiptsByCustomer()).toEqual({ 'c-1': 2, 'c-2': 3 });
	});

	test('two identical receipts split by Loop Over Items, one per pass, are two emails, both sent', async () => {
		const twice = [ORDERS[0], ORDERS[0]];
		const looped = await runNodeInShape(
			MESSAGE_NODE,
			{ items: twice, parameters: receipt, endpoint: sandbox().url, apiKey, workflowId: WORKFLOW_ID, nodeId: NODE_ID },
			{ kind: 'loop', batchSize: 1 },
		);

		expect(looped.runs).toBe(2);
		expect(looped.answers.map(({ json }) => statusOf(json))).toEqual(['sent', 'sent']);
		expect(await receiptsByCustomer()).toEqual({ 'c-1': 2 });
	});

	test('two n8n instances sharing the workflow and node ids (staging, production) derive different IDs', async () => {
		await client().seed({ profiles: [{ external_id: 'c-4' }] });
		const settings = Container.get(InstanceSettings) as unknown as { instanceId: string };
		const production = settings.instanceId;
		try {
			const onProduction = await sendReceipts();
			settings.instanceId = `${production}-staging`;
			const onStaging = await sendReceipts();

			const ids = (result: RunResult) => result.output(MESSAGE).map((item) => wordsOf(item.json).external_send_id);
			expect(ids(onStaging).some((id) => ids(onProduction).includes(id))).toBe(false);
			expect(onStaging.output(MESSAGE).map((item) => statusOf(item.json))).toEqual(['sent', 'sent', 'sent', 'sent']);
		} finally {
			settings.instanceId = production;
		}
	});
});

describe("Retry On Fail and a row's own error column", () => {
	const purchase: INodeParameters = {
		operation: 'trackPurchase',
		identifyBy: 'external_id',
		externalId: '={{ $json.customer }}',
		productId: '={{ $json.sku }}',
		currency: 'EUR',
		price: '={{ $json.price }}',
		time: '2026-11-20T09:00:00Z',
	};
	const rows = (error: IDataObject[string]) =>
		['c-1', 'c-2', 'c-3'].map((customer, index) => ({ customer, sku: `sku-${index}`, price: '9.90', error }));

	test.each([
		['n8n 1.x, error null', '1.x' as const, null],
		['n8n 1.x, error false', '1.x' as const, false],
		['n8n 1.x, error ""', '1.x' as const, ''],
		['n8n 2.x, error ""', undefined, ''],
		['n8n 2.x, error text', undefined, 'stale reason from last week'],
	])('%s: purchases recorded once each, answered tracked, the row unchanged', async (_, retryRule, error) => {
		const result = await run({
			type: USER_NODE,
			name: USER,
			parameters: purchase,
			items: rows(error),
			retryOnFail: true,
			retryRule,
		});

		expect(result.error).toBeUndefined();
		expect((await client().stats()).purchases).toBe(3);
		expect(await client().requests({ path: '/users/track' })).toHaveLength(1);
		for (const [index, item] of result.output(USER).entries()) {
			expect(statusOf(item.json)).toBe('tracked');
			expect(item.json.error).toBe(error);
			expect(item.json).toMatchObject(rows(error)[index]);
		}
	});

	test('n8n 2.x, error "": Update Attributes with Send Only Changes sends once and answers updated, not unchanged', async () => {
		const result = await run({
			type: USER_NODE,
			name: USER,
			parameters: {
				operation: 'updateAttributes',
				externalId: '={{ $json.customer }}',
				attributesFields: {
					assignments: [{ id: '1', name: 'plan', value: '={{ $json.plan }}', type: 'string' }],
				},
				options: { sendOnlyChanges: true },
			},
			items: ['c-1', 'c-2'].map((customer) => ({ customer, plan: 'gold', error: '' })),
			retryOnFail: true,
		});

		expect(result.error).toBeUndefined();
		expect(await client().requests({ path: '/users/track' })).toHaveLength(1);
		expect(result.output(USER).map((item) => statusOf(item.json))).toEqual(['updated', 'updated']);
	});

	test('n8n 1.x, error null: Set Group State sends once and answers subscribed', async () => {
		await client().seed({ subscriptionGroups: ['newsletter-group'] });
		const result = await run({
			type: SUBSCRIPTION_NODE,
			name: SUBSCRIPTION,
			parameters: {
				operation: 'subscribe',
				subscriptionGroupId: 'newsletter-group',
				identifyBy: 'email',
				email: '={{ $json.email }}',
			},
			items: [{ email: 'ada@example.com', error: null }],
			retryOnFail: true,
			retryRule: '1.x',
		});

		expect(result.error).toBeUndefined();
		expect(await client().requests({ path: '/v2/subscription/status/set' })).toHaveLength(1);
		expect(result.output(SUBSCRIPTION).map((item) => statusOf(item.json))).toEqual(['subscribed']);
	});
});

/**
 * Found by the state sequences (test/sequences/stateConvergence.test.ts, shrunk): a retried execution
 * must keep the run's last word. The first try had the sign-up row accepted and the CRM row refused; the
 * CRM row's tier was replaced by the later sign-up row's, so the retry has only its opt-in left to send.
 */
test('a new customer’s CRM row refused for want of a profile, her sign-up row after it accepted: Executions → Retry sends the CRM row’s opt-in alone, and her tier stays the sign-up’s', async () => {
	const sync: INodeParameters = {
		operation: 'updateAttributes',
		identifyBy: 'external_id',
		externalId: '={{ $json.customer }}',
		attributesInput: 'json',
		attributesJson: '={{ $json.attrs }}',
		additionalFields: { _update_existing_only: '={{ $json.updateOnly === true }}' },
	};
	const rows = [
		// The CRM's nightly export updates customers it believes exist: Ada is not on the platform yet.
		{ customer: 'ada', attrs: { tier: 'gold', email_subscribe: 'opted_in' }, updateOnly: true },
		// The sign-up form's row, later in the same batch, creates her.
		{ customer: 'ada', attrs: { tier: 'silver' } },
	];
	const tierOfAda = async () =>
		(await client().state()).profiles.find((profile) => profile.external_id === 'ada')?.custom_attributes.tier;

	const failed = await run({ type: USER_NODE, name: USER, parameters: sync, items: rows });
	expect(failed.error?.message).toContain('_update_existing_only is true');
	expect(await tierOfAda()).toBe('silver');
	const requestsBefore = (await client().requests({ path: '/users/track' })).length;

	const retried = await run({ type: USER_NODE, name: USER, parameters: sync, items: rows, retryOf: failed.run });

	expect(retried.error).toBeUndefined();
	expect(await tierOfAda()).toBe('silver');
	const state = await client().state();
	expect(state.profiles.find((profile) => profile.external_id === 'ada')?.email_subscribe).toBe('opted_in');
	// What the retry sent: the opt-in, and nothing the first try had the platform accept.
	const sent = (await client().requests({ path: '/users/track' }))
		.slice(requestsBefore)
		.flatMap((request) => (request.body as { attributes?: IDataObject[] }).attributes ?? []);
	expect(sent).toEqual([{ external_id: 'ada', email_subscribe: 'opted_in', _update_existing_only: true }]);
});

test('n8n 2.x, error "": a retry that cannot read Send Only Changes\' store keeps the first try\'s answers, and fails only the item it would send', async () => {
	await client().seed({ profiles: [{ external_id: 'c-1' }] });
	// The first try's three reads and writes of n8n's store go through; then n8n's database goes away.
	let records = 0;
	store.failWhen = (method) => method === 'checkProcessedAndRecord' && ++records > 3;
	const rows = [
		{ customer: 'c-1', plan: 'gold', error: '' },
		// Not on the platform: Update Existing Only refuses it, and the retry tries it again.
		{ customer: 'c-new', plan: 'gold', error: '' },
	];
	const result = await runWorkflow({
		workflowId: WORKFLOW_ID,
		nodes: [
			{
				id: NODE_ID,
				name: USER,
				type: USER_NODE,
				parameters: {
					operation: 'updateAttributes',
					externalId: '={{ $json.customer }}',
					attributesFields: {
						assignments: [{ id: '1', name: 'plan', value: '={{ $json.plan }}', type: 'string' }],
					},
					additionalFields: { _update_existing_only: true },
					options: { sendOnlyChanges: true },
				},
				retryOnFail: { maxTries: 2, waitBetweenTries: 0 },
				onError: 'continueRegularOutput',
			},
		],
		connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
		items: rows,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
	});

	expect(result.error).toBeUndefined();
	// The store failed on the retry: the platform was asked once, by the first try.
	expect(records).toBeGreaterThan(3);
	expect(await client().requests({ path: '/users/track' })).toHaveLength(1);
	const [accepted, refused] = result.output(USER).map((item) => item.json);
	expect(statusOf(accepted)).toBe('updated');
	expect(statusOf(refused)).toBe('failed');
	expect(JSON.stringify(wordsOf(refused))).toMatch(/database/i);
});

/**
 * Once, by what came in. Marketers leave *Time* empty (the time of the run), put `{{ $now }}` in a
 * property or a random value in an expression: each try n8n runs evaluates those anew. What an earlier
 * try got accepted is still not sent again and is answered as that try did, an item a later try sends
 * carries the time the first try gave the run, and a derived External Send ID comes from the item as it
 * came in, so a changing trigger property does not make a new email.
 */

/** Sign-ups: Track Event with Time empty, for customers already on the platform only. */
const signUp: INodeParameters = {
	operation: 'trackEvent',
	identifyBy: 'external_id',
	externalId: '={{ $json.customer }}',
	eventName: 'signed_up',
	time: '',
	propertiesInput: 'json',
	propertiesJson: '={{ { synced_at: $now.toISO(), nonce: Math.random() } }}',
	additionalFields: { _update_existing_only: true },
	// One customer a request: the fourth is refused while the three before it are accepted.
	options: { batchSize: 1 },
};
const SIGNUPS = ['c-1', 'c-2', 'c-3', 'c-4'].map((customer) => ({ customer }));

describe('Track Event with Time empty and {{ $now }} in its properties', () => {
	beforeEach(async () => {
		await client().seed({ profiles: ['c-1', 'c-2', 'c-3'].map((external_id) => ({ external_id })) });
	});

	test.each([
		['n8n 2.x', undefined],
		['n8n 1.x', '1.x' as const],
	])(
		'%s Retry On Fail, the fourth customer refused every try: the three accepted events are stored once each',
		async (_, retryRule) => {
			const result = await run({
				type: USER_NODE,
				name: USER,
				parameters: signUp,
				items: SIGNUPS,
				retryOnFail: true,
				retryRule,
			});

			expect(result.error).toBeDefined();
			const events = await eventTimesByCustomer(client());
			expect(Object.keys(events).sort()).toEqual(['c-1', 'c-2', 'c-3']);
			for (const times of Object.values(events)) expect(times).toHaveLength(1);
		},
	);

	test.each([
		['the saved workflow', false],
		['the current workflow, its options and spacing changed', true],
	])(
		'Executions → Retry with %s after the customer was added: one event each, all with the first try’s time',
		async (_, current) => {
			const failed = await run({ type: USER_NODE, name: USER, parameters: signUp, items: SIGNUPS });
			expect(failed.error).toBeDefined();
			const firstTime = (await eventTimesByCustomer(client()))['c-1'][0];

			await client().seed({ profiles: [{ external_id: 'c-4' }] });
			await new Promise((resolve) => setTimeout(resolve, 5));
			const parameters = current
				? { ...signUp, externalId: '={{$json.customer}}', options: { batchSize: 2, parallelRequests: 2 } }
				: signUp;
			const retried = await run({
				type: USER_NODE,
				name: USER,
				parameters,
				items: SIGNUPS,
				retryOf: failed.run,
				retryWithCurrentWorkflow: current,
			});

			expect(retried.error).toBeUndefined();
			const events = await eventTimesByCustomer(client());
			expect(events).toEqual({ 'c-1': [firstTime], 'c-2': [firstTime], 'c-3': [firstTime], 'c-4': [firstTime] });
			expect(retried.output(USER).map((item) => statusOf(item.json))).toEqual([
				'tracked',
				'tracked',
				'tracked',
				'tracked',
			]);
			// The retry sent the fourth customer's event alone.
			const requests = await client().requests({ path: '/users/track' });
			expect(requests).toHaveLength(5);
			expect((requests[4].body as { events: IDataObject[] }).events.map((event) => event.external_id)).toEqual(['c-4']);
		},
	);
});

test('Track Purchase with Time empty, rows with an empty error column (n8n 2.x tries again): each purchase once', async () => {
	const result = await run({
		type: USER_NODE,
		name: USER,
		parameters: {
			operation: 'trackPurchase',
			identifyBy: 'external_id',
			externalId: '={{ $json.customer }}',
			productId: '={{ $json.sku }}',
			currency: 'EUR',
			price: '={{ $json.price }}',
			time: '',
		},
		items: ['c-1', 'c-2', 'c-3'].map((customer, index) => ({
			customer,
			sku: `sku-${index}`,
			price: '9.90',
			error: '',
		})),
		retryOnFail: true,
	});

	expect(result.error).toBeUndefined();
	const { purchases } = await client().state();
	expect(purchases).toHaveLength(3);
	expect(new Set(purchases.map((purchase) => purchase.time)).size).toBe(1);
	expect(result.output(USER).map((item) => statusOf(item.json))).toEqual(['tracked', 'tracked', 'tracked']);
});

test('Trigger Campaign with a recipient property of {{ $now }}, rows with an empty error column: each message once', async () => {
	await client().seed({
		profiles: ['c-1', 'c-2', 'c-3'].map((external_id) => ({ external_id })),
		campaigns: [{ id: 'welcome-campaign' }],
	});
	const result = await run({
		type: MESSAGE_NODE,
		name: MESSAGE,
		parameters: {
			operation: 'triggerCampaign',
			campaignId: 'welcome-campaign',
			sendTo: 'recipients',
			identifyBy: 'external_id',
			externalId: '={{ $json.customer }}',
			recipientPropertiesInput: 'json',
			recipientPropertiesJson: '={{ { sent_at: $now.toISO() } }}',
		},
		items: ['c-1', 'c-2', 'c-3'].map((customer) => ({ customer, error: '' })),
		retryOnFail: true,
	});

	expect(result.error).toBeUndefined();
	const { dispatches } = await client().state();
	expect(dispatches.flatMap((dispatch) => dispatch.recipients.map((recipient) => recipient.external_id))).toEqual([
		'c-1',
		'c-2',
		'c-3',
	]);
	const answers = result.output(MESSAGE).map((item) => wordsOf(item.json));
	expect(answers.map((answer) => answer.status)).toEqual(['sent', 'sent', 'sent']);
	expect(new Set(answers.map((answer) => answer.dispatch_id))).toEqual(new Set([dispatches[0].dispatch_id]));
});

describe('Send Transactional Email, External Send ID empty, a trigger property of {{ $now }}', () => {
	const receiptWithNow: INodeParameters = {
		operation: 'sendTransactionalEmail',
		campaignId: 'order-receipt',
		identifyBy: 'external_id',
		externalId: '={{ $json.customer }}',
		triggerPropertiesInput: 'json',
		triggerPropertiesJson: '={{ { order_id: $json.order, sent_at: $now.toISO() } }}',
	};
	const TWO_ORDERS = [
		{ order: 'o-1', customer: 'c-1' },
		{ order: 'o-2', customer: 'c-2' },
	];

	beforeEach(async () => {
		await client().seed({
			profiles: ['c-1', 'c-2'].map((external_id) => ({ external_id })),
			campaigns: [{ id: 'order-receipt', kind: 'transactional' }],
		});
	});

	test('the same order webhook delivered twice, then the step re-run: one receipt per order, the same ID each time', async () => {
		const runs: RunResult[] = [];
		for (let time = 0; time < 3; time++) {
			runs.push(await run({ type: MESSAGE_NODE, name: MESSAGE, parameters: receiptWithNow, items: TWO_ORDERS }));
			await new Promise((resolve) => setTimeout(resolve, 5));
		}

		const { transactionalSends } = await client().state();
		expect(transactionalSends).toHaveLength(2);
		const ids = runs.map((result) => result.output(MESSAGE).map((item) => wordsOf(item.json).external_send_id));
		expect(ids[1]).toEqual(ids[0]);
		expect(ids[2]).toEqual(ids[0]);
		expect(runs[0].output(MESSAGE).map((item) => statusOf(item.json))).toEqual(['sent', 'sent']);
	});

	test('the run says once that the derived ID comes from the item, not from the {{ $now }} it maps', async () => {
		const result = await run({ type: MESSAGE_NODE, name: MESSAGE, parameters: receiptWithNow, items: TWO_ORDERS });

		const hints = result.run.data.resultData.runData[MESSAGE][0].hints ?? [];
		const volatile = hints.filter((hint) => hint.message.includes('$now'));
		expect(volatile).toHaveLength(1);
		expect(volatile[0].message).toContain('External Send ID');
	});

	test('a different order of the same customer is a different email', async () => {
		await run({ type: MESSAGE_NODE, name: MESSAGE, parameters: receiptWithNow, items: TWO_ORDERS });
		const next = await run({
			type: MESSAGE_NODE,
			name: MESSAGE,
			parameters: receiptWithNow,
			items: [{ order: 'o-3', customer: 'c-1' }],
		});

		expect(next.output(MESSAGE).map((item) => statusOf(item.json))).toEqual(['sent']);
		expect((await client().state()).transactionalSends).toHaveLength(3);
	});
});

test('Update Attributes with synced_at = {{ $now }}, rows with an empty error column: sent once, answered with the value the platform holds', async () => {
	const result = await run({
		type: USER_NODE,
		name: USER,
		parameters: {
			operation: 'updateAttributes',
			identifyBy: 'external_id',
			externalId: '={{ $json.customer }}',
			attributesInput: 'json',
			attributesJson: '={{ { plan: $json.plan, synced_at: $now.toISO() } }}',
		},
		items: ['c-1', 'c-2'].map((customer) => ({ customer, plan: 'gold', error: '' })),
		retryOnFail: true,
	});

	expect(result.error).toBeUndefined();
	expect(await client().requests({ path: '/users/track' })).toHaveLength(1);
	const { profiles } = await client().state();
	for (const item of result.output(USER)) {
		const answer = wordsOf(item.json);
		const held = profiles.find((profile) => profile.external_id === item.json.customer)?.custom_attributes;
		expect(answer.status).toBe('updated');
		expect((answer.sent as IDataObject).synced_at).toBe(held?.synced_at);
	}
});
