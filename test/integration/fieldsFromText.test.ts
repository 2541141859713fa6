import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';

import { packageNodeTypes, runWorkflow } from '../harness';
import { MESSAGE, MESSAGE_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { DELIVERY_SENTENCE, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

/**
 * A marketer's data arrives as text (a CSV, a sheet, a shop): a text that is exactly a number, a
 * boolean or a time means that value, and a time without a zone is in the workflow's timezone, as
 * n8n's own date fields read it.
 */
const { sandbox, client, apiKey } = useSandbox();

async function run(
	type: string,
	name: string,
	parameters: INodeParameters,
	items: IDataObject[],
	{ timezone = 'Europe/Berlin' }: { timezone?: string } = {},
) {
	const result = await runNode(type, {
		items,
		parameters,
		timezone,
		continueOnFail: true,
		endpoint: sandbox().url,
		apiKey,
	});
	return result.output(name).map(({ json }) => json);
}

const purchaseFromOrder: INodeParameters = {
	operation: 'trackPurchase',
	identifyBy: 'external_id',
	externalId: '={{ $json.customer }}',
	productId: '={{ $json.sku }}',
	currency: '={{ $json.currency }}',
	price: '={{ $json.price }}',
	quantity: '={{ $json.quantity }}',
	time: '={{ $json.ordered_at }}',
};

/** A row as a CSV or Sheets node gives it: every value text. */
const csvRow = (overrides: IDataObject = {}): IDataObject => ({
	customer: 'crm-1',
	sku: 'sku-7',
	currency: 'eur',
	price: '59.90',
	quantity: ' 3 ',
	ordered_at: '2026-12-01T10:00:00',
	...overrides,
});

const sentPurchases = async () =>
	(await client().requests({ path: '/users/track' })).flatMap(
		(request) => (request.body as { purchases?: IDataObject[] }).purchases ?? [],
	);

describe('an order row from a CSV becomes a purchase with the values it means', () => {
	test('"59.90", " 3 " and a zoneless time in Europe/Berlin go out as 59.9, 3 and 10:00 at +01:00 (+02:00 in summer)', async () => {
		const answers = await run(USER_NODE, USER, purchaseFromOrder, [
			csvRow(),
			csvRow({ customer: 'crm-2', price: '1e3', ordered_at: '2026-07-01T10:00' }),
		]);
		expect(answers.map((answer) => statusOf(answer))).toEqual(['tracked', 'tracked']);
		const sent = await sentPurchases();
		expect(sent).toEqual([
			expect.objectContaining({ price: 59.9, quantity: 3, currency: 'EUR', time: '2026-12-01T10:00:00+01:00' }),
			expect.objectContaining({ price: 1000, quantity: 3, currency: 'EUR', time: '2026-07-01T10:00:00+02:00' }),
		]);
	});

	test("on n8n's default timezone (America/New_York) the same row is 10:00 there, five hours after UTC's", async () => {
		await run(USER_NODE, USER, purchaseFromOrder, [csvRow()], { timezone: 'America/New_York' });
		expect((await sentPurchases())[0].time).toBe('2026-12-01T10:00:00-05:00');
	});

	test('a time with a zone keeps its instant', async () => {
		await run(USER_NODE, USER, purchaseFromOrder, [csvRow({ ordered_at: '2026-12-01T10:00:00Z' })]);
		expect((await sentPurchases())[0].time).toBe('2026-12-01T10:00:00Z');
	});

	test.each([
		['abc', "Price\" expects a number but got 'abc'"],
		['59,90', "Price\" expects a number but got '59,90'"],
	])('a price of %p is refused naming the value', async (price, words) => {
		const [answer] = await run(USER_NODE, USER, purchaseFromOrder, [csvRow({ price })]);
		expect(wordsOf(answer)).toMatchObject({ status: 'failed', delivery: 'invalid', field: 'Price' });
		expect(String(answer.error)).toContain(words);
		expect(await sentPurchases()).toEqual([]);
	});

	test('Price and Currency start empty: left unmapped, n8n refuses to start the workflow', async () => {
		const { currency: _currency, price: _price, ...unmapped } = purchaseFromOrder;
		await expect(run(USER_NODE, USER, unmapped, [csvRow()])).rejects.toThrow(/has issues/);
		expect(await sentPurchases()).toEqual([]);
	});

	test('a price mapped from an empty cell is a missing price, not 0', async () => {
		const [answer] = await run(USER_NODE, USER, purchaseFromOrder, [csvRow({ price: '' })]);
		expect(wordsOf(answer)).toMatchObject({ status: 'failed', delivery: 'invalid', field: 'Price' });
		expect(String(answer.error)).toContain('is required');
	});
});

describe('other fields a sheet fills', () => {
	test('Send to Existing Users Only "false" from a sheet is off: the unknown user is created with their attributes', async () => {
		await client().seed({ campaigns: [{ id: 'welcome' }] });
		const [answer] = await run(
			MESSAGE_NODE,
			MESSAGE,
			{
				operation: 'triggerCampaign',
				campaignId: 'welcome',
				sendTo: 'recipients',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				sendToExistingOnly: '={{ $json.existing_only }}',
				recipientAttributesInput: 'json',
				recipientAttributesJson: '={{ { first_name: $json.name } }}',
			},
			[{ id: 'new-1', existing_only: 'false', name: 'Lena' }],
		);
		expect(statusOf(answer)).toBe('sent');
		const [request] = await client().requests({ path: '/campaigns/trigger/send' });
		expect(request.body).toMatchObject({ recipients: [{ external_user_id: 'new-1', send_to_existing_only: false }] });
	});

	test("a canvas schedule without a zone is in the workflow timezone; with In Local Time it is each user's, sent as written", async () => {
		await client().seed({
			canvases: [{ id: 'onboarding' }],
			canvasSchedules: ['s-1', 's-2'].map((id) => ({
				canvas_id: 'onboarding',
				schedule_id: id,
				schedule: { time: '2026-12-01T09:00:00Z' },
			})),
		});
		await run(
			MESSAGE_NODE,
			MESSAGE,
			{
				operation: 'updateScheduledCanvas',
				canvasId: 'onboarding',
				scheduleId: '={{ $json.id }}',
				time: '2026-12-24T18:00:00',
				inLocalTime: '={{ $json.local }}',
			},
			[
				{ id: 's-1', local: 'FALSE' },
				{ id: 's-2', local: 'true' },
			],
		);
		const schedules = (await client().requests({ path: '/canvas/trigger/schedule/update' })).map(
			(request) => (request.body as { schedule: IDataObject }).schedule,
		);
		expect(schedules).toEqual([
			{ time: '2026-12-24T18:00:00+01:00', in_local_time: false },
			{ time: '2026-12-24T18:00:00', in_local_time: true },
		]);
	});
});

describe('Time starts empty, so a dragged field is not appended to an expression', () => {
	test('Time starts empty, and an empty Time is the time the workflow runs', async () => {
		const node = packageNodeTypes()[USER_NODE] as INodeType;
		const times = node.description.properties.filter(
			(property) => property.name === 'time' && property.displayOptions?.show?.operation?.includes('trackEvent'),
		);
		expect(times.map((property) => property.default)).toEqual(['']);
		const before = Date.now();
		const answers = await run(
			USER_NODE,
			USER,
			{
				operation: 'trackEvent',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				eventName: 'signed_up',
				time: '',
			},
			[{ id: 'crm-1' }, { id: 'crm-2' }],
		);
		expect(answers.map((answer) => statusOf(answer))).toEqual(['tracked', 'tracked']);
		const [request] = await client().requests({ path: '/users/track' });
		const sent = (request.body as { events: IDataObject[] }).events.map((event) => String(event.time));
		// One time for the whole run, as {{ $now }} is, in ISO 8601.
		expect(new Set(sent).size).toBe(1);
		expect(Date.parse(sent[0])).toBeGreaterThanOrEqual(before - 1000);
		expect(Date.parse(sent[0])).toBeLessThanOrEqual(Date.now() + 1000);
	});

	test('Send Time of a canvas schedule stays required: empty is refused, not now', async () => {
		await client().seed({
			canvases: [{ id: 'onboarding' }],
			canvasSchedules: [{ canvas_id: 'onboarding', schedule_id: 's-1', schedule: { time: '2026-12-01T09:00:00Z' } }],
		});
		const [answer] = await run(
			MESSAGE_NODE,
			MESSAGE,
			{ operation: 'updateScheduledCanvas', canvasId: 'onboarding', scheduleId: 's-1', time: '={{ $json.when }}' },
			[{ when: '' }],
		);
		expect(wordsOf(answer).delivery).toBe('invalid');
		expect(await client().requests({ path: '/canvas/trigger/schedule/update' })).toEqual([]);
	});
});

describe('options inside a collection read text as their fields do', () => {
	test('Update Existing Only "TRUE" and "false" from a sheet are true and false on the event, the purchase and the attributes', async () => {
		// crm-1 exists, so "TRUE" is taken as "false" is; the wire shows which flag each carried.
		await client().seed({ profiles: [{ external_id: 'crm-1' }] });
		const updateExistingOnly = { additionalFields: { _update_existing_only: '={{ $json.existing_only }}' } };
		const rows = [
			{ id: 'crm-1', existing_only: 'TRUE' },
			{ id: 'crm-2', existing_only: 'false' },
		];
		const event = await run(
			USER_NODE,
			USER,
			{
				operation: 'trackEvent',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				eventName: 'signed_up',
				time: '2026-12-01T10:00:00Z',
				...updateExistingOnly,
			},
			rows,
		);
		const purchase = await run(
			USER_NODE,
			USER,
			{ ...purchaseFromOrder, ...updateExistingOnly },
			rows.map((row) => csvRow({ customer: row.id, existing_only: row.existing_only })),
		);
		const attributes = await run(
			USER_NODE,
			USER,
			{
				operation: 'updateAttributes',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				attributesInput: 'json',
				attributesJson: '={{ { plan: "gold" } }}',
				...updateExistingOnly,
			},
			rows,
		);
		expect([...event, ...purchase, ...attributes].map((answer) => statusOf(answer))).toEqual([
			...Array(4).fill('tracked'),
			...Array(2).fill('updated'),
		]);
		const flags = (await client().requests({ path: '/users/track' })).flatMap((request) => {
			const body = request.body as Record<string, IDataObject[] | undefined>;
			return [...(body.events ?? []), ...(body.purchases ?? []), ...(body.attributes ?? [])].map(
				(object) => object._update_existing_only,
			);
		});
		expect(flags).toEqual([true, false, true, false, true, false]);
	});

	test('a text that is no boolean fails its item naming the option and the value', async () => {
		const [answer] = await run(
			USER_NODE,
			USER,
			{
				operation: 'trackEvent',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				eventName: 'signed_up',
				time: '2026-12-01T10:00:00Z',
				additionalFields: { _update_existing_only: '={{ $json.existing_only }}' },
			},
			[{ id: 'crm-1', existing_only: 'maybe' }],
		);
		expect(wordsOf(answer)).toMatchObject({
			status: 'failed',
			delivery: 'invalid',
			error: expect.stringContaining("Update Existing Only\" expects true or false but got 'maybe'"),
		});
		expect(await client().requests({ path: '/users/track' })).toEqual([]);
	});
});

describe('the error branch carries the input and every problem of the item', () => {
	const runToErrorBranch = async (items: IDataObject[]) => {
		const result = await runWorkflow({
			nodes: [{ name: USER, type: USER_NODE, parameters: purchaseFromOrder, onError: 'continueErrorOutput' }],
			connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
			items,
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
			settings: { executionOrder: 'v1', timezone: 'Europe/Berlin' },
		});
		return { success: result.output(USER, 0), errors: result.output(USER, 1) };
	};

	test("an order with a bad price and a bad currency: one error item, paired, with the order's fields and both problems, each once", async () => {
		const { success, errors } = await runToErrorBranch([
			csvRow({ order_id: 'A-1001', price: 'abc', currency: 'euro' }),
			csvRow({ order_id: 'A-1002', customer: 'crm-2' }),
		]);
		expect(success.map(({ json }) => statusOf(json))).toEqual(['tracked']);
		expect(errors).toHaveLength(1);
		const [{ json, pairedItem }] = errors;
		expect(pairedItem).toEqual({ item: 0 });
		expect(json).toMatchObject({ order_id: 'A-1001', customer: 'crm-1', price: 'abc' });
		expect(String(json.error)).toContain('"Price" expects a number but got \'abc\'');
		expect(String(json.error)).toContain(
			`"Currency" must be a three-letter ISO 4217 code such as USD, not 'euro' (did you mean EUR?)`,
		);
		expect(String(json.error).match(/item 0\b/g)).toHaveLength(1);
		expect(String(json.message)).toMatch(DELIVERY_SENTENCE.invalid);
		// What the node adds to the input is error and message alone: the shape n8n 1.x routes too.
		expect(Object.keys(json).filter((key) => !(key in csvRow({ order_id: '' })))).toEqual(['error', 'message']);
	});

	test('an order with no customer ID and a bad price: both problems on its one error item, the identifier first', async () => {
		const { errors } = await runToErrorBranch([csvRow({ order_id: 'A-1001', customer: '', price: 'abc' })]);
		expect(errors).toHaveLength(1);
		const error = String(errors[0].json.error);
		expect(error).toContain('"External ID" is required and was empty');
		expect(error).toContain('"Price" expects a number but got \'abc\'');
		expect(error.indexOf('External ID')).toBeLessThan(error.indexOf('Price'));
		expect(await client().requests({ path: '/users/track' })).toEqual([]);
	});
});

describe('attributes and properties typed as n8n types them', () => {
	const sheetRow = {
		id: 'crm-1',
		first_name: 'Lena',
		country: 'DE',
		email_open_tracking_disabled: 'true',
		dob: '1990-04-21',
		lifetime_value: '120.5',
		vip: 'true',
		tags: '["a", "b"]',
	};
	const updateAttributes = { operation: 'updateAttributes', identifyBy: 'external_id', externalId: '={{ $json.id }}' };
	const sentAttributes = async () =>
		(await client().requests({ path: '/users/track' })).flatMap(
			(request) => (request.body as { attributes?: IDataObject[] }).attributes ?? [],
		);
	const customAttributes = {
		assignments: [
			{ id: '1', name: 'lifetime_value', value: '={{ $json.lifetime_value }}', type: 'number' },
			{ id: '2', name: 'vip', value: '={{ $json.vip }}', type: 'boolean' },
			{ id: '3', name: 'tags', value: '={{ $json.tags }}', type: 'array' },
			{ id: '4', name: 'plan', value: 'gold', type: 'string' },
			{ id: '5', name: 'fixed_score', value: 120.5, type: 'number' },
			{ id: '6', name: 'postcode', value: '={{ 10115 }}', type: 'string' },
		],
	};

	test('a sheet row: standard attributes mapped by name and typed (a "true" is true), custom ones by the type picked', async () => {
		const [answer] = await run(
			USER_NODE,
			USER,
			{
				...updateAttributes,
				standardAttributes: {
					mappingMode: 'defineBelow',
					value: {
						first_name: '={{ $json.first_name }}',
						country: '={{ $json.country }}',
						dob: '={{ $json.dob }}',
						email_open_tracking_disabled: '={{ $json.email_open_tracking_disabled }}',
					},
					matchingColumns: [],
					schema: [
						{
							id: 'first_name',
							displayName: 'First Name',
							type: 'string',
							required: false,
							defaultMatch: false,
							display: true,
						},
						{
							id: 'country',
							displayName: 'Country',
							type: 'string',
							required: false,
							defaultMatch: false,
							display: true,
						},
						{
							id: 'dob',
							displayName: 'Date of Birth',
							type: 'string',
							required: false,
							defaultMatch: false,
							display: true,
						},
						{
							id: 'email_open_tracking_disabled',
							displayName: 'Email Open Tracking Disabled',
							type: 'boolean',
							required: false,
							defaultMatch: false,
							display: true,
						},
					],
				},
				attributesFields: customAttributes,
			},
			[sheetRow],
		);
		expect(statusOf(answer)).toBe('updated');
		expect(await sentAttributes()).toEqual([
			{
				external_id: 'crm-1',
				first_name: 'Lena',
				country: 'DE',
				dob: '1990-04-21',
				email_open_tracking_disabled: true,
				lifetime_value: 120.5,
				vip: true,
				tags: ['a', 'b'],
				plan: 'gold',
				fixed_score: 120.5,
				postcode: '10115',
			},
		]);
	});

	test('"Map Automatically": the input fields named as standard attributes are taken, the others are not', async () => {
		await run(
			USER_NODE,
			USER,
			{
				...updateAttributes,
				standardAttributes: { mappingMode: 'autoMapInputData', value: null },
			},
			[sheetRow],
		);
		expect(await sentAttributes()).toEqual([
			expect.objectContaining({ external_id: 'crm-1', first_name: 'Lena', country: 'DE', dob: '1990-04-21' }),
		]);
		expect((await sentAttributes())[0]).not.toHaveProperty('vip');
	});

	test('a custom attribute whose value does not fit its type fails the item, naming the entry, the value and the type', async () => {
		const [answer] = await run(
			USER_NODE,
			USER,
			{
				...updateAttributes,
				attributesFields: customAttributes,
			},
			[{ ...sheetRow, lifetime_value: 'lots', vip: 'maybe' }],
		);
		expect(wordsOf(answer)).toMatchObject({ status: 'failed', delivery: 'invalid' });
		expect(String(answer.error)).toContain('"Custom Attributes.lifetime_value" expects a number but got \'lots\'');
		expect(String(answer.error)).toContain('"Custom Attributes.vip" expects a boolean but got \'maybe\'');
		expect(await sentAttributes()).toEqual([]);
	});

	test('event properties from an order, typed: the total a number, the gift flag a boolean, the date in the workflow timezone', async () => {
		const [answer] = await run(
			USER_NODE,
			USER,
			{
				operation: 'trackEvent',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				eventName: 'order_placed',
				time: '2026-12-01T10:00:00Z',
				propertiesFields: {
					assignments: [
						{ id: '1', name: 'total', value: '={{ $json.total }}', type: 'number' },
						{ id: '2', name: 'gift', value: '={{ $json.gift }}', type: 'boolean' },
						{ id: '3', name: 'delivery_by', value: '={{ $json.delivery_by }}', type: 'dateTime' },
					],
				},
			},
			[{ id: 'crm-1', total: '59.90', gift: 'false', delivery_by: '2026-12-03T12:00:00' }],
		);
		expect(statusOf(answer)).toBe('tracked');
		const [request] = await client().requests({ path: '/users/track' });
		expect((request.body as { events: IDataObject[] }).events[0].properties).toEqual({
			total: 59.9,
			gift: false,
			delivery_by: '2026-12-03T12:00:00+01:00',
		});
	});
});
