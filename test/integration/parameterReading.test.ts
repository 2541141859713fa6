import type { IDataObject, IExecuteFunctions, INode, INodeParameters, INodeProperties } from 'n8n-workflow';

import { ItemInputError } from '../../nodes/EngagementPlatform/shared/engine/read/itemInputError';
import { ParameterReader } from '../../nodes/EngagementPlatform/shared/engine/read/readItems';
import { USER } from '../support/nodeTypes';
import { OUTPUT_FIELD, statusOf, wordsOf } from '../support/nodeWords';
import { runUserNode } from '../support/userRuns';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

/**
 * Parameters that are plain field references (`{{ $json.a.b }}`) are read from the item rather
 * than by n8n's expression engine. The same mapping written so that only the engine can resolve
 * it (`{{ ($json.a.b) }}`) must give the same requests and the same items.
 */
const ITEMS: IDataObject[] = [
	{
		customer: { id: 'c-1' },
		'event name': 'viewed',
		props: { sku: 'A', tags: ['x', 'y'] },
		when: '2026-11-01T10:00:00Z',
	},
	{
		customer: { id: 42 },
		'event name': 'bought',
		props: { nested: { deep: [1, { two: 2 }] } },
		when: '2026-11-02T10:00:00Z',
	},
	{ customer: { id: 'c-3' }, 'event name': 'viewed', when: '2026-11-03T10:00:00Z' },
	{ customer: null, 'event name': 'viewed', props: {}, when: '2026-11-03T10:00:00Z' },
	{ 'event name': 'viewed', props: { sku: 'B' }, when: 'yesterday' },
];

const parameters = (wrap: (path: string) => string): INodeParameters => ({
	operation: 'trackEvent',
	identifyBy: 'external_id',
	externalId: wrap('$json.customer.id'),
	eventName: wrap('$json["event name"]'),
	time: wrap('$json.when'),
	propertiesInput: 'json',
	propertiesJson: wrap('$json.props'),
	options: { parallelRequests: 1 },
});

async function runWith(wrap: (path: string) => string) {
	await client().reset();
	const result = await runUserNode({
		items: structuredClone(ITEMS),
		parameters: parameters(wrap),
		endpoint: sandbox().url,
		apiKey,
		continueOnFail: true,
	});
	const bodies = (await client().requests()).map((request) => request.body);
	return { output: result.output(USER).map((item) => ({ json: item.json, pairedItem: item.pairedItem })), bodies };
}

describe('reading parameters', () => {
	test('field references read from the item give exactly what n8n’s expression engine gives', async () => {
		const direct = await runWith((path) => `={{ ${path} }}`);
		const throughEngine = await runWith((path) => `={{ (${path}) }}`);

		expect(direct).toEqual(throughEngine);
		expect(direct.output.map((item) => item.json.error ?? statusOf(item.json))).toEqual([
			'tracked',
			'tracked',
			'tracked',
			expect.stringContaining('External ID'),
			expect.stringContaining('External ID'),
		]);
		expect(direct.bodies).toHaveLength(1);
	});

	test('a constant parameter gives every item the same value', async () => {
		const result = await runUserNode({
			items: [{ id: 'a' }, { id: 'b' }],
			parameters: {
				...parameters((path) => `={{ ${path} }}`),
				externalId: '={{ $json.id }}',
				eventName: 'signed_up',
				time: '2026-11-01T10:00:00Z',
				propertiesJson: '{"plan": "gold"}',
			},
			endpoint: sandbox().url,
			apiKey,
		});

		expect(result.error).toBeUndefined();
		const [request] = await client().requests();
		expect(
			(request.body as { events: IDataObject[] }).events.map((event) => [
				event.external_id,
				event.name,
				event.properties,
			]),
		).toEqual([
			['a', 'signed_up', { plan: 'gold' }],
			['b', 'signed_up', { plan: 'gold' }],
		]);
	});

	// n8n throws for an expression it cannot work out (a node that does not exist, read here for the second
	// item alone). That is the item's problem: the others go out, and it fails naming its field, on the
	// error branch; before, the whole node failed and Continue passed every input on untouched and unsent.
	describe('an expression n8n cannot work out for one item fails that item alone', () => {
		const run = async (settings: { onError?: 'continueErrorOutput' | 'continueRegularOutput' }) => {
			await client().reset();
			const result = await runUserNode({
				...settings,
				items: [{ id: 'u1' }, { id: 'u2' }, { id: 'u3' }],
				parameters: {
					...parameters((path) => `={{ ${path} }}`),
					externalId: '={{ $json.id }}',
					eventName: '={{ $json.id === "u2" ? $("No Such Node").item.json.name : "signed_up" }}',
					time: '2026-11-01T10:00:00Z',
					propertiesJson: '',
				},
				endpoint: sandbox().url,
				apiKey,
			});
			const sent = (await client().requests()).flatMap((request) =>
				(request.body as { events: IDataObject[] }).events.map((event) => event.external_id),
			);
			return { result, sent };
		};

		test('Continue (using error output): the others are sent and answered, it goes down the error branch', async () => {
			const { result, sent } = await run({ onError: 'continueErrorOutput' });

			expect(result.error).toBeUndefined();
			expect(sent).toEqual(['u1', 'u3']);
			expect(result.output(USER, 0).map((item) => [statusOf(item.json), item.pairedItem])).toEqual([
				['tracked', { item: 0 }],
				['tracked', { item: 2 }],
			]);
			const failed = result.output(USER, 1);
			expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }]);
			expect(String(failed[0].json.error)).toMatch(
				/^Row 2 \(item 1, id 'u2'\): "Event Name" could not be worked out for this item/,
			);
			expect(String(failed[0].json.error)).toContain("Referenced node doesn't exist");
		});

		test('Continue (regular output): each item has its own answer, paired', async () => {
			const { result, sent } = await run({ onError: 'continueRegularOutput' });

			expect(sent).toEqual(['u1', 'u3']);
			expect(
				result.output(USER).map((item) => [statusOf(item.json), wordsOf(item.json).field, item.pairedItem]),
			).toEqual([
				['tracked', undefined, { item: 0 }],
				['failed', 'Event Name', { item: 1 }],
				['tracked', undefined, { item: 2 }],
			]);
		});

		test('without Continue, the node stops before sending anything and names the item and the field', async () => {
			const { result, sent } = await run({});

			expect(sent).toEqual([]);
			// The message names the row and n8n's item number, so n8n's editor adds no "[item 1]" of its own.
			expect(result.error?.message).toMatch(
				/^Row 2 \(item 1, id 'u2'\): "Event Name" could not be worked out for this item/,
			);
			expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
		});
	});

	test('$fromAI(…) fields (an AI agent tool’s) are resolved by n8n’s expression engine from the tool call’s item', async () => {
		// As n8n runs a tool node for one tool call: one item, the agent's input merged with the model's arguments.
		const toolCall = {
			prompt: 'the agent’s input',
			external_id: 'cust-ai-1',
			event_name: 'plan_upgraded',
			event_properties: { plan: 'gold', seats: 5 },
			toolCallId: 'call_1',
		};
		const fromAI = (key: string, type = 'string') =>
			`={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`The ${key}\`, '${type}') }}`;
		const result = await runUserNode({
			items: [toolCall],
			parameters: {
				operation: 'trackEvent',
				identifyBy: 'external_id',
				externalId: fromAI('external_id'),
				eventName: fromAI('event_name'),
				time: '2026-11-01T10:00:00Z',
				propertiesInput: 'json',
				propertiesJson: fromAI('event_properties', 'json'),
				options: {},
			},
			endpoint: sandbox().url,
			apiKey,
		});

		expect(result.error).toBeUndefined();
		expect(result.output(USER).map((item) => item.json)).toEqual([
			// The answer keeps the tool call's fields as they came, the node's words beside them.
			{ ...toolCall, [OUTPUT_FIELD]: { status: 'tracked', external_id: 'cust-ai-1', events_tracked: 1 } },
		]);
		const [request, ...more] = await client().requests();
		expect(more).toEqual([]);
		expect((request.body as { events: IDataObject[] }).events).toEqual([
			{
				external_id: 'cust-ai-1',
				name: 'plan_upgraded',
				time: '2026-11-01T10:00:00Z',
				properties: { plan: 'gold', seats: 5 },
			},
		]);
	});
});

/**
 * A sheet synced with Update Attributes: the standard attributes' mapper and the custom
 * attributes' typed list, each entry dragged in (`{{ $json.email }}`), are built from the item; the
 * same mapping that only n8n's engine can read (`{{ ($json.email) }}`) gives the same requests and items,
 * rows with missing, blank, mistyped and nested values among them.
 */
describe('a resource mapper and an assignment list mapped entry by entry', () => {
	const SHEET: IDataObject[] = [
		{ crm_id: 'c-1', first_name: 'Ada', email: 'ada@example.com', gender: 'F', ltv: '59.90', vip: 'true' },
		{ crm_id: 'c-2', first_name: '  ', email: 'b@example.com', gender: 'Q', ltv: 'lots', vip: 'maybe' },
		{ crm_id: 'c-3', email: 'c@example.com', ltv: 12, vip: false, signup: '2026-03-01 10:00' },
		{ crm_id: 'c-4', first_name: { nested: true }, ltv: '', vip: ' ', signup: 'soon' },
		{ crm_id: '', first_name: 'Nobody', ltv: '1', vip: 'false' },
	];
	const COLUMNS = ['first_name', 'email', 'gender'];

	const sheetSync = (wrap: (path: string) => string): INodeParameters => ({
		operation: 'updateAttributes',
		identifyBy: 'external_id',
		externalId: wrap('$json.crm_id'),
		standardAttributes: {
			mappingMode: 'defineBelow',
			value: Object.fromEntries(COLUMNS.map((column) => [column, wrap(`$json.${column}`)])),
			matchingColumns: [],
			schema: COLUMNS.map((id) => ({ id, displayName: id, type: 'string', required: false, display: true })),
		},
		attributesFields: {
			assignments: [
				{ id: '1', name: 'lifetime_value', value: wrap('$json.ltv'), type: 'number' },
				{ id: '2', name: 'vip', value: wrap('$json.vip'), type: 'boolean' },
				{ id: '3', name: 'signed_up_at', value: wrap('$json["signup"]'), type: 'string' },
			],
		},
		options: { parallelRequests: 1 },
	});

	async function syncWith(wrap: (path: string) => string, items = SHEET) {
		await client().reset();
		const result = await runUserNode({
			items: structuredClone(items),
			parameters: sheetSync(wrap),
			endpoint: sandbox().url,
			apiKey,
			continueOnFail: true,
		});
		const bodies = (await client().requests()).map((request) => request.body);
		return { output: result.output(USER).map((item) => ({ json: item.json, pairedItem: item.pairedItem })), bodies };
	}

	test('dragged entries read from the item give exactly what n8n’s expression engine gives', async () => {
		const dragged = await syncWith((path) => `={{ ${path} }}`);
		const throughEngine = await syncWith((path) => `={{ (${path}) }}`);

		expect(dragged).toEqual(throughEngine);
		expect(dragged.output.map((item) => item.json.error ?? statusOf(item.json))).toEqual([
			'updated',
			expect.stringContaining('Standard Attributes'),
			'updated',
			expect.stringContaining('first_name'),
			expect.stringContaining('External ID'),
		]);
		expect(dragged.bodies).toHaveLength(1);
	});

	test('a first row without a mapped field leaves the entries to n8n’s engine, with the same result', async () => {
		const rows = [{ crm_id: 'c-0', ltv: '3', vip: 'true' }, ...SHEET];
		expect(await syncWith((path) => `={{ ${path} }}`, rows)).toEqual(
			await syncWith((path) => `={{ (${path}) }}`, rows),
		);
	});
});

describe('the parameter reader reads only constants and plain $json fields itself', () => {
	const ITEMS = [{ json: { a: 'first', b: { c: 1 } } }, { json: { a: 'second', b: { c: 2 } } }];

	/**
	 * A reader over `parameters` and the operation's `fields`, with n8n's getNodeParameter stood in by
	 * a recorder that, as n8n does, gives an absent parameter's fallback or refuses it without one, and
	 * refuses the parameter named `refused` (a value n8n cannot read, such as a mistyped mapping).
	 */
	function readerOver(parameters: INodeParameters, fields: INodeProperties[] = [], refused?: string) {
		const calls: Array<[string, number]> = [];
		const context = {
			getInputData: () => ITEMS,
			getNode: () => ({ parameters }) as unknown as INode,
			getTimezone: () => 'UTC',
			getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
				calls.push([name, itemIndex]);
				if (name === refused) throw new Error(`n8n refused ${name}`);
				if (!(name in parameters)) {
					if (fallback === undefined) throw new Error(`Could not get parameter "${name}"`);
					return fallback;
				}
				return `engine:${name}:${itemIndex}`;
			},
		} as unknown as IExecuteFunctions;
		return { reader: new ParameterReader(context, fields), calls };
	}

	test.each([
		['$fromAI', "={{ $fromAI('external_id', `The customer's ID`, 'string') }}"],
		[
			'$fromAI, as the editor writes "Defined automatically by the model"',
			"={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('External_ID', ``, 'string') }}",
		],
		['$fromAi (n8n accepts either case)', "={{ $fromAi('external_id') }}"],
		['$fromAI inside text', "=customer {{ $fromAI('external_id') }}"],
		['a field and more text', '={{ $json.a }} and more'],
		['two fields', '={{ $json.a }}{{ $json.b.c }}'],
		['a method call on a field', '={{ $json.a.toUpperCase() }}'],
		['a fallback', "={{ $json.a || 'none' }}"],
		['another node’s item', "={{ $('Customer Request').item.json.a }}"],
		['$input', '={{ $input.item.json.a }}'],
	])('%s goes through n8n’s engine for every item', (_, raw) => {
		const { reader, calls } = readerOver({ externalId: raw });

		expect([reader.value('externalId', 0), reader.value('externalId', 1)]).toEqual([
			'engine:externalId:0',
			'engine:externalId:1',
		]);
		expect(calls).toEqual([
			['externalId', 0],
			['externalId', 1],
		]);
	});

	test('$fromAI inside a typed list (an entry’s value) goes through n8n’s engine for every item', () => {
		const { reader, calls } = readerOver({
			propertiesFields: { assignments: [{ id: '1', name: 'plan', value: "={{ $fromAI('plan') }}", type: 'string' }] },
		});

		reader.value('propertiesFields', 0);
		reader.value('propertiesFields', 1);
		expect(calls).toEqual([
			['propertiesFields', 0],
			['propertiesFields', 1],
		]);
	});

	test('a plain $json field is read from the item, a constant once per run', () => {
		const { reader, calls } = readerOver({ externalId: '={{ $json.b.c }}', eventName: 'signed_up' });

		expect([reader.value('externalId', 0), reader.value('externalId', 1)]).toEqual([1, 2]);
		expect([reader.value('eventName', 0), reader.value('eventName', 1)]).toEqual([
			'engine:eventName:0',
			'engine:eventName:0',
		]);
		expect(calls).toEqual([['eventName', 0]]);
	});

	test('an object whose every expression is a plain $json field is built from each item, n8n asked once to check it', () => {
		const mapper = {
			mappingMode: 'defineBelow',
			value: { first: '={{ $json.a }}', deep: '={{ $json.b.c }}' },
			schema: [],
		};
		const context = {
			getInputData: () => ITEMS,
			getNode: () => ({ parameters: { standardAttributes: mapper } }) as unknown as INode,
			getTimezone: () => 'UTC',
			getNodeParameter: (name: string, itemIndex: number) => {
				calls.push([name, itemIndex]);
				const { a, b } = ITEMS[itemIndex].json;
				return { mappingMode: 'defineBelow', value: { first: a, deep: b.c }, schema: [] };
			},
		} as unknown as IExecuteFunctions;
		const calls: Array<[string, number]> = [];
		const reader = new ParameterReader(context);

		expect([reader.value('standardAttributes', 0), reader.value('standardAttributes', 1)]).toEqual([
			{ mappingMode: 'defineBelow', value: { first: 'first', deep: 1 }, schema: [] },
			{ mappingMode: 'defineBelow', value: { first: 'second', deep: 2 }, schema: [] },
		]);
		expect(calls).toEqual([['standardAttributes', 0]]);
	});

	test('an object whose expressions build other than n8n’s value for the first item is left to n8n for every item', () => {
		const { reader, calls } = readerOver({
			propertiesFields: { assignments: [{ id: '1', name: 'plan', value: '={{ $json.a }}', type: 'string' }] },
		});

		expect(reader.value('propertiesFields', 1)).toBe('engine:propertiesFields:1');
		expect(calls).toEqual([
			['propertiesFields', 0],
			['propertiesFields', 1],
		]);
	});

	test("given the operation's fields, each is classified before the first item, and reads as it did when classified at its first reading", () => {
		const field = (name: string, displayName: string): INodeProperties => ({
			displayName,
			name,
			type: 'string',
			default: '',
		});
		const fields = [
			field('externalId', 'External ID'),
			field('eventName', 'Event Name'),
			field('appId', 'App ID'),
			field('campaignId', 'Campaign ID'),
		];
		const { reader, calls } = readerOver(
			{ externalId: '={{ $json.a }}', eventName: 'signed_up', campaignId: 'mistyped' },
			fields,
			'campaignId',
		);

		// Before any item: the constants are read from n8n (the refused one too, which is then left to its readings).
		expect(calls).toEqual([
			['eventName', 0],
			['campaignId', 0],
		]);
		expect([reader.value('externalId', 0), reader.value('externalId', 1)]).toEqual(['first', 'second']);
		expect([reader.value('eventName', 0), reader.value('eventName', 1)]).toEqual([
			'engine:eventName:0',
			'engine:eventName:0',
		]);
		// An absent parameter gives its fallback; without one, n8n's refusal, as before.
		expect(reader.value('appId', 1, 'fallback')).toBe('fallback');
		expect(() => reader.value('appId', 1)).toThrow('Could not get parameter "appId"');
		// A constant n8n refuses fails every reading of it, each item alone, naming its field.
		for (const itemIndex of [0, 1]) {
			expect(() => reader.value('campaignId', itemIndex)).toThrow(ItemInputError);
			expect(() => reader.value('campaignId', itemIndex)).toThrow(
				'Campaign ID: could not be worked out for this item: n8n refused campaignId',
			);
		}
		expect(reader.labelOf('appId')).toBe('App ID');
	});
});
