import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness';
import { USER, USER_NODE } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { useSandbox } from './sandboxLifecycle';

/**
 * Typed entries (event and purchase properties, custom attributes, standard attributes) from a sheet:
 * an entry typed Date is sent as an ISO 8601 instant with its offset, or its item is refused naming
 * the entry, the value and the forms taken; a blank cell typed Number, Boolean or Date is "not set",
 * left out of the request, so the value the profile holds stays. The workflow's timezone is
 * Europe/Berlin (+01:00 in December and March, +02:00 in July).
 */
const { sandbox, client, apiKey } = useSandbox();

async function run(parameters: INodeParameters, items: IDataObject[]) {
	const result = await runWorkflow({
		nodes: [{ name: USER, type: USER_NODE, parameters, continueOnFail: true }],
		connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
		items,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		settings: { executionOrder: 'v1', timezone: 'Europe/Berlin' },
	});
	return result.output(USER).map(({ json }) => json);
}

const trackEvent = (extra: INodeParameters = {}): INodeParameters => ({
	operation: 'trackEvent',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	eventName: 'order_placed',
	time: '2026-12-01T10:00:00Z',
	...extra,
});

/** Event properties typed as n8n types them: the delivery date a Date, the total a Number, the gift flag a Boolean. */
const typedProperties = trackEvent({
	propertiesFields: {
		assignments: [
			{ id: '1', name: 'delivery_by', value: '={{ $json.delivery_by }}', type: 'dateTime' },
			{ id: '2', name: 'total', value: '={{ $json.total }}', type: 'number' },
			{ id: '3', name: 'gift', value: '={{ $json.gift }}', type: 'boolean' },
		],
	},
});

const sentEvents = async () =>
	(await client().requests({ path: '/users/track' })).flatMap(
		(request) => (request.body as { events?: IDataObject[] }).events ?? [],
	);

describe('an event property typed Date', () => {
	test.each([
		['2026-12-03 12:00', '2026-12-03T12:00:00+01:00'],
		['2026-12-03T12:00:00Z', '2026-12-03T12:00:00Z'],
		['2026-12-03', '2026-12-03T00:00:00+01:00'],
		['2026-07-01 09:30:15.250', '2026-07-01T09:30:15.250+02:00'],
		['2026-12-03 12:00:00+05:30', '2026-12-03T12:00:00+05:30'],
		['2026-12-03T12:00:00+0530', '2026-12-03T12:00:00+05:30'],
		[' 2026-12-03T12:00 ', '2026-12-03T12:00:00+01:00'],
	])('%p is sent as the instant %p', async (written, sent) => {
		const [answer] = await run(typedProperties, [{ id: 'crm-1', delivery_by: written, total: '59.90', gift: 'false' }]);
		expect(statusOf(answer)).toBe('tracked');
		const [event] = await sentEvents();
		expect(event.properties).toEqual({ delivery_by: sent, total: 59.9, gift: false });
		const [stored] = (await client().state()).events;
		expect(stored.properties).toEqual({ delivery_by: sent, total: 59.9, gift: false });
	});

	test.each(['Dec 3, 2026', '03/05/2026', 'next Tuesday', '2026-13-03', '2026-02-30 10:00', '1733230000000'])(
		'%p is refused naming the entry, the value and the forms taken; the good item beside it is sent',
		async (written) => {
			const [refused, good] = await run(typedProperties, [
				{ id: 'crm-1', delivery_by: written, total: '59.90', gift: 'false' },
				{ id: 'crm-2', delivery_by: '2026-12-03', total: '10', gift: 'true' },
			]);
			expect(wordsOf(refused)).toMatchObject({
				status: 'failed',
				delivery: 'invalid',
				field: 'Event Properties.delivery_by',
			});
			expect(String(refused.error)).toContain(`"Event Properties.delivery_by" expects a date`);
			expect(String(refused.error)).toContain(`'${written}'`);
			expect(String(refused.error)).toContain('2026-12-03 12:00');
			expect(statusOf(good)).toBe('tracked');
			expect((await sentEvents()).map((event) => event.external_id)).toEqual(['crm-2']);
		},
	);

	test('a date from an expression (a Luxon DateTime, as {{ $now }} gives, and a Date) is sent as its ISO 8601 instant', async () => {
		const [answer] = await run(
			trackEvent({
				propertiesFields: {
					assignments: [
						{
							id: '1',
							name: 'checked_at',
							value: '={{ DateTime.fromISO("2026-12-03T12:00:00+01:00") }}',
							type: 'dateTime',
						},
						{ id: '2', name: 'shipped_at', value: '={{ new Date("2026-12-03T11:00:00Z") }}', type: 'dateTime' },
					],
				},
			}),
			[{ id: 'crm-1' }],
		);
		expect(statusOf(answer)).toBe('tracked');
		const [event] = await sentEvents();
		expect(event.properties).toEqual({
			checked_at: '2026-12-03T12:00:00.000+01:00',
			shipped_at: '2026-12-03T11:00:00.000Z',
		});
	});
});

describe('a blank cell typed Number, Boolean or Date is not set', () => {
	test('" " as Number, a tab as Boolean and " " as Date: the event goes out without those properties', async () => {
		const [answer] = await run(typedProperties, [{ id: 'crm-1', delivery_by: ' ', total: ' ', gift: '\t' }]);
		expect(statusOf(answer)).toBe('tracked');
		const [event] = await sentEvents();
		expect(event).not.toHaveProperty('properties');
	});

	test('a lifetime value " " leaves the stored 120.5 as it is; the plan beside it is set', async () => {
		await client().seed({
			profiles: [{ external_id: 'crm-1', custom_attributes: { lifetime_value: 120.5, vip: true, plan: 'silver' } }],
		});
		const [answer] = await run(
			{
				operation: 'updateAttributes',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				attributesFields: {
					assignments: [
						{ id: '1', name: 'lifetime_value', value: '={{ $json.lifetime_value }}', type: 'number' },
						{ id: '2', name: 'vip', value: '={{ $json.vip }}', type: 'boolean' },
						{ id: '3', name: 'last_order', value: '={{ $json.last_order }}', type: 'dateTime' },
						{ id: '4', name: 'plan', value: '={{ $json.plan }}', type: 'string' },
					],
				},
			},
			[{ id: 'crm-1', lifetime_value: ' ', vip: ' ', last_order: '  ', plan: 'gold' }],
		);
		expect(statusOf(answer)).toBe('updated');
		const [request] = await client().requests({ path: '/users/track' });
		expect((request.body as { attributes: IDataObject[] }).attributes).toEqual([
			{ external_id: 'crm-1', plan: 'gold' },
		]);
		const [profile] = (await client().state()).profiles;
		expect(profile.custom_attributes).toEqual({ lifetime_value: 120.5, vip: true, plan: 'gold' });
	});
});

describe('standard attributes mapped from a sheet', () => {
	const column = (id: string, displayName: string, type: string) => ({
		id,
		displayName,
		type,
		required: false,
		defaultMatch: false,
		display: true,
	});
	const standardAttributes = {
		operation: 'updateAttributes',
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
		standardAttributes: {
			mappingMode: 'defineBelow',
			value: {
				first_name: '={{ $json.first_name }}',
				email_open_tracking_disabled: '={{ $json.tracking_off }}',
				date_of_first_session: '={{ $json.first_session }}',
			},
			matchingColumns: [],
			schema: [
				column('first_name', 'First Name', 'string'),
				column('email_open_tracking_disabled', 'Email Open Tracking Disabled', 'boolean'),
				column('date_of_first_session', 'Date of First Session', 'string'),
			],
		},
	};

	test('a blank Boolean leaves the stored value; a first session "2026-03-05 14:30" is 14:30 in Berlin', async () => {
		await client().seed({
			profiles: [{ external_id: 'crm-1', standard_attributes: { email_open_tracking_disabled: true } }],
		});
		const [answer] = await run(standardAttributes, [
			{ id: 'crm-1', first_name: 'Lena', tracking_off: ' ', first_session: '2026-03-05 14:30' },
		]);
		expect(statusOf(answer)).toBe('updated');
		const [request] = await client().requests({ path: '/users/track' });
		expect((request.body as { attributes: IDataObject[] }).attributes).toEqual([
			{ external_id: 'crm-1', first_name: 'Lena', date_of_first_session: '2026-03-05T14:30:00+01:00' },
		]);
		const [profile] = (await client().state()).profiles;
		expect(profile.standard_attributes).toMatchObject({ email_open_tracking_disabled: true, first_name: 'Lena' });
	});

	test('a first session "Dec 3, 2026" is refused naming the attribute, the value and the forms taken', async () => {
		const [answer] = await run(standardAttributes, [
			{ id: 'crm-1', first_name: 'Lena', tracking_off: 'false', first_session: 'Dec 3, 2026' },
		]);
		expect(wordsOf(answer)).toMatchObject({ status: 'failed', delivery: 'invalid' });
		expect(String(answer.error)).toContain('"Standard Attributes.Date of First Session" expects a date');
		expect(String(answer.error)).toContain("'Dec 3, 2026'");
		expect(await client().requests({ path: '/users/track' })).toEqual([]);
	});

	test('"Map Automatically" reads the same way: a blank Boolean is not set, a spaced date and time is an instant', async () => {
		await run(
			{
				operation: 'updateAttributes',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				standardAttributes: { mappingMode: 'autoMapInputData', value: null },
			},
			[
				{
					id: 'crm-1',
					first_name: 'Lena',
					email_open_tracking_disabled: ' ',
					date_of_last_session: '2026-07-01 08:00',
				},
			],
		);
		const [request] = await client().requests({ path: '/users/track' });
		expect((request.body as { attributes: IDataObject[] }).attributes).toEqual([
			{ external_id: 'crm-1', first_name: 'Lena', date_of_last_session: '2026-07-01T08:00:00+02:00' },
		]);
	});
});

describe("Track Event's Time reads a date and time as the typed entries do", () => {
	test.each([
		['2026-03-05 14:30', '2026-03-05T14:30:00+01:00'],
		['2026-03-05 14:30:00Z', '2026-03-05T14:30:00Z'],
		['2026-03-05', '2026-03-05T00:00:00+01:00'],
	])('%p is sent as %p', async (written, sent) => {
		const [answer] = await run(trackEvent({ time: '={{ $json.when }}' }), [{ id: 'crm-1', when: written }]);
		expect(statusOf(answer)).toBe('tracked');
		expect((await sentEvents())[0].time).toBe(sent);
	});

	test('"Dec 3, 2026" is refused naming Time and the value', async () => {
		const [answer] = await run(trackEvent({ time: '={{ $json.when }}' }), [{ id: 'crm-1', when: 'Dec 3, 2026' }]);
		expect(wordsOf(answer)).toMatchObject({ status: 'failed', delivery: 'invalid', field: 'Time' });
		expect(await sentEvents()).toEqual([]);
	});
});
