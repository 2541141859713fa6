/**
 * Once, by what came in. Marketers leave *Time* empty (the time of the run), put `{{ $now }}` in a
 * property or a random value in an expression: each try n8n runs evaluates those anew. However n8n
 * runs an item again (Retry On Fail by either line's rule, *Executions → Retry* with the saved or the
 * current workflow), what an earlier try got accepted is not sent again, is answered as that try did,
 * and an item sent by a later try carries the time the first try gave the run. A derived External Send
 * ID comes from the item as it came in, so a volatile trigger property does not make a new email.
 */
import type { IDataObject, INodeParameters, IRun } from 'n8n-workflow';

import { runWorkflow } from '../harness';
import type { HarnessNode, RunResult } from '../harness';
import { MESSAGE, MESSAGE_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

const WORKFLOW_ID = 'volatileRerunWorkflow';
const NODE_ID = '7d1c3a52-0000-4000-8000-00000000bb01';

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

async function eventsByCustomer(): Promise<Record<string, string[]>> {
	const state = await client().state();
	const byCustomer: Record<string, string[]> = {};
	for (const event of state.events) {
		const customer = state.profiles.find((profile) => profile.service_id === event.service_id)?.external_id ?? '?';
		(byCustomer[customer] ??= []).push(event.time);
	}
	return byCustomer;
}

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
			const events = await eventsByCustomer();
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
			const firstTime = (await eventsByCustomer())['c-1'][0];

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
			const events = await eventsByCustomer();
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
	const receipt: INodeParameters = {
		operation: 'sendTransactionalEmail',
		campaignId: 'order-receipt',
		identifyBy: 'external_id',
		externalId: '={{ $json.customer }}',
		triggerPropertiesInput: 'json',
		triggerPropertiesJson: '={{ { order_id: $json.order, sent_at: $now.toISO() } }}',
	};
	const ORDERS = [
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
			runs.push(await run({ type: MESSAGE_NODE, name: MESSAGE, parameters: receipt, items: ORDERS }));
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
		const result = await run({ type: MESSAGE_NODE, name: MESSAGE, parameters: receipt, items: ORDERS });

		const hints = result.run.data.resultData.runData[MESSAGE][0].hints ?? [];
		const volatile = hints.filter((hint) => hint.message.includes('$now'));
		expect(volatile).toHaveLength(1);
		expect(volatile[0].message).toContain('External Send ID');
	});

	test('a different order of the same customer is a different email', async () => {
		await run({ type: MESSAGE_NODE, name: MESSAGE, parameters: receipt, items: ORDERS });
		const next = await run({
			type: MESSAGE_NODE,
			name: MESSAGE,
			parameters: receipt,
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
