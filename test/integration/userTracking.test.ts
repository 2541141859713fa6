import type { IDataObject } from 'n8n-workflow';

import { USER } from '../support/nodeTypes';
import { OUTPUT_FIELD, statusOf, wordsOf } from '../support/nodeWords';
import { orderEvents, runUserNode, trackEventParameters } from '../support/userRuns';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox({ subscriptionGroups: ['newsletter'] });

const run = async (items: IDataObject[], parameters = trackEventParameters(), continueOnFail = false) =>
	await runUserNode({ items, parameters, endpoint: sandbox().url, apiKey, continueOnFail });

type TrackBody = { attributes?: unknown[]; events?: unknown[]; purchases?: unknown[] };
const trackRequests = async () =>
	(await client().requests({ path: '/users/track' })).map((r) => ({ ...r, body: r.body as TrackBody }));

describe('User node: tracking through /users/track', () => {
	test('1,000 orders become 14 requests and 1,000 stored events, one tracked result per order', async () => {
		const orders = orderEvents(1000);
		const result = await run(orders);

		expect(result.error).toBeUndefined();
		const requests = await trackRequests();
		expect(requests).toHaveLength(14);
		expect(requests.map((r) => r.body.events?.length).sort((a, b) => b! - a!)).toEqual([...Array(13).fill(75), 25]);
		const { events } = await client().state();
		expect(events).toHaveLength(1000);
		expect(new Set(events.map((e) => (e.properties as IDataObject).order_id)).size).toBe(1000);

		const output = result.output(USER);
		expect(output).toHaveLength(1000);
		output.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			// The answer says what happened, beside the order's fields as they came.
			expect(item.json).toEqual({
				...orders[index],
				[OUTPUT_FIELD]: { status: 'tracked', external_id: `customer-${index}`, events_tracked: 1 },
			});
		});
	});

	test('an order with attributes, an event and two products shares requests with the other orders', async () => {
		const orders = Array.from({ length: 100 }, (_, i) => ({
			userId: `shopper-${i}`,
			attributes: { first_name: `Shopper ${i}`, lifetime_orders: i + 1 },
			events: [{ name: 'order_placed', time: '2026-11-01T10:00:00Z', properties: { order_id: `o-${i}` } }],
			purchases: [
				{ product_id: 'mug', currency: 'USD', price: 12.5, quantity: 2, time: '2026-11-01T10:00:00Z' },
				{ product_id: 'tea', currency: 'USD', price: 4, time: '2026-11-01T10:00:00Z' },
			],
		}));
		const result = await run(orders, {
			operation: 'trackUserData',
			identifyBy: 'external_id',
			externalId: '={{ $json.userId }}',
			attributesInput: 'json',
			attributesJson: '={{ $json.attributes }}',
			eventsJson: '={{ $json.events }}',
			purchasesJson: '={{ $json.purchases }}',
		});

		expect(result.error).toBeUndefined();
		// 100 attributes, 100 events, 200 purchases: the 200 purchases need ceil(200 / 75) = 3 requests, and the rest rides along.
		const requests = await trackRequests();
		expect(requests).toHaveLength(3);
		expect(requests.filter((r) => r.body.attributes && r.body.events && r.body.purchases)).toHaveLength(2);
		const state = await client().state();
		expect(state.events).toHaveLength(100);
		expect(state.purchases).toHaveLength(200);
		expect(state.profiles.find((p) => p.external_id === 'shopper-42')).toMatchObject({
			custom_attributes: { lifetime_orders: 43 },
		});
		// Counts name what they count: the attributes set (first_name, lifetime_orders), not the objects sent.
		expect(result.output(USER)[7].json).toEqual({
			...orders[7],
			[OUTPUT_FIELD]: {
				status: 'tracked',
				external_id: 'shopper-7',
				attributes_set: 2,
				sent: { first_name: 'Shopper 7', lifetime_orders: 8 },
				events_tracked: 1,
				purchases_tracked: 2,
			},
		});
	});

	test('on the monthly-active-users plan no request carries more than 50 objects in all', async () => {
		const result = await run(orderEvents(1000), trackEventParameters({ combinedLimit: true }));

		expect(result.error).toBeUndefined();
		const requests = await trackRequests();
		expect(requests).toHaveLength(20);
		expect(requests.every((r) => (r.body.events?.length ?? 0) === 50)).toBe(true);
		expect((await client().stats()).events).toBe(1000);
	});

	test('attribute updates set profiles, email subscription and subscription groups', async () => {
		const contacts = [
			{ id: 'crm-1', plan: 'gold', email: 'ada@example.com' },
			{ id: 'crm-2', plan: 'silver', email: 'grace@example.com' },
		];
		const result = await runUserNode({
			items: contacts,
			endpoint: sandbox().url,
			apiKey,
			parameters: {
				operation: 'updateAttributes',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				attributesFields: {
					assignments: [
						{ id: '1', name: 'plan', value: '={{ $json.plan }}', type: 'string' },
						{ id: '2', name: 'email', value: '={{ $json.email }}', type: 'string' },
					],
				},
				additionalFields: {
					email_subscribe: 'opted_in',
					subscription_groups: { groups: [{ subscription_group_id: 'newsletter', subscription_state: 'subscribed' }] },
				},
			},
		});

		expect(result.error).toBeUndefined();
		// plan, email and email_subscribe are attributes; the subscription group is not counted as one.
		expect(result.output(USER).map((item) => item.json)).toEqual(
			contacts.map((contact) => ({
				...contact,
				[OUTPUT_FIELD]: {
					status: 'updated',
					external_id: contact.id,
					attributes_set: 3,
					sent: { plan: contact.plan, email: contact.email, email_subscribe: 'opted_in' },
				},
			})),
		);
		const state = await client().state();
		const ada = state.profiles.find((p) => p.external_id === 'crm-1');
		expect(ada).toMatchObject({
			email: 'ada@example.com',
			email_subscribe: 'opted_in',
			custom_attributes: { plan: 'gold' },
		});
		expect(Object.values(state.subscriptionGroups.newsletter ?? {})).toEqual(['subscribed', 'subscribed']);
	});

	test('a purchase with an invalid currency stops the node before anything is sent, naming the item and field', async () => {
		const purchases = Array.from({ length: 10 }, (_, i) => ({ id: `p-${i}`, currency: i === 6 ? 'dollars' : 'EUR' }));
		const result = await run(purchases, {
			operation: 'trackPurchase',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
			productId: 'sku-1',
			currency: '={{ $json.currency }}',
			price: 10,
			quantity: 1,
			time: '2026-11-01T10:00:00Z',
		});

		// The message names the row and n8n's item number, so n8n's editor adds no "[item 6]" of its own.
		expect(result.error?.message).toBe(
			`Row 7 (item 6, id 'p-6'): "Currency" must be a three-letter ISO 4217 code such as USD, not 'dollars'`,
		);
		expect((result.error as { context?: IDataObject }).context?.itemIndex).toBe(6);
		expect(await client().requests()).toHaveLength(0);
	});

	test('with On Error set to continue, invalid items get their own error and their valid neighbours are still sent', async () => {
		const items = orderEvents(200);
		(items[3].properties as IDataObject).$secret = 'x';
		items[150].time = 'yesterday';

		const result = await run(items, trackEventParameters(), true);

		expect(result.error).toBeUndefined();
		const output = result.output(USER);
		expect(output).toHaveLength(200);
		expect(output[3].json).toMatchObject({
			...items[3],
			error: `Row 4 (item 3, userId 'customer-3'): "Event Properties.$secret" name must not start with "$"`,
			[OUTPUT_FIELD]: { status: 'failed', field: 'Event Properties.$secret', delivery: 'invalid' },
		});
		expect(wordsOf(output[150].json)).toMatchObject({ status: 'failed', field: 'Time', delivery: 'invalid' });
		expect(output.filter((item) => statusOf(item.json) === 'tracked')).toHaveLength(198);
		expect(output.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(await trackRequests()).toHaveLength(3);
		expect((await client().stats()).events).toBe(198);
	});

	/** Events for website visitors by alias: the platform records them only for aliases it knows, which only it can tell. */
	const visitorEvents = async (count: number, unknownVisitor: number) => {
		const items = orderEvents(count).map((item, i) => ({
			...item,
			userId: i === unknownVisitor ? 'visitor-never-seen' : `visitor-${i}`,
		}));
		await client().seed({
			profiles: Array.from({ length: count }, (_, i) => ({
				user_aliases: [{ alias_name: `visitor-${i}`, alias_label: 'web' }],
			})),
		});
		return items;
	};
	const byAlias = {
		...trackEventParameters(),
		identifyBy: 'user_alias',
		aliasName: '={{ $json.userId }}',
		aliasLabel: 'web',
	};

	test('a non-fatal error from the platform lands on the item it points at, and the rest of its request is stored', async () => {
		const items = await visitorEvents(100, 80);

		const result = await run(items, byAlias, true);

		const output = result.output(USER);
		expect(wordsOf(output[80].json)).toMatchObject({ status: 'failed', delivery: 'not_applied' });
		expect(String(output[80].json.error)).toContain(
			"no profile has user_alias (alias_label 'web', alias_name 'visitor-never-seen')",
		);
		expect(output.filter((item) => statusOf(item.json) === 'tracked')).toHaveLength(99);
		expect((await client().stats()).events).toBe(99);
	});

	test('without On Error set to continue, a non-fatal error fails the node on that item and says what was stored', async () => {
		const items = await visitorEvents(10, 4);

		const result = await run(items, byAlias);

		expect(result.error?.message).toMatch(
			/^Row 5 \(item 4, userId 'visitor-never-seen'\): The platform refused this event: no profile has user_alias/,
		);
		expect((result.error as { context?: IDataObject }).context?.itemIndex).toBe(4);
		expect((result.error as { description?: string }).description).toContain(
			'10 items → 1 request: 9 succeeded, 1 failed',
		);
	});

	test('a storm of 429s is waited out and nothing is lost', async () => {
		await client().injectFaults([
			{ path: '/users/track', times: 2, kind: 'status', status: 429, retryAfterSeconds: 1 },
			{ path: '/users/track', times: 2, kind: 'status', status: 429, rateLimitResetInSeconds: 1 },
		]);

		const result = await run(orderEvents(300));

		expect(result.error).toBeUndefined();
		const requests = await trackRequests();
		expect(requests.filter((r) => r.status === 429)).toHaveLength(4);
		expect(requests.filter((r) => r.status === 201)).toHaveLength(4);
		expect((await client().stats()).events).toBe(300);
		expect(result.logs.some((log) => log.message.includes('429'))).toBe(true);
	});

	test('a placeholder external ID (what a mapping of a missing field gives) is refused before sending', async () => {
		const items = orderEvents(3);
		items[1].userId = 'undefined';

		const result = await run(items, trackEventParameters(), true);

		expect(result.output(USER)[1].json).toMatchObject({
			userId: 'undefined',
			error: expect.stringContaining('a placeholder the platform refuses'),
			[OUTPUT_FIELD]: { status: 'failed', field: 'External ID', delivery: 'invalid' },
		});
		expect((await client().stats()).events).toBe(2);
	});

	test("the platform's own rate limit window is respected: requests wait instead of failing", async () => {
		await client().configure({ rateLimits: { 'users.track': { limit: 2, windowMs: 1000 } } });

		const result = await run(orderEvents(75 * 5));

		expect(result.error).toBeUndefined();
		expect((await client().stats()).events).toBe(375);
		expect(result.output(USER).every((item) => statusOf(item.json) === 'tracked')).toBe(true);
	});
});
