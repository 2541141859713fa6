/**
 * Regression tests for findings of a review against the spec (/work/shared/spec/engagement-platform-api.md).
 * Each describe demands the fixed behaviour on the wire: what the sandbox's request log received, and
 * which output item (by pairedItem) answers which request. Written before the fixes.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RecordedRequest, SeedData, UserAlias } from '../../sandbox';
import {
	MESSAGE,
	MESSAGE_NODE,
	SUBSCRIPTION,
	SUBSCRIPTION_NODE,
	TRANSLATION,
	TRANSLATION_NODE,
	USER,
	USER_NODE,
} from '../support/nodeTypes';
import { OUTPUT_FIELD, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox({ subscriptionGroups: ['newsletter', 'offers', 'sms-alerts'] });

const run = async (type: string, items: IDataObject[], parameters: INodeParameters, continueOnFail = false) =>
	await runNode(type, { items, parameters, endpoint: sandbox().url, apiKey, continueOnFail });

const ok = (request: RecordedRequest) => request.status >= 200 && request.status < 300;
const itemOf = (entry: INodeExecutionData) => (entry.pairedItem as { item: number }).item;
const sameAlias = (a: UserAlias, b: UserAlias) => a.alias_name === b.alias_name && a.alias_label === b.alias_label;

/** The output items of each input item, by pairedItem. */
function byInputItem(output: INodeExecutionData[], count: number): INodeExecutionData[][] {
	const answers: INodeExecutionData[][] = Array.from({ length: count }, () => []);
	for (const entry of output) answers[itemOf(entry)].push(entry);
	return answers;
}

/** ISO 8601 with date, time and an explicit offset. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

describe('Finding 1: Send Now with recipients by external ID and by alias in one run', () => {
	type SendBody = { external_user_ids?: string[]; user_aliases?: UserAlias[] };
	const COUNT = 120;
	const items = Array.from({ length: COUNT }, (_, i) =>
		i % 2 === 0 ? { by: 'external_id', id: `crm-${i}` } : { by: 'user_alias', alias: `visitor-${i}` },
	);

	test('every recipient is in exactly one request, in its own field, and every item gets that request’s dispatch_id', async () => {
		await client().seed({
			profiles: items.map((item) =>
				item.id ? { external_id: item.id } : { user_aliases: [{ alias_name: item.alias!, alias_label: 'web' }] },
			),
		});

		const result = await run(
			MESSAGE_NODE,
			items,
			{
				operation: 'sendNow',
				sendTo: 'users',
				identifyBy: '={{ $json.by }}',
				externalId: '={{ $json.id }}',
				aliasName: '={{ $json.alias }}',
				aliasLabel: 'web',
				messages: '{"email": {"app_id": "app", "subject": "Your order", "body": "<p>Thanks!</p>"}}',
			},
			true,
		);

		expect(result.error).toBeUndefined();
		const requests = (await client().requests({ path: '/messages/send' })).filter(ok);
		const bodyOf = (request: RecordedRequest) => request.body as SendBody;
		const dispatchOf = (request: RecordedRequest) => (request.response as { dispatch_id: string }).dispatch_id;

		// No request names more than 50 users, external IDs and aliases together.
		for (const request of requests) {
			expect(
				(bodyOf(request).external_user_ids ?? []).length + (bodyOf(request).user_aliases ?? []).length,
			).toBeLessThanOrEqual(50);
		}

		const answers = byInputItem(result.output(MESSAGE), COUNT);
		const lost: number[] = [];
		for (const [index, item] of items.entries()) {
			expect(answers[index]).toHaveLength(1);
			const words = wordsOf(answers[index][0].json);
			expect(words.status).toBe('sent');
			const carrying = requests.filter((request) =>
				item.id !== undefined
					? (bodyOf(request).external_user_ids ?? []).includes(item.id)
					: (bodyOf(request).user_aliases ?? []).some((alias) =>
							sameAlias(alias, { alias_name: item.alias!, alias_label: 'web' }),
						),
			);
			if (carrying.length !== 1) {
				lost.push(index);
				continue;
			}
			expect(words.dispatch_id).toBe(dispatchOf(carrying[0]));
		}
		// Items answered "sent" whose recipient is in no request (or in several).
		expect(lost).toEqual([]);

		// Every recipient of every request is an item answered from that request.
		for (const request of requests) {
			const dispatchId = dispatchOf(request);
			for (const id of bodyOf(request).external_user_ids ?? []) {
				const index = items.findIndex((item) => item.id === id);
				expect(index).toBeGreaterThanOrEqual(0);
				expect(wordsOf(answers[index][0].json)).toMatchObject({ status: 'sent', dispatch_id: dispatchId });
			}
			for (const alias of bodyOf(request).user_aliases ?? []) {
				const index = items.findIndex(
					(item) => item.alias !== undefined && sameAlias(alias, { alias_name: item.alias, alias_label: 'web' }),
				);
				expect(index).toBeGreaterThanOrEqual(0);
				expect(wordsOf(answers[index][0].json)).toMatchObject({ status: 'sent', dispatch_id: dispatchId });
			}
		}
	});
});

describe('Finding 2: Set Group State names at most 50 users per call', () => {
	type Element = {
		subscription_group_id: string;
		subscription_state: string;
		external_ids?: string[];
		emails?: string[];
		phones?: string[];
	};
	const FIELD: Record<string, 'external_ids' | 'emails' | 'phones'> = {
		external_id: 'external_ids',
		email: 'emails',
		phone: 'phones',
	};
	const GROUPS = ['newsletter', 'offers', 'sms-alerts'];
	const KINDS = ['external_id', 'email', 'phone'];
	const COUNT = 293;
	const items = Array.from({ length: COUNT }, (_, i) => {
		const by = KINDS[i % 3];
		const id =
			by === 'external_id'
				? `crm-${i}`
				: by === 'email'
					? `user${i}@example.com`
					: `+1415555${String(i).padStart(4, '0')}`;
		return { by, id, group: GROUPS[Math.floor(i / 3) % 3], state: i % 7 === 0 ? 'unsubscribed' : 'subscribed' };
	});

	test('no request names more than 50 users over all its elements; every item is set in exactly one element', async () => {
		await client().seed({ subscriptionGroups: GROUPS });

		const result = await run(
			SUBSCRIPTION_NODE,
			items,
			{
				operation: 'setGroupState',
				subscriptionGroupId: '={{ $json.group }}',
				subscriptionState: '={{ $json.state }}',
				identifyBy: '={{ $json.by }}',
				externalId: '={{ $json.id }}',
				email: '={{ $json.id }}',
				phone: '={{ $json.id }}',
			},
			true,
		);

		expect(result.error).toBeUndefined();
		const requests = (await client().requests({ path: '/v2/subscription/status/set' })).filter(ok);
		const elementsOf = (request: RecordedRequest) =>
			(request.body as { subscription_groups: Element[] }).subscription_groups;
		const usersIn = (element: Element) =>
			(element.external_ids?.length ?? 0) + (element.emails?.length ?? 0) + (element.phones?.length ?? 0);

		const perRequest = requests.map((request) =>
			elementsOf(request).reduce((sum, element) => sum + usersIn(element), 0),
		);
		expect(perRequest.filter((users) => users > 50)).toEqual([]);

		const answers = byInputItem(result.output(SUBSCRIPTION), COUNT);
		for (const [index, item] of items.entries()) {
			expect(answers[index]).toHaveLength(1);
			expect(wordsOf(answers[index][0].json)).toMatchObject({
				status: item.state,
				subscription_group_id: item.group,
				subscription_state: item.state,
			});
			const holding = requests.flatMap((request) =>
				elementsOf(request).filter(
					(element) =>
						element.subscription_group_id === item.group &&
						element.subscription_state === item.state &&
						(element[FIELD[item.by]] ?? []).includes(item.id),
				),
			);
			expect(holding).toHaveLength(1);
		}
		// Nothing else was set.
		expect(perRequest.reduce((sum, users) => sum + users, 0)).toBe(COUNT);
	});
});

describe('Finding 3: identifiers an object does not take', () => {
	type TrackBody = { attributes?: IDataObject[]; events?: IDataObject[]; purchases?: IDataObject[] };
	const trackObjects = async () => {
		const bodies = (await client().requests({ path: '/users/track' })).map((request) => request.body as TrackBody);
		return {
			attributes: bodies.flatMap((body) => body.attributes ?? []),
			events: bodies.flatMap((body) => body.events ?? []),
			purchases: bodies.flatMap((body) => body.purchases ?? []),
		};
	};
	const identifiedBy = (value: unknown) => (object: IDataObject) =>
		Object.values(object).some(
			(field) =>
				field === value || (typeof field === 'object' && field !== null && (field as IDataObject).alias_name === value),
		);

	test('Track Purchase by phone or service ID is an error on its item and nothing of it is sent; its neighbours go out', async () => {
		const { profiles } = await client().seed({
			profiles: [
				{ external_id: 'crm-1', phone: '+14155552671' },
				{ external_id: 'crm-2' },
				{ user_aliases: [{ alias_name: 'visitor-4', alias_label: 'web' }] },
			],
		});
		const serviceId = profiles[1].service_id;
		const items = [
			{ by: 'external_id', id: 'crm-1', product: 'p-0' },
			{ by: 'phone', id: '+14155552671', product: 'p-1' },
			{ by: 'service_id', id: serviceId, product: 'p-2' },
			{ by: 'email', id: 'pat@example.com', product: 'p-3' },
			{ by: 'user_alias', id: 'visitor-4', product: 'p-4' },
		];

		const result = await run(
			USER_NODE,
			items,
			{
				operation: 'trackPurchase',
				identifyBy: '={{ $json.by }}',
				externalId: '={{ $json.id }}',
				phone: '={{ $json.id }}',
				serviceId: '={{ $json.id }}',
				email: '={{ $json.id }}',
				aliasName: '={{ $json.id }}',
				aliasLabel: 'web',
				productId: '={{ $json.product }}',
				currency: 'USD',
				price: 12.5,
				quantity: 1,
				time: '2026-11-22T09:10:00Z',
			},
			true,
		);

		const answers = byInputItem(result.output(USER), items.length);
		for (const index of [1, 2]) {
			expect(answers[index]).toHaveLength(1);
			const error = String(answers[index][0].json.error);
			expect(error).toMatch(/purchase/i);
			expect(error).toMatch(/external ID/i);
		}
		// The valid neighbours (external ID, email, alias) go out.
		expect(
			[0, 3, 4].map((index) => [index, answers[index].map((entry) => entry.json.error ?? statusOf(entry.json))]),
		).toEqual([
			[0, ['tracked']],
			[3, ['tracked']],
			[4, ['tracked']],
		]);

		const { purchases } = await trackObjects();
		expect(purchases.map((purchase) => purchase.product_id).sort()).toEqual(['p-0', 'p-3', 'p-4']);
		expect(purchases.filter(identifiedBy('+14155552671'))).toEqual([]);
		expect(purchases.filter(identifiedBy(serviceId))).toEqual([]);
	});

	test('Track User Data: a purchase by phone and attributes by service ID are item errors; events by service ID go out', async () => {
		const { profiles } = await client().seed({
			profiles: [{ external_id: 'crm-a' }, { external_id: 'crm-b' }, { external_id: 'crm-c', phone: '+14155550300' }],
		});
		const [serviceA, serviceB] = [profiles[0].service_id, profiles[1].service_id];
		const event = { name: 'order_placed', time: '2026-11-22T09:10:00Z' };
		const purchase = { product_id: 'mug', currency: 'USD', price: 12.5, time: '2026-11-22T09:10:00Z' };
		const items = [
			{ by: 'phone', id: '+14155550100', purchases: [purchase] },
			{ by: 'service_id', id: serviceA, attributes: { plan: 'gold' } },
			{ by: 'service_id', id: serviceB, events: [event] },
			{ by: 'external_id', id: 'crm-d', attributes: { plan: 'silver' }, purchases: [purchase] },
			{ by: 'phone', id: '+14155550300', attributes: { plan: 'bronze' }, events: [event] },
		];

		const result = await run(
			USER_NODE,
			items,
			{
				operation: 'trackUserData',
				identifyBy: '={{ $json.by }}',
				externalId: '={{ $json.id }}',
				phone: '={{ $json.id }}',
				serviceId: '={{ $json.id }}',
				email: '={{ $json.id }}',
				aliasName: '={{ $json.id }}',
				aliasLabel: 'web',
				attributesInput: 'json',
				attributesJson: '={{ $json.attributes ?? {} }}',
				eventsJson: '={{ $json.events ?? [] }}',
				purchasesJson: '={{ $json.purchases ?? [] }}',
			},
			true,
		);

		const answers = byInputItem(result.output(USER), items.length);
		expect(answers[0]).toHaveLength(1);
		expect(String(answers[0][0].json.error)).toMatch(/purchase/i);
		expect(answers[1]).toHaveLength(1);
		expect(String(answers[1][0].json.error)).toMatch(/attribute/i);
		expect(answers[2].map((entry) => entry.json)).toEqual([
			{ ...items[2], [OUTPUT_FIELD]: { status: 'tracked', service_id: serviceB, events_tracked: 1 } },
		]);
		expect(answers[3].map((entry) => statusOf(entry.json))).toEqual(['tracked']);
		expect(answers[4].map((entry) => statusOf(entry.json))).toEqual(['tracked']);

		const sent = await trackObjects();
		const all = [...sent.attributes, ...sent.events, ...sent.purchases];
		expect(all.filter(identifiedBy('+14155550100'))).toEqual([]);
		expect(all.filter(identifiedBy(serviceA))).toEqual([]);
		expect(sent.events.filter(identifiedBy(serviceB))).toEqual([
			expect.objectContaining({ service_id: serviceB, name: 'order_placed' }),
		]);
		expect(sent.purchases.filter(identifiedBy('crm-d'))).toHaveLength(1);
		expect(sent.attributes.filter(identifiedBy('+14155550300'))).toHaveLength(1);
	});
});

describe('Finding 4: purchase and canvas schedule times go out in ISO 8601', () => {
	const INSTANT = Date.parse('2026-11-22T09:10:00Z');
	/** One time per item, chosen by $json.kind: text in either format, a JS Date, a Luxon DateTime. */
	const TIME_EXPRESSION =
		'={{ $json.kind === "date" ? new Date("2026-11-22T09:10:00Z") : $json.kind === "luxon" ? DateTime.fromISO("2026-11-22T10:10:00+01:00") : $json.when }}';
	const kinds = [
		{ kind: 'colon-millis', when: '2026-11-22T10:10:00:000+0100' },
		{ kind: 'iso', when: '2026-11-22T10:10:00+01:00' },
		{ kind: 'iso-utc', when: '2026-11-22T09:10:00.000Z' },
		{ kind: 'date' },
		{ kind: 'luxon' },
	];

	test('Track Purchase: every way of giving the time goes out as ISO 8601 of the same instant', async () => {
		const items = kinds.map((kind, i) => ({ ...kind, id: `crm-${i}` }));

		const result = await run(
			USER_NODE,
			items,
			{
				operation: 'trackPurchase',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				productId: '={{ $json.kind }}',
				currency: 'USD',
				price: 10,
				quantity: 1,
				time: TIME_EXPRESSION,
			},
			true,
		);

		expect(result.output(USER).map((entry) => [itemOf(entry), entry.json.error ?? statusOf(entry.json)])).toEqual(
			items.map((_, i) => [i, 'tracked']),
		);
		const purchases = (await client().requests({ path: '/users/track' })).flatMap(
			(request) => (request.body as { purchases?: IDataObject[] }).purchases ?? [],
		);
		expect(purchases).toHaveLength(items.length);
		const times = Object.fromEntries(
			purchases.map((purchase) => [purchase.product_id as string, purchase.time as string]),
		);
		for (const { kind } of kinds) {
			expect([kind, times[kind]]).toEqual([kind, expect.stringMatching(ISO_8601)]);
			expect([kind, Date.parse(times[kind])]).toEqual([kind, INSTANT]);
		}
	});

	test('Track Purchase: a Date and a Luxon DateTime held by the item go out as ISO 8601 of the same instant', async () => {
		const { DateTime } = await import('luxon');
		const items = [
			{ id: 'crm-date', when: new Date(INSTANT) },
			{ id: 'crm-luxon', when: DateTime.fromISO('2026-11-22T10:10:00+01:00', { setZone: true }) },
		] as unknown as IDataObject[];

		await run(
			USER_NODE,
			items,
			{
				operation: 'trackPurchase',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				productId: '={{ $json.id }}',
				currency: 'USD',
				price: 10,
				time: '={{ $json.when }}',
			},
			true,
		);

		const purchases = (await client().requests({ path: '/users/track' })).flatMap(
			(request) => (request.body as { purchases?: IDataObject[] }).purchases ?? [],
		);
		expect(purchases).toHaveLength(2);
		for (const purchase of purchases) {
			expect(purchase.time).toMatch(ISO_8601);
			expect(Date.parse(purchase.time as string)).toBe(INSTANT);
		}
	});

	test('Update Scheduled Canvas: schedule.time goes out as ISO 8601 of the same instant', async () => {
		await client().seed({
			canvases: [{ id: 'onboarding-canvas' }],
			canvasSchedules: kinds.map((_, i) => ({
				canvas_id: 'onboarding-canvas',
				schedule_id: `sched-${i}`,
				schedule: { time: '2026-12-01T09:00:00Z' },
			})),
		});
		const items = kinds.map((kind, i) => ({ ...kind, schedule: `sched-${i}` }));

		await run(
			MESSAGE_NODE,
			items,
			{
				operation: 'updateScheduledCanvas',
				canvasId: 'onboarding-canvas',
				scheduleId: '={{ $json.schedule }}',
				time: TIME_EXPRESSION,
			},
			true,
		);

		const requests = await client().requests({ path: '/canvas/trigger/schedule/update' });
		expect(requests).toHaveLength(kinds.length);
		for (const request of requests) {
			const body = request.body as { schedule_id: string; schedule: { time: string } };
			const { kind } = items.find((item) => item.schedule === body.schedule_id)!;
			expect([kind, body.schedule.time]).toEqual([kind, expect.stringMatching(ISO_8601)]);
			expect([kind, Date.parse(body.schedule.time)]).toEqual([kind, INSTANT]);
		}
	});
});

describe('Finding 5: Send Now naming users with a segment is paced at 250 requests per minute', () => {
	test('260 sends with a segment: at most 250 reach the platform, none is answered 429, the rest say they were rate limited', async () => {
		const COUNT = 260;
		await client().seed({
			profiles: Array.from({ length: 10 }, (_, i) => ({ external_id: `crm-${i}` })),
			segments: [{ id: 'vip', external_ids: ['crm-0', 'crm-1', 'crm-2'] }],
		});
		const items = Array.from({ length: COUNT }, (_, i) => ({ id: `crm-${i % 10}`, n: i }));

		const result = await run(
			MESSAGE_NODE,
			items,
			{
				operation: 'sendNow',
				sendTo: 'users',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				segmentId: 'vip',
				// A different message per item: every item is a request of its own.
				messages: '={{ { email: { app_id: "app", subject: "Order " + $json.n, body: "<p>Thanks!</p>" } } }}',
				options: { maxRateLimitWaitSeconds: 0 },
			},
			true,
		);

		const requests = await client().requests({ path: '/messages/send' });
		expect(requests.filter((request) => request.status === 429)).toHaveLength(0);
		expect(requests.length).toBeLessThanOrEqual(250);

		const answers = byInputItem(result.output(MESSAGE), COUNT);
		const sent = answers.filter((entries) => statusOf(entries[0]?.json) === 'sent');
		expect(sent.length).toBe(requests.filter(ok).length);
		expect(sent.length).toBeGreaterThan(0);
		for (const entries of answers) {
			expect(entries).toHaveLength(1);
			const { json } = entries[0];
			if (statusOf(json) === 'sent') continue;
			expect(json.error).toMatch(/rate limit/i);
			expect(json.error).toMatch(/nothing.*stored/i);
		}
	});
});

describe('Finding 6: ambiguous readings, taking the one no platform refuses', () => {
	test('a. Export: no request holds more than 50 external IDs and aliases together; every item gets its user', async () => {
		const COUNT = 80;
		const items = Array.from({ length: COUNT }, (_, i) =>
			i % 2 === 0 ? { by: 'external_id', id: `crm-${i}` } : { by: 'user_alias', alias: `visitor-${i}` },
		);
		await client().seed({
			profiles: items.map((item) =>
				item.id ? { external_id: item.id } : { user_aliases: [{ alias_name: item.alias!, alias_label: 'web' }] },
			),
		});

		const result = await run(
			USER_NODE,
			items,
			{
				operation: 'export',
				identifyBy: '={{ $json.by }}',
				externalId: '={{ $json.id }}',
				aliasName: '={{ $json.alias }}',
				aliasLabel: 'web',
				// Not read for these items; given because an expression in "Identify User By" shows every field.
				email: '={{ $json.id }}',
				phone: '={{ $json.id }}',
				deviceId: '={{ $json.id }}',
				serviceId: '={{ $json.id }}',
				fieldsToExport: ['first_name'],
			},
			true,
		);

		const requests = await client().requests({ path: '/users/export/ids' });
		const sizes = requests.map((request) => {
			const body = request.body as { external_ids?: unknown[]; user_aliases?: unknown[] };
			return (body.external_ids?.length ?? 0) + (body.user_aliases?.length ?? 0);
		});
		expect(sizes.filter((size) => size > 50)).toEqual([]);

		const answers = byInputItem(result.output(USER), COUNT);
		for (const [index, item] of items.entries()) {
			expect(answers[index]).toHaveLength(1);
			const { json } = answers[index][0];
			expect(json.error).toBeUndefined();
			if (item.id) expect(json.external_id).toBe(item.id);
			else expect(json.user_aliases).toEqual([{ alias_name: item.alias, alias_label: 'web' }]);
		}
	});

	test('b. Identify by email: the body holds aliases_to_identify: [] next to emails_to_identify', async () => {
		await client().seed({ profiles: [{ external_id: 'crm-9' }, { email: 'fan@example.com' }] });

		const result = await run(USER_NODE, [{ customer: 'crm-9', email: 'fan@example.com' }], {
			operation: 'identify',
			externalId: '={{ $json.customer }}',
			identifyBy: 'email',
			email: '={{ $json.email }}',
			mergeBehavior: 'merge',
		});

		const requests = await client().requests({ path: '/users/identify' });
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toMatchObject({
			aliases_to_identify: [],
			emails_to_identify: [expect.objectContaining({ external_id: 'crm-9', email: 'fan@example.com' })],
		});
		expect(result.output(USER).map((entry) => [itemOf(entry), statusOf(entry.json)])).toEqual([[0, 'identified']]);
	});

	describe('c. Get Campaign Translations', () => {
		const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
		const LOCALE = { fr: id(1), de: id(2) };
		const VARIATION = id(10);
		const WORKSPACE: SeedData = {
			multiLanguage: {
				locales: [
					{ id: LOCALE.fr, name: 'fr-FR', country: 'FR', language: 'fr' },
					{ id: LOCALE.de, name: 'de-DE', country: 'DE', language: 'de' },
				],
			},
			campaigns: [
				{
					id: 'welcome',
					messages: [
						{
							message_variation_id: VARIATION,
							channel: 'email',
							translations: { [LOCALE.fr]: { subject: 'Bienvenue' }, [LOCALE.de]: { subject: 'Willkommen' } },
						},
					],
				},
			],
		};
		const lookup = (localeName: string): INodeParameters => ({
			operation: 'getCampaignTranslations',
			campaignId: 'welcome',
			messageVariationId: VARIATION,
			localeName,
		});

		test('with Locale Name de-DE the output holds only the de-DE translation, and no request carries locale_id', async () => {
			await client().seed(WORKSPACE);

			const result = await run(TRANSLATION_NODE, [{}], lookup('de-DE'));

			expect(result.error).toBeUndefined();
			const output = result.output(TRANSLATION);
			expect(
				output.map((entry) => [
					entry.pairedItem,
					(entry.json.locale as IDataObject | undefined)?.name,
					entry.json.translation_map,
				]),
			).toEqual([[{ item: 0 }, 'de-DE', { subject: 'Willkommen' }]]);
			const requests = await client().requests();
			expect(requests.length).toBeGreaterThan(0);
			expect(requests.filter((request) => 'locale_id' in request.query)).toEqual([]);
		});

		test('each item keeps the translation of its own locale name', async () => {
			await client().seed(WORKSPACE);

			const result = await run(
				TRANSLATION_NODE,
				[{ locale: 'fr-FR' }, { locale: 'de-DE' }],
				lookup('={{ $json.locale }}'),
			);

			expect(
				result
					.output(TRANSLATION)
					.map((entry) => [itemOf(entry), (entry.json.locale as IDataObject | undefined)?.name]),
			).toEqual([
				[0, 'fr-FR'],
				[1, 'de-DE'],
			]);
			expect((await client().requests()).filter((request) => 'locale_id' in request.query)).toEqual([]);
		});
	});
});

describe('Finding 7: custom attributes named as a JavaScript object’s own keys', () => {
	test('constructor, toString and valueOf are custom attributes like any other: sent and stored', async () => {
		const attributes = { constructor: 'Ada', toString: 'gold', valueOf: 3 };
		const result = await run(USER_NODE, [{ id: 'crm-7', attributes }], {
			operation: 'updateAttributes',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
			attributesInput: 'json',
			attributesJson: '={{ $json.attributes }}',
		});

		expect(result.output(USER).map((entry) => statusOf(entry.json))).toEqual(['updated']);
		const [request] = (await client().requests()).filter((request) => request.path === '/users/track');
		expect(request.body).toEqual({ attributes: [{ external_id: 'crm-7', ...attributes }] });
	});

	test('given in the typed list, they are custom attributes like any other, not a name given twice', async () => {
		const result = await runNode(USER_NODE, {
			items: [{ id: 'crm-8' }],
			parameters: {
				operation: 'updateAttributes',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				attributesFields: {
					assignments: [
						{ id: '1', name: 'constructor', value: 'Ada', type: 'string' },
						{ id: '2', name: 'toString', value: 'gold', type: 'string' },
					],
				},
			},
			endpoint: sandbox().url,
			apiKey,
		});

		expect(result.error).toBeUndefined();
		const [request] = (await client().requests()).filter((request) => request.path === '/users/track');
		expect(request.body).toEqual({ attributes: [{ external_id: 'crm-8', constructor: 'Ada', toString: 'gold' }] });
	});

	// JSON.parse keeps "__proto__" an own key of a row; the node's schemas dropped it, so an event went without
	// that property (answered tracked) and an attribute of that name went unchecked. Servers' JSON readers drop
	// or refuse the key (some refuse the whole body), so the item fails naming it and the others go.
	const EVENTS = '[{"name": "viewed", "time": "2026-11-20T10:00:00Z", "properties": VALUES}]';
	const PLAIN = ['{"plan": "gold", "__proto__": "x"}', '{"plan": "silver"}'];
	test.each([
		[
			'an attribute',
			PLAIN,
			{ operation: 'updateAttributes', attributesInput: 'json', attributesJson: '={{ $json.values }}' },
		],
		[
			'an event property',
			PLAIN,
			{ operation: 'trackEvent', eventName: 'viewed', propertiesInput: 'json', propertiesJson: '={{ $json.values }}' },
		],
		[
			'an attribute of Track User Data',
			PLAIN,
			{ operation: 'trackUserData', attributesInput: 'json', attributesJson: '={{ $json.values }}' },
		],
		[
			'an event property of Track User Data',
			PLAIN.map((values) => EVENTS.replace('VALUES', values)),
			{ operation: 'trackUserData', eventsJson: '={{ $json.values }}' },
		],
		[
			'an event property of Track User Data, beside a structured one',
			['{"cart": {"items": 2}, "__proto__": "x"}', '{"cart": {"items": 2}}'].map((values) =>
				EVENTS.replace('VALUES', values),
			),
			{ operation: 'trackUserData', eventsJson: '={{ $json.values }}' },
		],
	])(
		'a key named __proto__ as %s fails its item naming it; the other items are sent',
		async (_case, values, operation) => {
			const rows = [
				JSON.parse(`{"id": "crm-9", "values": ${values[0]}}`) as IDataObject,
				JSON.parse(`{"id": "crm-10", "values": ${values[1]}}`) as IDataObject,
			];
			const result = await run(
				USER_NODE,
				rows,
				{ identifyBy: 'external_id', externalId: '={{ $json.id }}', ...operation },
				true,
			);

			const [refused, sent] = byInputItem(result.output(USER), 2);
			expect(refused.map((entry) => statusOf(entry.json))).toEqual(['failed']);
			expect(String(refused[0].json.error)).toMatch(/__proto__" is a name the request cannot carry/);
			expect(sent.map((entry) => statusOf(entry.json))).not.toContain('failed');
			const bodies = JSON.stringify((await client().requests()).map((request) => request.body));
			expect(bodies).not.toContain('crm-9');
			expect(bodies).toContain('crm-10');
		},
	);
});
