import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PREFERENCE_CENTER, PREFERENCE_CENTER_NODE } from '../support/nodeTypes';
import { OUTPUT_FIELD, statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

import { installVirtualClock } from '../sequences/virtualClock';

// The 10-per-minute window is waited out on a virtual clock (../sequences/virtualClock.ts): the node and
// the in-process sandbox see the minute pass, the suite does not wait it.
jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	const clock = jest.requireActual<typeof import('../sequences/virtualClock')>('../sequences/virtualClock');
	return { ...actual, sleep: clock.virtualSleep(0.02) };
});
installVirtualClock();

const { sandbox, client, apiKey } = useSandbox();

const run = async (items: IDataObject[], parameters: INodeParameters, continueOnFail = false) =>
	await runNode(PREFERENCE_CENTER_NODE, { items, parameters, endpoint: sandbox().url, apiKey, continueOnFail });

const update = (updateFields: INodeParameters, overrides: INodeParameters = {}): INodeParameters => ({
	operation: 'update',
	preferenceCenterId: '={{ $json.id }}',
	updateFields,
	...overrides,
});

const CENTERS = ['newsletter', 'sms-alerts', 'loyalty'].map((id) => ({
	external_id: id,
	name: `${id} (old)`,
	state: 'draft' as const,
	created_at: '2026-01-05T10:00:00.000Z',
}));
const storedCenters = async () => (await client().state()).preferenceCenters as unknown as IDataObject[];

describe('Preference Center node', () => {
	beforeEach(async () => await client().seed({ preferenceCenters: CENTERS }));

	test.each([
		['only Meta Viewport Content', { meta_viewport_content: 'width=device-width' }],
		['only Link Tags', { links_tags: { tag: [{ rel: 'icon', href: 'https://example.com/new.png' }] } }],
	])(
		'%s: refused before sending, since the platform replaces Options whole and would clear the other',
		async (_, fields) => {
			const favicon = { rel: 'icon', href: 'https://example.com/favicon.png' };
			await client().seed({
				preferenceCenters: [
					{
						external_id: 'newsletter',
						name: 'n',
						options: { 'meta-viewport-content': 'initial-scale=1', 'links-tags': [favicon] },
					},
				],
			} as never);

			const result = await run([{ id: 'newsletter' }], update(fields as INodeParameters), true);

			expect(wordsOf(result.output(PREFERENCE_CENTER)[0].json)).toMatchObject({
				status: 'failed',
				delivery: 'invalid',
			});
			expect(await client().requests({ method: 'PUT' })).toHaveLength(0);
			expect((await storedCenters()).find((center) => center.external_id === 'newsletter')).toMatchObject({
				options: { 'meta-viewport-content': 'initial-scale=1', 'links-tags': [favicon] },
			});
		},
	);

	test('each item updates its preference center with one PUT; the sandbox holds the fields and the item the ids and times', async () => {
		const centers = [
			{ id: 'newsletter', title: 'Your newsletters' },
			{ id: 'sms-alerts', title: 'Text alerts' },
		];
		const result = await run(
			centers,
			update({
				name: '={{ $json.id }} 2027',
				preference_center_title: '={{ $json.title }}',
				preference_center_page_html: '<html><body>{{ "{{subscription_groups}}" }}</body></html>',
				state: 'active',
				meta_viewport_content: 'width=device-width, initial-scale=1',
				links_tags: {
					tag: [
						{ rel: 'icon', href: 'https://example.com/favicon.png', type: 'image/png', sizes: '32x32' },
						{ rel: 'icon', href: 'https://example.com/pin.svg', type: 'mask-icon', color: '#5bbad5' },
					],
				},
			}),
		);

		expect(result.error).toBeUndefined();
		const requests = await client().requests();
		expect(requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
			'PUT /preference_center/v1/newsletter',
			'PUT /preference_center/v1/sms-alerts',
		]);
		const [first] = result.output(PREFERENCE_CENTER);
		// The answer keeps the item's fields as they came, the node's words beside them.
		expect(first.json).toEqual({
			...centers[0],
			[OUTPUT_FIELD]: {
				status: 'updated',
				preference_center_id: 'newsletter',
				preference_center_api_id: 'newsletter',
				created_at: '2026-01-05T10:00:00.000Z',
				updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
			},
		});
		expect(first.pairedItem).toEqual({ item: 0 });
		expect((await storedCenters()).find((center) => center.external_id === 'newsletter')).toMatchObject({
			name: 'newsletter 2027',
			preference_center_title: 'Your newsletters',
			state: 'active',
			options: {
				'meta-viewport-content': 'width=device-width, initial-scale=1',
				'links-tags': [
					{ rel: 'icon', href: 'https://example.com/favicon.png', type: 'image/png', sizes: '32x32' },
					{ rel: 'icon', href: 'https://example.com/pin.svg', type: 'mask-icon', color: '#5bbad5' },
				],
			},
		});
		expect((await storedCenters()).find((center) => center.external_id === 'loyalty')).toMatchObject({
			name: 'loyalty (old)',
			state: 'draft',
		});
	});

	test('a platform that refuses PUT with 405: the run switches to POST once, says so in the log, and updates every item', async () => {
		await client().configure({ preferenceCenterMethods: ['POST'] });

		const result = await run(
			[{ id: 'newsletter' }, { id: 'sms-alerts' }, { id: 'loyalty' }],
			update({ state: 'active' }),
			false,
		);

		expect(result.error).toBeUndefined();
		expect(result.output(PREFERENCE_CENTER).map((item) => statusOf(item.json))).toEqual([
			'updated',
			'updated',
			'updated',
		]);
		const requests = await client().requests();
		expect(requests.filter((r) => r.method === 'POST')).toHaveLength(3);
		// Requests already under way when the first 405 came back were refused too; none after.
		expect(requests.filter((r) => r.method === 'PUT').every((r) => r.status === 405)).toBe(true);
		expect(
			result.logs.some((entry) => entry.message.includes('answered 405 to PUT; using POST for the rest of this run')),
		).toBe(true);
		expect((await storedCenters()).every((center) => center.state === 'active')).toBe(true);
	});

	test("11 updates within a minute: the node waits for the platform's 10-per-minute window instead of failing, and logs the wait", async () => {
		const ids = Array.from({ length: 11 }, (_, i) => `center-${i}`);
		await client().seed({ preferenceCenters: ids.map((id) => ({ external_id: id, name: id })) });

		const result = await run(
			ids.map((id) => ({ id })),
			update({ preference_center_title: 'Manage your messages' }),
		);

		expect(result.error).toBeUndefined();
		expect(result.output(PREFERENCE_CENTER)).toHaveLength(11);
		const requests = await client().requests({ method: 'PUT' });
		expect(requests.map((r) => r.status)).toEqual(Array(11).fill(200));
		const waits = result.logs.filter((entry) => /waiting \d+\.\d s for the documented rate limit/.test(entry.message));
		expect(waits.length).toBeGreaterThan(0);
	}, 90_000);

	test('the platform asking to wait (429) is waited out, and the wait is logged', async () => {
		await client().configure({ rateLimits: { preference_center: { limit: 1, windowMs: 2000 } } });

		const result = await run(
			[{ id: 'newsletter' }, { id: 'sms-alerts' }],
			update({ state: 'active' }, { options: { parallelRequests: 1 } }),
		);

		expect(result.error).toBeUndefined();
		expect(result.output(PREFERENCE_CENTER).map((item) => statusOf(item.json))).toEqual(['updated', 'updated']);
		expect(result.logs.some((entry) => entry.message.includes('waiting'))).toBe(true);
	});

	test('input is checked before sending: a color without mask-icon, a rel or type outside the spec', async () => {
		const result = await run(
			[
				{ id: 'newsletter', type: 'image/png', rel: 'icon' },
				{ id: 'sms-alerts', type: 'image/png', rel: 'icon', color: '#000000' },
				{ id: 'loyalty', type: 'image/jpeg', rel: 'icon' },
				{ id: 'newsletter', type: 'image/png', rel: 'stylesheet' },
			],
			update({
				meta_viewport_content: 'width=device-width',
				links_tags: {
					tag: [
						{
							rel: '={{ $json.rel }}',
							href: 'https://example.com/a.png',
							type: '={{ $json.type }}',
							color: '={{ $json.color ?? "" }}',
						},
					],
				},
			}),
			true,
		);

		const output = result.output(PREFERENCE_CENTER).map((item) => item.json);
		expect(statusOf(output[0])).toBe('updated');
		expect(output.slice(1).map((json) => [statusOf(json), wordsOf(json).field, wordsOf(json).delivery])).toEqual([
			['failed', 'Link Tags[0].Color', 'invalid'],
			['failed', 'Link Tags[0].Type', 'invalid'],
			['failed', 'Link Tags[0].Rel', 'invalid'],
		]);
		expect(result.output(PREFERENCE_CENTER).map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3].map((item) => ({ item })),
		);
		expect((await client().requests()).map((r) => r.path)).toEqual(['/preference_center/v1/newsletter']);
	});

	test('two items for one preference center would race: the second is refused before anything is sent', async () => {
		const result = await run([{ id: 'newsletter' }, { id: 'newsletter' }], update({ state: 'active' }));

		expect(result.error?.message).toContain('"newsletter" is also updated by row 1 (item 0)');
		expect(await client().requests()).toEqual([]);
	});

	test('an item with no field to update is refused with the fix', async () => {
		const result = await run([{ id: 'newsletter' }], update({}), true);

		expect(wordsOf(result.output(PREFERENCE_CENTER)[0].json)).toMatchObject({
			status: 'failed',
			field: 'Update Fields',
			description: 'Add at least one field under "Update Fields".',
		});
		expect(await client().requests()).toEqual([]);
	});

	test('an unknown preference center: the 404 lands on its item, the others are updated', async () => {
		const result = await run([{ id: 'newsletter' }, { id: 'no-such-center' }], update({ state: 'active' }), true);

		const [known, unknown] = result.output(PREFERENCE_CENTER).map((item) => item.json);
		expect(statusOf(known)).toBe('updated');
		expect(unknown).toMatchObject({ id: 'no-such-center', error: 'Row 2 (item 1): Preference center not found' });
		expect(wordsOf(unknown)).toMatchObject({ status: 'failed', httpCode: 404, delivery: 'not_applied' });
		expect(result.output(PREFERENCE_CENTER)[1].pairedItem).toEqual({ item: 1 });
	});

	test('without On Error set to continue, the 404 stops the node on its item, with the advice', async () => {
		const result = await run([{ id: 'no-such-center' }], update({ state: 'active' }));

		// The message names the row and n8n's item number, so n8n's editor adds no "[item 0]" of its own.
		expect(result.error?.message).toBe('Row 1 (item 0): Preference center not found');
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
		expect((result.error as { description?: string }).description).toContain('Check the IDs');
	});
});
