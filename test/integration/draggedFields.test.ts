import fc from 'fast-check';
import type { IDataObject, IExecuteFunctions, INode, INodeParameters } from 'n8n-workflow';
import { Expression } from 'n8n-workflow';

import { readItems } from '../../nodes/EngagementPlatform/shared/engine/read/readItems';
import { description, operation } from '../../nodes/EngagementPlatform/User/operations/trackEvent';
import { runWorkflow } from '../harness';
import type { Layout } from '../support/draggedLayout';
import { AS_DRAGGED, laidOut, layout } from '../support/draggedLayout';
import { MESSAGE_NODE, USER, USER_NODE, nodeName } from '../support/nodeTypes';
import { rowOf, statusOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

/**
 * An input's parameter that is a constant or a dragged field of the item is read without n8n's
 * expression engine (fields/parameterSource.ts); one given by any other expression is the engine's.
 * For generated runs, the same parameters written as field references and written so that only n8n's
 * engine resolves them (`{{ ($json.a) }}`) must give the platform the same
 * requests and every item the same answer or error. Each case runs the node twice. A field's braces are
 * laid out with spaces, tabs and line breaks inside them (still a dragged field) and now and then before
 * or after them (`{{ $json.a }} `: text for n8n's engine, the same in both runs).
 */
const RUNS = Number(process.env.DRAGGED_FIELDS_RUNS ?? 300);

/** Mostly values the platform takes, so that whole items are tracked; now and then an odd one. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, odd: fc.Arbitrary<U>) =>
	fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: odd, weight: 1 });

const text = mostly(
	fc.constantFrom('order_placed', ' padded ', 'sku-1', '$price'),
	fc.constantFrom('', ' ', 'x'.repeat(256), '😀'.repeat(200), 7, null, { a: 1 }),
);
const userId = mostly(
	fc.constantFrom('customer-1', ' customer-2 ', 42, 'name@example.com'),
	fc.constantFrom('undefined', 'NULL', '', ' ', true, null, undefined, { id: 1 }, '+1 (415) 555-2671'),
);
const time = mostly(
	fc.constantFrom('2026-11-01T12:00:00Z', ' 2026-11-01T12:00:00Z ', '2026-12-01T10:00:00', '2026-07-01T10:00'),
	fc.constantFrom(
		'2026-11-22T10:15:00:000+0100',
		'2026-11-22T10:15:00+01:00',
		'2026-02-30T10:00:00Z',
		'yesterday',
		'',
		null,
		1_700_000_000_000,
	),
);
const scalar = mostly(fc.constantFrom('gold', 0, 19.9, -1, true, false), fc.constantFrom('', 'x'.repeat(256), null));
const properties = mostly(
	fc.dictionary(fc.constantFrom('order_id', 'total', 'note'), scalar, { maxKeys: 3 }),
	fc.constantFrom(
		{},
		{ $bad: 1 },
		{ nested: { a: [1, 2] } },
		{ at: ['2026-11-01T12:00:00Z'] },
		[1, 2],
		'{"plan":"gold"}',
		'not json',
		7,
	),
);
const price = mostly(fc.constantFrom(59.9, '59.90', ' 3 ', '1e3', 0), fc.constantFrom('abc', '', null, '12,50', true));
const currency = mostly(fc.constantFrom('EUR', 'eur', ' usd '), fc.constantFrom('EURO', '', 12, null));
const quantity = mostly(fc.constantFrom(1, 2, '3', ' 4 '), fc.constantFrom(0, 101, 2.5, 'two', '', null));

const item = fc.record(
	{ user: userId, name: text, time, props: properties, product: text, price, currency, quantity, app: text },
	{ requiredKeys: ['user', 'name', 'time', 'product', 'price', 'currency'] },
);

/**
 * A parameter's value in the dragged run: mapped to the item's field, its braces laid out, or one constant
 * for every item (never empty or missing: n8n refuses to run a workflow whose required field is empty,
 * before the node reads it).
 */
const parameter = (field: string, constant: fc.Arbitrary<unknown>) =>
	fc.oneof(
		layout.map((laid) => ({ field, layout: laid })),
		constant
			.filter((value) => value !== '' && value !== undefined && value !== null)
			.map((value) => ({ constant: typeof value === 'object' ? JSON.stringify(value) : value })),
	);

const runCase = fc.record({
	operation: fc.constantFrom('trackEvent', 'trackPurchase'),
	identifyBy: fc.constantFrom('external_id', 'external_id', 'email', 'phone'),
	user: parameter('user', userId),
	name: parameter('name', text),
	time: parameter('time', fc.constantFrom('2026-11-01T12:00:00Z', '2026-12-01T10:00:00', ' ')),
	props: fc.oneof(parameter('props', properties), fc.constant(undefined)),
	product: parameter('product', text),
	price: parameter('price', price),
	currency: parameter('currency', currency),
	quantity: fc.oneof(parameter('quantity', quantity), fc.constant(undefined)),
	appId: fc.constantFrom(undefined, 'app-1', ''),
	items: fc.array(item, { minLength: 1, maxLength: 5 }),
});
type RunCase = typeof runCase extends fc.Arbitrary<infer T> ? T : never;
type Parameter = { field: string; layout: Layout } | { constant: unknown };

/** The node's parameters, each mapped field written by `reference`; the engine-only run writes constants as expressions too. */
function parametersOf(run: RunCase, reference: (field: string) => string, engineOnly: boolean): INodeParameters {
	const value = (given: Parameter | undefined): IDataObject[string] => {
		if (given === undefined) return undefined;
		if ('field' in given) return laidOut(reference(given.field), given.layout);
		return engineOnly ? `={{ ${asLiteral(given.constant)} }}` : (given.constant as IDataObject[string]);
	};
	const identifierParameter = { external_id: 'externalId', email: 'email', phone: 'phone' }[run.identifyBy]!;
	const parameters: IDataObject = {
		operation: run.operation,
		identifyBy: run.identifyBy,
		[identifierParameter]: value(run.user),
		time: value(run.time),
		...(run.props && { propertiesInput: 'json', propertiesJson: value(run.props) }),
		...(run.appId !== undefined && { additionalFields: { app_id: run.appId } }),
		options: { parallelRequests: 1 },
	};
	if (run.operation === 'trackEvent') parameters.eventName = value(run.name);
	else
		Object.assign(parameters, {
			productId: value(run.product),
			price: value(run.price),
			currency: value(run.currency),
			...(run.quantity && { quantity: value(run.quantity) }),
		});
	return JSON.parse(JSON.stringify(parameters)) as INodeParameters;
}

/** A constant as an expression's literal; braces that would end the expression are split apart ("}" + "}"). */
const asLiteral = (value: unknown) => JSON.stringify(value).replace(/\}\}/g, '}" + "}').replace(/\{\{/g, '{" + "{');

/** A time that is the run's own (an empty Time is when the workflow runs), the same in both runs' view. */
const RUN_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const withRunTime = (data: unknown): unknown =>
	JSON.parse(
		JSON.stringify(data, (_key, value: unknown) =>
			typeof value === 'string' && RUN_TIME.test(value) && Math.abs(Date.parse(value) - Date.now()) < 3_600_000
				? 'the run time'
				: value,
		),
	);

async function runWith(run: RunCase, reference: (field: string) => string, engineOnly: boolean) {
	await client().reset();
	const result = await runWorkflow({
		nodes: [
			{
				name: USER,
				type: USER_NODE,
				parameters: parametersOf(run, reference, engineOnly),
				onError: 'continueErrorOutput',
			},
		],
		connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
		items: structuredClone(run.items) as IDataObject[],
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		settings: { executionOrder: 'v1', timezone: 'Europe/Berlin' },
	});
	const outputs = [0, 1].map((branch) =>
		result.output(USER, branch).map((output) => ({ json: output.json, pairedItem: output.pairedItem })),
	);
	const bodies = (await client().requests()).map((request) => request.body);
	return withRunTime({ error: result.error?.message, outputs, bodies }) as {
		error?: string;
		outputs: Array<Array<{ json: IDataObject }>>;
		bodies: IDataObject[];
	};
}

describe('dragged fields read from the item', () => {
	test("give the requests and the item answers and errors n8n's engine gives", async () => {
		let succeeded = 0;
		await fc.assert(
			fc.asyncProperty(runCase, async (run) => {
				const dragged = await runWith(run, (field) => `$json.${field}`, false);
				const engine = await runWith(run, (field) => `($json.${field})`, true);
				expect(dragged).toEqual(engine);
				succeeded += dragged.outputs[0].filter((output) => statusOf(output.json) === 'tracked').length;
			}),
			{ numRuns: RUNS },
		);
		// The generator reaches items the platform takes, or the test would compare errors alone.
		expect(succeeded).toBeGreaterThan(0);
	}, 600_000);

	test('a run of valid orders: every item tracked, as it came', async () => {
		const items = [
			{ user: ' crm-1 ', name: '', product: 'sku-1', price: '59.90', currency: 'eur', time: '2026-12-01T10:00:00' },
			{ user: 1002, name: '', product: 'sku-2', price: 5, currency: 'EUR', time: '2026-11-01T12:00:00Z' },
		];
		const dragged = (field: string) => ({ field, layout: AS_DRAGGED });
		const run: RunCase = {
			operation: 'trackPurchase',
			identifyBy: 'external_id',
			user: dragged('user'),
			name: dragged('name'),
			time: dragged('time'),
			props: undefined,
			product: dragged('product'),
			price: dragged('price'),
			currency: dragged('currency'),
			quantity: undefined,
			appId: undefined,
			items,
		};
		const { outputs, bodies } = await runWith(run, (field) => `$json.${field}`, false);
		expect(outputs[0].map((output) => statusOf(output.json))).toEqual(['tracked', 'tracked']);
		expect(outputs[0].map((output) => rowOf(output.json))).toEqual(items);
		expect((bodies[0] as { purchases: IDataObject[] }).purchases).toEqual([
			{
				external_id: 'crm-1',
				product_id: 'sku-1',
				price: 59.9,
				quantity: 1,
				currency: 'EUR',
				time: '2026-12-01T10:00:00+01:00',
			},
			{
				external_id: '1002',
				product_id: 'sku-2',
				price: 5,
				quantity: 1,
				currency: 'EUR',
				time: '2026-11-01T12:00:00Z',
			},
		]);
	});
});

/**
 * Where the comparison above comes from: a dragged field is read from the item's JSON and never asked
 * of n8n's engine, whatever its value (a placeholder, no date, missing), and an expression other than a
 * dragged field is asked of it for every item. Here n8n's side of a run is given by hand (its items,
 * the saved parameters, and an engine that resolves no expression), and what is asked of it counted.
 */
describe('the engine is asked only for expressions other than a dragged field', () => {
	const TRACK_EVENT: INodeParameters = {
		identifyBy: 'external_id',
		externalId: '={{ $json.userId }}',
		eventName: 'order_placed',
		time: '={{ $json.time }}',
		propertiesInput: 'json',
		propertiesJson: '={{ $json.properties }}',
	};
	const ORDERS: IDataObject[] = [
		{ userId: 'customer-1', time: '2026-11-01T12:00:00Z', properties: { total: 19.9 } },
		{ userId: ' customer-2 ', time: '2026-12-01T10:00:00', properties: { total: 5 } },
		{ userId: 'undefined', time: '2026-11-01T12:00:00Z', properties: { total: 1 } },
		{ userId: 'customer-4', time: 'yesterday' },
	];

	/** The run's reading, and the expressions asked of the engine as [parameter, item]. */
	function readCounted(parameters: INodeParameters) {
		const asked: Array<[string, number]> = [];
		const context = {
			getInputData: () => ORDERS.map((json) => ({ json })),
			getNode: () => ({ parameters }) as unknown as INode,
			getTimezone: () => 'Europe/Berlin',
			getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
				const value = parameters[name];
				if (value === undefined) return fallback;
				if (typeof value !== 'string' || !value.startsWith('=')) return value;
				asked.push([name, itemIndex]);
				throw new Error('no expression engine here');
			},
		} as unknown as IExecuteFunctions;
		return { ...readItems(context, operation, ORDERS.length, description), asked };
	}

	test('fields mapped and constant: every value is read from the item, the engine asked for none', () => {
		const { pieces, inputErrors, asked } = readCounted(TRACK_EVENT);

		expect(asked).toEqual([]);
		expect(pieces.map((piece) => piece.payload)).toEqual([
			{ external_id: 'customer-1', name: 'order_placed', time: '2026-11-01T12:00:00Z', properties: { total: 19.9 } },
			{
				external_id: 'customer-2',
				name: 'order_placed',
				time: '2026-12-01T10:00:00+01:00',
				properties: { total: 5 },
			},
		]);
		// Item 2's external ID is a placeholder, item 3's time no date.
		expect([...inputErrors.keys()]).toEqual([2, 3]);
		expect(inputErrors.get(2)?.problems.map((problem) => problem.field)).toEqual(['External ID']);
		expect(inputErrors.get(3)?.problems.map((problem) => problem.field)).toEqual(['Time']);
	});

	test('a field that is an expression: that field is asked of the engine for every item, the others never', () => {
		const { asked, inputErrors } = readCounted({ ...TRACK_EVENT, eventName: '={{ $json.kind.toUpperCase() }}' });

		expect(asked).toEqual([0, 1, 2, 3].map((item) => ['eventName', item]));
		expect(inputErrors.get(0)?.problems[0].field).toBe('Event Name');
	});
});

/** The expressions n8n's engine works out, recorded while `counting` is on (by `runOf`, below). */
const evaluated: string[] = [];
let counting = false;
const resolve = Expression.prototype.resolveSimpleParameterValue;
beforeAll(() => {
	Expression.prototype.resolveSimpleParameterValue = function (this: Expression, value, ...rest) {
		if (counting && typeof value === 'string' && value.startsWith('=')) evaluated.push(value);
		return resolve.call(this, value, ...rest);
	};
});
afterAll(() => {
	Expression.prototype.resolveSimpleParameterValue = resolve;
});

/** A field of the item as dragged in (`$json.price`) or as written for n8n's engine alone (`($json.price)`). */
type Reference = (path: string) => string;
const DRAGGED: Reference = (path) => `$json${path}`;
const ENGINE_ALONE: Reference = (path) => `($json${path})`;

/** A run's requests and items, the sandbox's own IDs named by their order of appearance; what n8n evaluated. */
async function runOf(type: string, parameters: INodeParameters, items: IDataObject[], seed: IDataObject) {
	await client().reset();
	await client().seed(seed);
	evaluated.length = 0;
	counting = true;
	const result = await runNode(type, {
		items: JSON.parse(JSON.stringify(items)) as IDataObject[],
		parameters,
		endpoint: sandbox().url,
		apiKey,
		continueOnFail: true,
	}).finally(() => (counting = false));
	const ids = new Map<string, string>();
	const text = JSON.stringify({
		error: result.error?.message,
		items: result.output(nodeName(type)).map((item) => ({ json: item.json, pairedItem: item.pairedItem })),
		requests: (await client().requests()).map((request) => ({ path: request.path, body: request.body })),
	}).replace(/\b[0-9a-f]{24}\b/g, (id) => ids.get(id) ?? ids.set(id, `#${ids.size}`).get(id)!);
	return { seen: JSON.parse(text) as unknown, evaluated: [...evaluated] };
}

/** The run with its field dragged in, and the same run with it written for n8n's engine alone. */
async function bothReadings(
	type: string,
	parameters: (reference: Reference) => INodeParameters,
	items: IDataObject[],
	seed: IDataObject = {},
) {
	const dragged = await runOf(type, parameters(DRAGGED), items, seed);
	const engine = await runOf(type, parameters(ENGINE_ALONE), items, seed);
	return { dragged, engine };
}

/**
 * A dragged field with anything after its braces (`{{ $json.price }} `: a space or a line break left in
 * the field) is text for n8n's engine, `"59.9 "` or `"false "`, and not the item's field: n8n's engine
 * works it out for every item, and every request and item is what the same field written for the engine
 * alone (`{{ ($json.price) }} `) gives. The rows' values show the difference: an array of one number
 * or one yes/no is its text there, and an error quotes the value with its space.
 */
describe("a dragged field followed by a space or a line break is n8n's text", () => {
	const AFTER = [' ', '\n', '\t \r\n'];

	test.each(AFTER)('Track Purchase, Price {{ $json.price }}%j', async (after) => {
		const price = (reference: Reference) => `={{ ${reference('.price')} }}${after}`;
		const items = [
			{ user: 'c-1', price: 59.9 },
			{ user: 'c-2', price: [59.9] },
			{ user: 'c-3', price: 'abc' },
		];
		const { dragged, engine } = await bothReadings(
			USER_NODE,
			(reference) => ({
				operation: 'trackPurchase',
				identifyBy: 'external_id',
				externalId: '={{ $json.user }}',
				productId: 'sku-1',
				price: price(reference),
				currency: 'EUR',
				time: '2026-11-01T12:00:00Z',
				options: { parallelRequests: 1 },
			}),
			items,
		);

		expect(dragged.seen).toEqual(engine.seen);
		// n8n's engine works the Price out for every item, as it does the field written for it alone.
		expect(dragged.evaluated.filter((value) => value === price(DRAGGED))).toHaveLength(items.length);
	});

	test.each(AFTER)('Trigger Campaign, Send to Existing Users Only {{ $json.flag }}%j', async (after) => {
		const flag = (reference: Reference) => `={{ ${reference('.flag')} }}${after}`;
		const attributes = { c_tier: 'gold' };
		const items = [
			{ id: 'crm-1', flag: false, attributes },
			{ id: 'new-2', flag: [false], attributes },
			{ id: 'crm-3', flag: 'nope' },
			{ id: 'crm-4', flag: true },
		];
		const { dragged, engine } = await bothReadings(
			MESSAGE_NODE,
			(reference) => ({
				operation: 'triggerCampaign',
				campaignId: 'welcome',
				sendTo: 'recipients',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				recipientAttributesInput: 'json',
				recipientAttributesJson: '={{ $json.attributes }}',
				sendToExistingOnly: flag(reference),
			}),
			items,
			{
				profiles: [{ external_id: 'crm-1' }, { external_id: 'crm-3' }, { external_id: 'crm-4' }],
				campaigns: [{ id: 'welcome' }],
			},
		);

		expect(dragged.seen).toEqual(engine.seen);
		expect(dragged.evaluated.filter((value) => value === flag(DRAGGED))).toHaveLength(items.length);
	});
});

/**
 * A reference the editor could have written, `{{ $json["a}}b"] }}` or `{{ $json.caller }}`, that n8n's
 * engine refuses to work out: its splitting of `{{ … }}` ends the expression at the first `}}`, a line
 * break cannot stand in a quoted key, and its sandbox refuses names such as `caller`, `prototype` and
 * `__proto__` (an item's own key too) and any `.constructor` in the text. Each item fails as n8n's value
 * fails it, as the same field written for the engine alone does, where reading the item would give a value.
 */
describe("a field n8n's engine refuses to work out fails each item as n8n fails it", () => {
	const cases: Array<[string, string, IDataObject]> = [
		['}} in a quoted key', '["a}}b"]', { 'a}}b': 'viewed' }],
		['a line break in a quoted key', '["a\nb"]', { 'a\nb': 'viewed' }],
		['a carriage return in a quoted key', "['a\rb']", { 'a\rb': 'viewed' }],
		['a line separator in a quoted key', '["a\u2028b"]', { 'a\u2028b': 'viewed' }],
		['a name n8n refuses', '.caller', { caller: 'viewed' }],
		['a name n8n refuses, quoted', '["prototype"]', { prototype: 'viewed' }],
		['an own __proto__ key', '.a["__proto__"]', JSON.parse('{"a": {"__proto__": "viewed"}}') as IDataObject],
		['a name starting with constructor', '.constructorName', { constructorName: 'viewed' }],
		['.constructor inside a quoted key', '["b.constructor"]', { 'b.constructor': 'viewed' }],
	];

	test.each(cases)('%s: $json%j', async (_title, path, row) => {
		const eventName = (reference: Reference) => `={{ ${reference(path)} }}`;
		const items = [row, row];
		const { dragged, engine } = await bothReadings(
			USER_NODE,
			(reference) => ({
				operation: 'trackEvent',
				identifyBy: 'external_id',
				externalId: 'c-1',
				eventName: eventName(reference),
				time: '2026-11-01T12:00:00Z',
			}),
			items,
		);

		expect(dragged.seen).toEqual(engine.seen);
		expect(dragged.evaluated.filter((value) => value === eventName(DRAGGED))).toHaveLength(items.length);
	});
});
