import type { IDataObject, INodeParameters, INodeProperties, INodeType, NodeExecutionHint } from 'n8n-workflow';

import { packageNodeTypes } from '../harness';
import { USER, USER_NODE } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

/**
 * A sheet's columns as Google Sheets heads them (`First Name`, `Email`, `Country`), read by Update
 * Attributes left at Mapping Column Mode's default, Map Automatically: each column is matched to a
 * standard attribute by its ID or its label whatever the case, spaces, hyphens or underscores, the run
 * says once which column went as which attribute and which were not sent, and an item with nothing
 * left to update names the columns it saw. Texts of refused values say what is true of the item.
 */
const { sandbox, client, apiKey } = useSandbox();

interface Run {
	answers: IDataObject[];
	hints: NodeExecutionHint[];
	error?: Error;
}

async function user(parameters: INodeParameters, items: IDataObject[], { continueOnFail = true } = {}): Promise<Run> {
	const result = await runNode(USER_NODE, {
		items,
		parameters,
		continueOnFail,
		timezone: 'Europe/Berlin',
		endpoint: sandbox().url,
		apiKey,
	});
	return {
		answers: continueOnFail ? result.output(USER).map(({ json }) => json) : [],
		hints: result.run.data.resultData.runData[USER]?.[0]?.hints ?? [],
		error: result.error,
	};
}

/** Update Attributes as a freshly added node saves it, identified by the sheet's `ID` column. */
const updateAttributes = (extra: INodeParameters = {}): INodeParameters => ({
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.ID }}',
	...extra,
});

const sentAttributes = async () =>
	(await client().requests({ path: '/users/track' })).flatMap(
		(request) => (request.body as { attributes?: IDataObject[] }).attributes ?? [],
	);

const columnsHint = (hints: NodeExecutionHint[]) =>
	hints.filter((hint) => hint.message.startsWith('Map Automatically'));

/** What no reading of the spec changes: every item answered updated is in exactly one accepted request. */
async function expectEachUpdatedItemInOneAcceptedRequest(answers: IDataObject[], items: IDataObject[]) {
	const requests = await client().requests({ path: '/users/track' });
	for (const request of requests) {
		expect(request.status).toBe(201);
		expect(((request.body as { attributes?: unknown[] }).attributes ?? []).length).toBeLessThanOrEqual(75);
	}
	answers.forEach((answer, index) => {
		const holding = requests.filter((request) =>
			((request.body as { attributes?: IDataObject[] }).attributes ?? []).some(
				(object) => object.external_id === items[index].ID,
			),
		);
		expect(holding).toHaveLength(statusOf(answer) === 'updated' ? 1 : 0);
	});
}

describe('Map Automatically matches a column by the attribute’s ID or label', () => {
	test('Google Sheets headers `First Name`, `Email`, `Country` are sent as first_name, email, country', async () => {
		const items = [{ ID: 'crm-1', 'First Name': 'Lena', Email: 'lena@example.com', Country: 'DE', Notes: 'vip' }];
		const { answers, hints } = await user(updateAttributes(), items);

		expect(await sentAttributes()).toEqual([
			{ external_id: 'crm-1', first_name: 'Lena', email: 'lena@example.com', country: 'DE' },
		]);
		expect(wordsOf(answers[0])).toMatchObject({ status: 'updated', attributes_set: 3 });
		const [profile] = (await client().state()).profiles;
		expect(profile).toMatchObject({
			email: 'lena@example.com',
			standard_attributes: { first_name: 'Lena', country: 'DE' },
		});
		await expectEachUpdatedItemInOneAcceptedRequest(answers, items);

		// Said once for the run: which column went as which attribute, and which were not sent and where to map them.
		expect(columnsHint(hints)).toHaveLength(1);
		const [hint] = columnsHint(hints);
		expect(hint).toMatchObject({ type: 'info', location: 'outputPane' });
		expect(hint.message).toContain('"First Name" as first_name');
		expect(hint.message).toContain('"Email" as email');
		expect(hint.message).toContain('"Country" as country');
		expect(hint.message).toContain('Not sent: "Notes"');
		expect(hint.message).toContain('Custom Attributes');
		expect(hint.message).toContain('Mapping Column Mode');
		// The identifier's column is used by another field: it is not listed as dropped.
		expect(hint.message).not.toContain('"ID"');
	});

	test('whatever the case, spaces, hyphens or underscores', async () => {
		const items = [
			{ ID: 'crm-1', 'first name': 'Ada' },
			{ ID: 'crm-2', FIRST_NAME: 'Bea' },
			{ ID: 'crm-3', 'first-name': 'Cy' },
			{ ID: 'crm-4', 'Date of Birth': '1990-04-01', 'Time Zone': 'Europe/Berlin', 'last_name ': 'Lee' },
		];
		const { answers } = await user(updateAttributes(), items);
		expect(answers.map((answer) => statusOf(answer))).toEqual(['updated', 'updated', 'updated', 'updated']);
		expect(await sentAttributes()).toEqual([
			{ external_id: 'crm-1', first_name: 'Ada' },
			{ external_id: 'crm-2', first_name: 'Bea' },
			{ external_id: 'crm-3', first_name: 'Cy' },
			{ external_id: 'crm-4', dob: '1990-04-01', time_zone: 'Europe/Berlin', last_name: 'Lee' },
		]);
		await expectEachUpdatedItemInOneAcceptedRequest(answers, items);
	});

	test('two columns of one attribute with different values: the item is refused naming both', async () => {
		const items = [
			{ ID: 'crm-1', email: 'old@example.com', Email: 'new@example.com' },
			{ ID: 'crm-2', email: 'same@example.com', Email: 'same@example.com' },
		];
		const { answers } = await user(updateAttributes(), items);

		expect(wordsOf(answers[0])).toMatchObject({ status: 'failed', delivery: 'invalid' });
		expect(String(answers[0].error)).toContain('"email" and "Email"');
		expect(String(wordsOf(answers[0]).description)).toContain('Mapping Column Mode');
		// The same value twice is no choice to make: it is sent once.
		expect(statusOf(answers[1])).toBe('updated');
		expect(await sentAttributes()).toEqual([{ external_id: 'crm-2', email: 'same@example.com' }]);
		await expectEachUpdatedItemInOneAcceptedRequest(answers, items);
	});

	test('nothing left to update: the error names the columns it saw and why each was not sent', async () => {
		const { answers } = await user(updateAttributes(), [{ ID: 'crm-1', 'Full Name': 'Ada Lovelace', Email: '' }]);
		const words = wordsOf(answers[0]);
		expect(words).toMatchObject({ status: 'failed', delivery: 'invalid' });
		expect(String(answers[0].error)).toContain('has nothing to update');
		expect(String(answers[0].error)).toContain('"Full Name" matches no standard attribute');
		expect(String(answers[0].error)).toContain('"Email" is empty');
		expect(String(answers[0].error)).toContain('"ID" is mapped to External ID');
		expect(await client().requests({ path: '/users/track' })).toEqual([]);
	});
});

describe('texts that are true of the item', () => {
	const trackPurchase = (extra: INodeParameters = {}): INodeParameters => ({
		operation: 'trackPurchase',
		identifyBy: 'external_id',
		externalId: '={{ $json.id }}',
		productId: 'sku-7',
		currency: 'EUR',
		price: '={{ $json.price }}',
		quantity: '1',
		time: '={{ $json.purchased_at }}',
		...extra,
	});

	test('an ambiguous date names the mapped expression and shows both readings', async () => {
		const { answers } = await user(trackPurchase(), [{ id: 'crm-1', price: '9.90', purchased_at: '03/05/2026' }]);
		const description = String(wordsOf(answers[0]).description);
		expect(description).toContain('{{ $json.purchased_at }}');
		expect(description).not.toContain('$json.date');
		expect(description).toContain('ambiguous');
		expect(description).toContain("3 May 2026: {{ DateTime.fromFormat($json.purchased_at, 'dd/MM/yyyy') }}");
		expect(description).toContain("March 5, 2026: {{ DateTime.fromFormat($json.purchased_at, 'MM/dd/yyyy') }}");
	});

	test('an empty mapped cell is told as such, naming its column', async () => {
		const { answers } = await user(trackPurchase({ time: '' }), [{ id: 'crm-1', price: '' }]);
		const description = String(wordsOf(answers[0]).description);
		expect(description).not.toContain('Map a value of the right type into this field');
		expect(description).toContain('The cell mapped from the column "price" ({{ $json.price }}) is empty for this item');
	});

	test('two problems of one item: one line each, naming its own field', async () => {
		const { answers } = await user(trackPurchase(), [{ id: 'crm-1', price: '', purchased_at: '03/05/2026' }]);
		const lines = String(wordsOf(answers[0]).description).split('\n');
		expect(lines).toHaveLength(2);
		expect(lines.filter((line) => line.startsWith('Price: The cell mapped from the column "price"'))).toHaveLength(1);
		expect(lines.filter((line) => line.startsWith('Time: ') && line.includes('$json.purchased_at'))).toHaveLength(1);
		expect(String(wordsOf(answers[0]).description)).not.toContain('this field');
	});

	test('the same problem in every item is said once for the run', async () => {
		const items = [1, 2, 3].map((n) => ({ id: `crm-${n}`, price: '', purchased_at: '' }));
		const { error } = await user(trackPurchase({ time: '' }), items, { continueOnFail: false });
		expect(error?.message).toContain('"Price" is empty in all 3 items');
		expect(error?.message).not.toContain('more items are invalid');
		expect((error as { description?: string }).description).toContain(
			'The column "price" ({{ $json.price }}) has no value in any item',
		);
		expect(await client().requests({ path: '/users/track' })).toEqual([]);
	});
});

describe('a value sent as a date is visible as a date', () => {
	test("the item's answer lists the values as the platform received them", async () => {
		const items = [{ id: 'crm-1', signed_up: '2026-03-01', plan: 'gold' }];
		const { answers } = await user(
			{
				operation: 'updateAttributes',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				attributesFields: {
					assignments: [
						{ id: '1', name: 'signed_up', value: '={{ $json.signed_up }}', type: 'string' },
						{ id: '2', name: 'plan', value: '={{ $json.plan }}', type: 'string' },
					],
				},
			},
			items,
		);
		expect(wordsOf(answers[0]).sent).toEqual({ signed_up: '2026-03-01T00:00:00+01:00', plan: 'gold' });
		expect(await sentAttributes()).toEqual([
			{ external_id: 'crm-1', signed_up: '2026-03-01T00:00:00+01:00', plan: 'gold' },
		]);
	});

	test('a notice above the typed list says how a date is sent, where n8n 2.x shows it', () => {
		const node = packageNodeTypes()[USER_NODE] as INodeType;
		const properties = node.description.properties;
		for (const list of properties.filter((property) => property.type === 'assignmentCollection')) {
			const index = properties.indexOf(list);
			const notice = properties[index - 1] as INodeProperties;
			expect(notice.type).toBe('notice');
			expect(notice.displayOptions).toEqual(list.displayOptions);
			expect(notice.displayName).toContain('String');
			expect(notice.displayName).toContain('sent as a date');
			expect(notice.displayName).toContain('Workflow Settings → Timezone');
			// Update Attributes' and Track User Data's answers list what each item sent.
			if (list.name === 'attributesFields') expect(notice.displayName).toContain('"sent"');
		}
	});
});
