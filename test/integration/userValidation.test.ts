import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { USER } from '../support/nodeTypes';
import { OUTPUT_FIELD, rowNamed, statusOf, wordsOf } from '../support/nodeWords';
import { runUserNode, trackEventParameters } from '../support/userRuns';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

const event = (overrides: IDataObject = {}): IDataObject => ({
	userId: 'u-1',
	event: 'signed_up',
	time: '2026-11-01T10:00:00Z',
	properties: { plan: 'gold' },
	...overrides,
});

const purchase: INodeParameters = {
	operation: 'trackPurchase',
	identifyBy: 'external_id',
	externalId: '={{ $json.userId }}',
	productId: 'sku-1',
	currency: 'EUR',
	price: '={{ $json.price ?? 10 }}',
	quantity: '={{ $json.quantity ?? 1 }}',
	time: '2026-11-01T10:00:00Z',
};

const attributes: INodeParameters = {
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.userId }}',
	attributesInput: 'json',
	attributesJson: '={{ $json.attributes }}',
};

const attributesByPhone: INodeParameters = { ...attributes, identifyBy: 'phone', phone: '={{ $json.phone }}' };

const userData: INodeParameters = {
	operation: 'trackUserData',
	identifyBy: 'external_id',
	externalId: '={{ $json.userId }}',
	eventsJson: '={{ $json.events }}',
};

/** [story, parameters, a valid item, the invalid item, the field named, words of the rule] */
const cases: Array<[string, INodeParameters, IDataObject, IDataObject, string, string]> = [
	['an event without a name', trackEventParameters(), event(), event({ event: '' }), 'Event Name', 'is required'],
	[
		'an impossible date',
		trackEventParameters(),
		event(),
		event({ time: '2026-13-01T00:00:00Z' }),
		'Time',
		// The error names the value and the forms a Time takes.
		"expects a date (2026-12-03) or a date and time (2026-12-03 12:00, 2026-12-03T12:00:00Z) but got '2026-13-01T00:00:00Z'",
	],
	[
		'a 300-character property',
		trackEventParameters(),
		event(),
		event({ properties: { note: 'x'.repeat(300) } }),
		'Event Properties.note',
		'at most 255',
	],
	[
		'a datetime inside an array',
		trackEventParameters(),
		event(),
		event({ properties: { dates: ['2026-11-01T10:00:00Z'] } }),
		'Event Properties.dates',
		'array holding a datetime',
	],
	[
		'properties over 100 KB',
		trackEventParameters(),
		event(),
		event({ properties: { list: Array(30_000).fill('abcd') } }),
		'Event Properties',
		'100 KB',
	],
	[
		'properties that are not JSON',
		trackEventParameters(),
		event(),
		event({ properties: '{plan: gold' }),
		'Event Properties',
		'not valid JSON',
	],
	['a quantity of zero', purchase, { userId: 'u-1' }, { userId: 'u-2', quantity: 0 }, 'Quantity', 'must be at least 1'],
	['a price that is text', purchase, { userId: 'u-1' }, { userId: 'u-2', price: 'ten' }, 'Price', 'expects a number'],
	[
		'an attribute that is an object',
		attributes,
		{ userId: 'u-1', attributes: { plan: 'gold' } },
		{ userId: 'u-2', attributes: { address: { city: 'Oslo' } } },
		'Attributes.address',
		'is an object',
	],
	[
		'nothing to update',
		attributes,
		{ userId: 'u-1', attributes: { plan: 'gold' } },
		{ userId: 'u-2', attributes: {} },
		'Attributes',
		'nothing to update',
	],
	[
		'a phone not in E.164',
		attributesByPhone,
		{ phone: '+14155552671', attributes: { plan: 'gold' } },
		{ phone: '0171 555 u-2', attributes: { plan: 'gold' } },
		'Phone',
		'E.164',
	],
	[
		'the second event of an order without a time',
		userData,
		{ userId: 'u-1', events: [{ name: 'a', time: '2026-11-01T10:00:00Z' }] },
		{ userId: 'u-2', events: [{ name: 'a', time: '2026-11-01T10:00:00Z' }, { name: 'b' }] },
		'Events[1].time',
		'is required',
	],
];

describe('User node: every item is checked against the spec before anything is sent', () => {
	test.each(cases)(
		'%s is refused on its own item, naming the field',
		async (_, parameters, valid, invalid, field, rule) => {
			const result = await runUserNode({
				items: [valid, invalid],
				parameters,
				endpoint: sandbox().url,
				apiKey,
				continueOnFail: true,
			});

			expect(result.error).toBeUndefined();
			const [first, second] = result.output(USER);
			// Attributes alone are "updated", an event or a purchase "tracked".
			expect(statusOf(first.json)).toBe(parameters.operation === 'updateAttributes' ? 'updated' : 'tracked');
			expect(wordsOf(second.json)).toMatchObject({ status: 'failed', field, delivery: 'invalid' });
			expect(String(second.json.error)).toMatch(rowNamed(1));
			expect(String(second.json.error)).toContain(`): "${field}"`);
			expect(String(second.json.error)).toContain(rule);
			expect(wordsOf(second.json).description).toEqual(expect.any(String));
			expect(second.pairedItem).toEqual({ item: 1 });
			const requests = await client().requests({ path: '/users/track' });
			expect(requests).toHaveLength(1);
			expect(JSON.stringify(requests[0].body)).not.toContain('u-2');
		},
	);

	test('an Identify User By that names no identifier (a mapped value) says so, on its item', async () => {
		const result = await runUserNode({
			items: [
				{ userId: 'u-1', by: 'external_id' },
				{ userId: 'u-2', by: 'crm_id' },
			],
			parameters: { ...purchase, identifyBy: '={{ $json.by }}', aliasName: 'n/a', aliasLabel: 'n/a', email: 'n/a' },
			endpoint: sandbox().url,
			apiKey,
			continueOnFail: true,
		});

		const [first, second] = result.output(USER);
		expect(statusOf(first.json)).toBe('tracked');
		expect(second.json).toMatchObject({
			userId: 'u-2',
			by: 'crm_id',
			error: `Row 2 (item 1, userId 'u-2'): "Identify User By" "crm_id" is not a way to identify a user`,
			[OUTPUT_FIELD]: { status: 'failed', field: 'Identify User By', delivery: 'invalid' },
		});
	});
});
