import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { USER } from '../support/nodeTypes';
import { OUTPUT_FIELD, statusOf, wordsOf } from '../support/nodeWords';
import { runUserNode } from '../support/userRuns';
import { useSandbox } from './sandboxLifecycle';
import { SIMPLE_FIELDS } from '../../nodes/EngagementPlatform/User/operations/export';

const { sandbox, client, apiKey } = useSandbox();

const run = async (items: IDataObject[], parameters: INodeParameters, continueOnFail = false) =>
	await runUserNode({ items, parameters, endpoint: sandbox().url, apiKey, continueOnFail });

const customers = (count: number) =>
	Array.from({ length: count }, (_, i) => ({
		external_id: `crm-${i}`,
		email: `customer${i}@example.com`,
		standard_attributes: { first_name: `Customer ${i}` },
		custom_attributes: { plan: i % 2 ? 'gold' : 'silver' },
	}));

/** The raw profile with the fields chosen (Simplify off). */
const exportById = (options: INodeParameters = {}): INodeParameters => ({
	operation: 'export',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	simplify: false,
	fieldsToExport: ['first_name', 'custom_attributes'],
	options,
});

describe('User node: Export by Identifier', () => {
	test('Simplify is on by default: the most used fields asked for, each present in every item, null where the profile has none', async () => {
		await client().seed({
			profiles: [
				...customers(2),
				{
					external_id: 'crm-full',
					email: 'full@example.com',
					custom_attributes: { plan: 'gold' },
				},
			],
		});

		const result = await run([{ id: 'crm-0' }, { id: 'crm-full' }, { id: 'nobody' }], {
			operation: 'export',
			identifyBy: 'external_id',
			externalId: '={{ $json.id }}',
			// Left in the parameters from a switch: Simplify decides the fields.
			fieldsToExport: ['custom_events'],
		});

		expect(result.error).toBeUndefined();
		const [request] = await client().requests({ path: '/users/export/ids' });
		expect((request.body as IDataObject).fields_to_export).toEqual([...SIMPLE_FIELDS].sort());
		expect((request.body as IDataObject).fields_to_export).not.toContain('custom_events');
		const output = result.output(USER);
		expect(output.map((item) => Object.keys(item.json))).toEqual([
			SIMPLE_FIELDS,
			SIMPLE_FIELDS,
			['status', 'external_id'],
		]);
		expect(output[0]).toMatchObject({
			json: {
				external_id: 'crm-0',
				email: 'customer0@example.com',
				first_name: 'Customer 0',
				last_name: null,
				phone: null,
				custom_attributes: { plan: 'silver' },
			},
			pairedItem: { item: 0 },
		});
		expect(output[1]).toMatchObject({
			json: { external_id: 'crm-full', first_name: null, custom_attributes: { plan: 'gold' } },
			pairedItem: { item: 1 },
		});
		expect(output[2]).toMatchObject({ json: { status: 'not_found', external_id: 'nobody' }, pairedItem: { item: 2 } });
	});

	test('Simplify mapped from a sheet reads its text as a yes/no field does: "false" gives the raw profile, "true" the simplified one', async () => {
		await client().seed({ profiles: customers(2) });

		const result = await run(
			[
				{ id: 'crm-0', simple: 'false' },
				{ id: 'crm-1', simple: 'true' },
			],
			{
				operation: 'export',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				simplify: '={{ $json.simple }}',
				fieldsToExport: ['first_name'],
			},
		);

		expect(result.output(USER).map((item) => item.json)).toEqual([
			{ external_id: 'crm-0', first_name: 'Customer 0' },
			expect.objectContaining({
				external_id: 'crm-1',
				first_name: 'Customer 1',
				last_name: null,
				email: 'customer1@example.com',
			}),
		]);
	});

	test('120 CRM IDs become 3 requests; found users come out paired to their item, unknown IDs as not_found', async () => {
		await client().seed({ profiles: customers(100) });
		const ids = Array.from({ length: 120 }, (_, i) => ({ id: `crm-${i}` }));

		const result = await run(ids, exportById());

		expect(result.error).toBeUndefined();
		const requests = await client().requests({ path: '/users/export/ids' });
		expect(requests.map((r) => (r.body as { external_ids: string[] }).external_ids.length)).toEqual([50, 50, 20]);
		expect((requests[0].body as IDataObject).fields_to_export).toEqual([
			'custom_attributes',
			'external_id',
			'first_name',
			'user_aliases',
		]);
		const output = result.output(USER);
		expect(output).toHaveLength(120);
		expect(output[7]).toMatchObject({
			json: { external_id: 'crm-7', first_name: 'Customer 7', custom_attributes: { plan: 'gold' } },
			pairedItem: { item: 7 },
		});
		expect(output[110]).toMatchObject({
			json: { status: 'not_found', external_id: 'crm-110' },
			pairedItem: { item: 110 },
		});
	});

	test('with "Drop Users Not Found", unknown IDs give no item', async () => {
		await client().seed({ profiles: customers(3) });

		const result = await run([{ id: 'crm-0' }, { id: 'nobody' }, { id: 'crm-2' }], exportById({ dropNotFound: true }));

		expect(result.output(USER).map((item) => [item.json.external_id, item.pairedItem])).toEqual([
			['crm-0', { item: 0 }],
			['crm-2', { item: 2 }],
		]);
	});

	test('an email goes one per request, and two profiles sharing it give two items paired to that input', async () => {
		await client().seed({
			profiles: [
				{ external_id: 'web-1', email: 'shared@example.com' },
				{ external_id: 'app-1', email: 'shared@example.com' },
				{ external_id: 'solo', email: 'solo@example.com' },
			],
		});

		const result = await run([{ email: 'shared@example.com' }, { email: 'solo@example.com' }], {
			...exportById(),
			identifyBy: 'email',
			email: '={{ $json.email }}',
		});

		expect(await client().requests({ path: '/users/export/ids' })).toHaveLength(2);
		expect(result.output(USER).map((item) => [item.json.external_id, item.pairedItem])).toEqual([
			['web-1', { item: 0 }],
			['app-1', { item: 0 }],
			['solo', { item: 1 }],
		]);
	});

	test('items asking for different fields never share a request', async () => {
		await client().seed({ profiles: customers(10) });
		const items = Array.from({ length: 10 }, (_, i) => ({
			id: `crm-${i}`,
			fields: i < 5 ? ['first_name'] : ['email'],
		}));

		const result = await run(items, { ...exportById(), fieldsToExport: '={{ $json.fields }}' });

		const requests = await client().requests({ path: '/users/export/ids' });
		expect(requests).toHaveLength(2);
		expect(result.output(USER)[0].json).toEqual({ external_id: 'crm-0', first_name: 'Customer 0' });
		expect(result.output(USER)[9].json).toEqual({ external_id: 'crm-9', email: 'customer9@example.com' });
	});
});

describe('User node: Identify', () => {
	const identifyAliases = (mergeBehavior = 'merge'): INodeParameters => ({
		operation: 'identify',
		externalId: '={{ $json.customer }}',
		identifyBy: 'user_alias',
		aliasName: '={{ $json.visitor }}',
		aliasLabel: 'web_visitor',
		mergeBehavior,
	});

	test('60 website visitors merge into their customer profiles in 2 requests, bringing their events along', async () => {
		await client().seed({
			profiles: [
				...customers(60),
				...Array.from({ length: 60 }, (_, i) => ({
					user_aliases: [{ alias_name: `visitor-${i}`, alias_label: 'web_visitor' }],
					custom_attributes: { last_page: '/pricing' },
					events: [{ name: 'viewed_pricing', time: '2026-11-01T10:00:00Z' }],
				})),
			],
		});
		const items = Array.from({ length: 60 }, (_, i) => ({ customer: `crm-${i}`, visitor: `visitor-${i}` }));

		const result = await run(items, identifyAliases());

		expect(result.error).toBeUndefined();
		expect(
			(await client().requests({ path: '/users/identify' })).map(
				(r) => (r.body as { aliases_to_identify: unknown[] }).aliases_to_identify.length,
			),
		).toEqual([50, 10]);
		// The answer says what happened, beside the item's fields as they came.
		expect(result.output(USER)[3].json).toEqual({
			...items[3],
			[OUTPUT_FIELD]: {
				status: 'identified',
				external_id: 'crm-3',
				user_alias: { alias_name: 'visitor-3', alias_label: 'web_visitor' },
				merge_behavior: 'merge',
			},
		});
		const { profiles } = await client().state();
		expect(profiles).toHaveLength(60);
		expect(profiles.find((p) => p.external_id === 'crm-3')).toMatchObject({
			user_aliases: [{ alias_name: 'visitor-3', alias_label: 'web_visitor' }],
			custom_attributes: { plan: 'gold', last_page: '/pricing' },
		});
		const exported = await run([{ id: 'crm-3' }], { ...exportById(), fieldsToExport: ['custom_events'] });
		expect(exported.output(USER)[0].json.custom_events).toEqual([
			expect.objectContaining({ name: 'viewed_pricing', count: 1 }),
		]);
	});

	test('items with different merge behaviours go in different requests', async () => {
		const items = Array.from({ length: 6 }, (_, i) => ({
			customer: `crm-${i}`,
			visitor: `v-${i}`,
			behavior: i % 2 ? 'none' : 'merge',
		}));

		await run(items, identifyAliases('={{ $json.behavior }}'));

		const requests = await client().requests({ path: '/users/identify' });
		expect(requests.map((r) => (r.body as IDataObject).merge_behavior).sort()).toEqual(['merge', 'none']);
	});

	test('when the platform identifies fewer profiles than were sent, every item of that request says so', async () => {
		await client().seed({
			profiles: [{ external_id: 'crm-1' }, { user_aliases: [{ alias_name: 'v-1', alias_label: 'web_visitor' }] }],
		});

		const result = await run(
			[
				{ customer: 'crm-1', visitor: 'v-1' },
				{ customer: 'crm-2', visitor: 'never-seen' },
			],
			identifyAliases(),
		);

		for (const item of result.output(USER)) {
			expect(wordsOf(item.json).warnings).toEqual([expect.stringContaining('identified 1 of the 2 profiles')]);
		}
	});

	test('identify by email whose answer is lost is not resent: the second profile sharing the email stays apart', async () => {
		await client().seed({
			profiles: [
				{ external_id: 'crm-9' },
				{ email: 'fan@example.com', custom_attributes: { source: 'newsletter' } },
				{ email: 'fan@example.com', custom_attributes: { source: 'shop' } },
			],
		});
		await client().injectFaults([{ path: '/users/identify', kind: 'reset-after', times: 1 }]);

		const result = await run(
			[{ customer: 'crm-9', email: 'fan@example.com' }],
			{
				operation: 'identify',
				externalId: '={{ $json.customer }}',
				identifyBy: 'email',
				email: '={{ $json.email }}',
				mergeBehavior: 'merge',
			},
			true,
		);

		expect(await client().requests({ path: '/users/identify' })).toHaveLength(1);
		expect(wordsOf(result.output(USER)[0].json)).toMatchObject({ status: 'failed', delivery: 'maybe_applied' });
		const emailOnly = (await client().state()).profiles.filter((profile) => profile.external_id === undefined);
		expect(emailOnly).toHaveLength(1);
	});

	test('an email-only profile merges with the chosen prioritization', async () => {
		await client().seed({
			profiles: [{ external_id: 'crm-9' }, { email: 'fan@example.com', custom_attributes: { source: 'newsletter' } }],
		});

		const result = await run([{ customer: 'crm-9', email: 'fan@example.com' }], {
			operation: 'identify',
			externalId: '={{ $json.customer }}',
			identifyBy: 'email',
			email: '={{ $json.email }}',
			prioritization: 'unidentifiedThenRecent',
			mergeBehavior: 'merge',
		});

		const [request] = await client().requests({ path: '/users/identify' });
		expect(request.body).toEqual({
			merge_behavior: 'merge',
			aliases_to_identify: [],
			emails_to_identify: [
				{ external_id: 'crm-9', email: 'fan@example.com', prioritization: ['unidentified', 'most_recently_updated'] },
			],
		});
		expect(result.output(USER)[0].json).toEqual({
			customer: 'crm-9',
			email: 'fan@example.com',
			[OUTPUT_FIELD]: {
				status: 'identified',
				external_id: 'crm-9',
				email: 'fan@example.com',
				merge_behavior: 'merge',
			},
		});
		const { profiles } = await client().state();
		expect(profiles).toEqual([
			expect.objectContaining({ external_id: 'crm-9', custom_attributes: { source: 'newsletter' } }),
		]);
	});
});

describe('User node: Rename External ID', () => {
	const rename: INodeParameters = {
		operation: 'renameExternalIds',
		currentExternalId: '={{ $json.from }}',
		newExternalId: '={{ $json.to }}',
	};

	test('renames share a request; each refused one gets its own error; the old ID stays as a deprecated one', async () => {
		await client().seed({
			profiles: [{ external_id: 'a' }, { external_id: 'b', deprecated_external_ids: ['b-old'] }, { external_id: 'c' }],
		});

		const result = await run(
			[
				{ from: 'a', to: 'a-new' },
				{ from: 'b-old', to: 'b-new' },
				{ from: 'c', to: 'a-new' },
			],
			rename,
			true,
		);

		expect(await client().requests({ path: '/users/external_ids/rename' })).toHaveLength(1);
		const [renamed, deprecated, taken] = result.output(USER);
		expect(renamed.json).toEqual({
			from: 'a',
			to: 'a-new',
			[OUTPUT_FIELD]: { status: 'renamed', current_external_id: 'a', new_external_id: 'a-new' },
		});
		expect(deprecated.json).toMatchObject({ from: 'b-old', to: 'b-new', error: expect.stringContaining('deprecated') });
		expect(wordsOf(deprecated.json)).toMatchObject({ status: 'failed', delivery: 'not_applied' });
		expect(taken.json).toMatchObject({ from: 'c', to: 'a-new', error: expect.stringContaining('already in use') });
		expect(wordsOf(taken.json)).toMatchObject({ status: 'failed', delivery: 'not_applied' });
		expect(taken.pairedItem).toEqual({ item: 2 });
		const { profiles } = await client().state();
		expect(profiles.find((p) => p.external_id === 'a-new')).toMatchObject({ deprecated_external_ids: ['a'] });
		expect(profiles.find((p) => p.external_id === 'c')).toBeDefined();
	});

	test('120 renames become 3 requests of 50, 50 and 20', async () => {
		await client().seed({ profiles: customers(120) });

		const result = await run(
			Array.from({ length: 120 }, (_, i) => ({ from: `crm-${i}`, to: `uuid-${i}` })),
			rename,
		);

		expect(result.error).toBeUndefined();
		expect(
			(await client().requests({ path: '/users/external_ids/rename' })).map(
				(r) => (r.body as { external_id_renames: unknown[] }).external_id_renames.length,
			),
		).toEqual([50, 50, 20]);
		expect(result.output(USER).every((item) => statusOf(item.json) === 'renamed')).toBe(true);
	});

	test('a rename to the same ID is refused before anything is sent', async () => {
		const result = await run([{ from: 'x', to: 'x' }], rename);

		// The message names the row and n8n's item number, so n8n's editor adds no "[item 0]" of its own.
		expect(result.error?.message).toBe(`Row 1 (item 0, from 'x'): "New External ID" is the same as the current one`);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
		expect(await client().requests()).toHaveLength(0);
	});
});
