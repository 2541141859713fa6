import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CATALOG, CATALOG_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { OUTPUT_FIELD, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

/**
 * Where the spec limits characters (catalog item values 5,000; standard attributes' text 255, as
 * property values are), characters are counted as the spec counts them: code points, so an emoji is
 * one character, where JavaScript's length counts two.
 */
const { sandbox, client, apiKey } = useSandbox();

const EMOJI = '😀';

const MENU = {
	name: 'menu',
	fields: [
		{ name: 'description', type: 'string' as const },
		{ name: 'tags', type: 'array' as const },
	],
};

const replaceItems: INodeParameters = {
	operation: 'replaceItems',
	catalogName: 'menu',
	itemId: '={{ $json.id }}',
	fieldsInput: 'json',
	fieldsJson: '={{ $json.fields }}',
};

type CatalogView = { name: string; items: IDataObject[] };
const menuItems = async () =>
	((await client().state()) as unknown as { catalogs: CatalogView[] }).catalogs.find((c) => c.name === 'menu')!.items;

describe('catalog item values: 5,000 characters are 5,000 code points', () => {
	const replace = async (items: IDataObject[]) =>
		(
			await runNode(CATALOG_NODE, {
				items,
				parameters: replaceItems,
				endpoint: sandbox().url,
				apiKey,
				continueOnFail: true,
			})
		)
			.output(CATALOG)
			.map(({ json }) => json);

	beforeEach(async () => await client().seed({ catalogs: [{ ...MENU, items: [] }] } as never));

	test('a catalog value of 5,000 emoji (10,000 UTF-16 units) is 5,000 characters: sent and stored', async () => {
		const description = EMOJI.repeat(5000);
		const input = { id: 'dish-1', fields: { description } };
		const [answer] = await replace([input]);
		// The answer keeps the input item's fields as they came, the node's words beside them.
		expect(answer).toEqual({
			...input,
			[OUTPUT_FIELD]: { status: 'accepted', catalog_name: 'menu', id: 'dish-1' },
		});
		expect(await menuItems()).toEqual([{ id: 'dish-1', description }]);
	});

	test('5,001 emoji are refused before sending, counted as 5001 characters; the item beside it is sent', async () => {
		const [refused, good] = await replace([
			{ id: 'dish-1', fields: { description: EMOJI.repeat(5001) } },
			{ id: 'dish-2', fields: { description: EMOJI.repeat(10) } },
		]);
		expect(wordsOf(refused)).toMatchObject({ status: 'failed', delivery: 'invalid', field: 'Fields.description' });
		expect(String(refused.error)).toContain('is 5001 characters');
		expect(statusOf(good)).toBe('accepted');
		const [request] = await client().requests({ method: 'PUT' });
		expect((request.body as { items: IDataObject[] }).items.map((item) => item.id)).toEqual(['dish-2']);
	});
});

describe('standard attributes: 255 characters are 255 code points', () => {
	const updateAttributes = (firstName: string) =>
		runNode(USER_NODE, {
			items: [{ id: 'crm-1', first_name: firstName }],
			parameters: {
				operation: 'updateAttributes',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				standardAttributes: { mappingMode: 'autoMapInputData', value: null },
			},
			endpoint: sandbox().url,
			apiKey,
			continueOnFail: true,
		});

	test('a first name of 255 emoji is sent and stored', async () => {
		const firstName = EMOJI.repeat(255);
		const result = await updateAttributes(firstName);
		expect(statusOf(result.output(USER)[0].json)).toBe('updated');
		const [profile] = (await client().state()).profiles;
		expect(profile.standard_attributes.first_name).toBe(firstName);
	});

	test('256 emoji are refused naming the attribute', async () => {
		const result = await updateAttributes(EMOJI.repeat(256));
		expect(wordsOf(result.output(USER)[0].json)).toMatchObject({ status: 'failed', delivery: 'invalid' });
		expect(String(result.output(USER)[0].json.error)).toContain('first_name');
		expect(await client().requests({ path: '/users/track' })).toEqual([]);
	});
});
