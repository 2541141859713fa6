import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CATALOG, CATALOG_NODE } from '../support/nodeTypes';
import { OUTPUT_FIELD, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();

const run = async (items: IDataObject[], parameters: INodeParameters, continueOnFail = false) =>
	await runNode(CATALOG_NODE, { items, parameters, endpoint: sandbox().url, apiKey, continueOnFail });

const RESTAURANTS = {
	name: 'restaurants',
	fields: [
		{ name: 'name', type: 'string' as const },
		{ name: 'rating', type: 'number' as const },
		{ name: 'tags', type: 'array' as const },
	],
};

const withFields = (operation: string, overrides: INodeParameters = {}): INodeParameters => ({
	operation,
	catalogName: 'restaurants',
	itemId: '={{ $json.id }}',
	fieldsInput: 'json',
	fieldsJson: '={{ $json.fields }}',
	...overrides,
});

type CatalogView = { name: string; items: IDataObject[] };
const catalogItems = async () =>
	((await client().state()) as unknown as { catalogs: CatalogView[] }).catalogs.find((c) => c.name === 'restaurants')!
		.items;

describe('Catalog node', () => {
	beforeEach(async () => {
		await client().seed({
			catalogs: [{ ...RESTAURANTS, items: [{ id: 'r-1', name: 'Old Name', rating: 3, tags: ['pizza'] }] }],
		} as never);
	});

	test('120 menu rows replace items in 3 requests of 50, 50 and 20; each item is accepted', async () => {
		const rows = Array.from({ length: 120 }, (_, i) => ({
			id: `r-${i}`,
			fields: { name: `Place ${i}`, rating: i % 5, tags: ['food'] },
		}));

		const result = await run(rows, withFields('replaceItems'));

		expect(result.error).toBeUndefined();
		const requests = await client().requests({ method: 'PUT' });
		expect(requests.map((r) => (r.body as { items: unknown[] }).items.length)).toEqual([50, 50, 20]);
		expect(requests[0].path).toBe('/catalogs/restaurants/items');
		// The answer keeps the row's fields as they came (its own `id` too), the node's words beside them.
		expect(result.output(CATALOG)[7].json).toEqual({
			...rows[7],
			[OUTPUT_FIELD]: { status: 'accepted', catalog_name: 'restaurants', id: 'r-7' },
		});
		expect(await catalogItems()).toHaveLength(120);
	});

	test.each([
		[403, 'lacks the "catalogs.update_items" permission'],
		[401, 'The API key was refused'],
		[404, 'does not know this resource'],
		[400, 'refused the request'],
	])('a request refused as a whole (%i) names the reason on every item', async (status, reason) => {
		await client().injectFaults([{ path: '/catalogs/restaurants/items', kind: 'status', status, times: 1 }]);

		const result = await run(
			[
				{ id: 'r-1', fields: { rating: 4 } },
				{ id: 'r-2', fields: { rating: 5 } },
			],
			withFields('editItems'),
			true,
		);

		for (const { json } of result.output(CATALOG)) {
			expect(String(json.error)).not.toContain('another item');
			expect(statusOf(json)).toBe('failed');
			expect(wordsOf(json).description).toContain(reason);
			expect(wordsOf(json).httpCode).toBe(status);
		}
	});

	test('edit adds to an array field with $add', async () => {
		await run([{ id: 'r-1', fields: { rating: 4.5, tags: { $add: ['vegan'] } } }], withFields('editItems'));

		expect((await catalogItems()).find((item) => item.id === 'r-1')).toMatchObject({
			rating: 4.5,
			tags: ['pizza', 'vegan'],
		});
	});

	test('delete removes items', async () => {
		await run([{ id: 'r-1' }], { operation: 'deleteItems', catalogName: 'restaurants', itemId: '={{ $json.id }}' });

		expect(await catalogItems()).toEqual([]);
	});

	test("the spec's item rules are checked before sending: bad ids, repeated ids, dotted keys, $add on replace", async () => {
		const rows = [
			{ id: 'ok-1', fields: { name: 'Fine' } },
			{ id: 'has space', fields: { name: 'x' } },
			{ id: 'ok-1', fields: { name: 'again' } },
			{ id: 'ok-2', fields: { 'a.b': 1 } },
			{ id: 'ok-3', fields: { tags: { $add: ['x'] } } },
			{ id: 'ok-4', fields: { name: 'y'.repeat(5001) } },
		];

		const result = await run(rows, withFields('replaceItems'), true);

		const output = result.output(CATALOG).map((item) => item.json);
		expect(statusOf(output[0])).toBe('accepted');
		expect(output.slice(1).map((json) => wordsOf(json).field)).toEqual([
			'Item ID',
			'Item ID',
			'Fields.a.b',
			'Fields.tags.$add',
			'Fields.name',
		]);
		expect(output[2].error).toContain('also given by row 1 (item 0)');
		const [request] = await client().requests({ method: 'PUT' });
		expect((request.body as { items: IDataObject[] }).items.map((item) => item.id)).toEqual(['ok-1']);
	});

	test("a 400's errors land on the items they name, and the rest of the request says it was not applied", async () => {
		const rows = [
			{ id: 'r-1', fields: { rating: 'five stars' } },
			{ id: 'r-2', fields: { name: 'Fine' } },
		];

		const result = await run(rows, withFields('editItems'), true);

		const [coerce, bystander] = result.output(CATALOG).map((item) => item.json);
		expect(coerce).toMatchObject({
			...rows[0],
			error: expect.stringContaining('unable-to-coerce-value'),
			[OUTPUT_FIELD]: { status: 'failed', delivery: 'not_applied', httpCode: 400 },
		});
		expect(bystander).toMatchObject({
			...rows[1],
			error: expect.stringContaining('another item of the same request was refused'),
			[OUTPUT_FIELD]: { status: 'failed', delivery: 'not_applied' },
		});
	});

	test('an unknown catalog fails every item with catalog-not-found', async () => {
		const result = await run(
			[
				{ id: 'a', fields: { name: 'x' } },
				{ id: 'b', fields: { name: 'y' } },
			],
			withFields('replaceItems', { catalogName: 'nope' }),
			true,
		);

		for (const item of result.output(CATALOG)) expect(String(item.json.error)).toContain('catalog-not-found');
	});
});
