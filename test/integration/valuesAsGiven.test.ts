import type { IDataObject } from 'n8n-workflow';

import { USER, USER_NODE } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

/**
 * What a marketer's data holds reaches the platform as it is, or the item says why not; one item's
 * value, however odd, fails that item alone.
 */
const { sandbox, client, apiKey } = useSandbox();

const trackEvent = {
	operation: 'trackEvent',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	eventName: 'survey_done',
	time: '2026-11-24T02:00:00Z',
	propertiesInput: 'json',
	propertiesJson: '={{ $json.properties }}',
};

const run = async (items: IDataObject[]) =>
	await runNode(USER_NODE, {
		parameters: trackEvent,
		items,
		endpoint: sandbox().url,
		apiKey,
		continueOnFail: true,
	});

function nested(depth: number): IDataObject {
	let value: IDataObject = { leaf: 1 };
	for (let level = 0; level < depth; level++) value = { inner: value };
	return value;
}

describe('event properties as given', () => {
	test('255 characters are 255 code points: 128 emoji and 255 accented letters pass, as the spec counts characters', async () => {
		const emoji = '😀'.repeat(128);
		const accents = 'é'.repeat(255);
		const result = await run([{ id: 'u1', properties: { mood: emoji, note: accents } }]);
		expect(statusOf(result.output(USER)[0].json)).toBe('tracked');
		const [event] = (await client().state()).events;
		expect(event.properties).toEqual({ mood: emoji, note: accents });
	});

	test('256 emoji are too many, and the error counts them as 256', async () => {
		const result = await run([{ id: 'u1', properties: { mood: '😀'.repeat(256) } }]);
		expect(String(result.output(USER)[0].json.error)).toContain('256 characters');
	});

	test.each([
		['NaN inside an object', { scores: { average: Number.NaN } }, 'scores.average'],
		['Infinity inside an array', { ratios: [1, Number.POSITIVE_INFINITY] }, 'ratios[1]'],
	])(
		'%s is refused naming where, never sent as null; the good item beside it is sent',
		async (_, properties, where) => {
			const result = await run([
				{ id: 'u1', properties },
				{ id: 'u2', properties: { score: 3 } },
			]);
			const [bad, good] = result.output(USER).map(({ json }) => json);
			expect(wordsOf(bad)).toMatchObject({ status: 'failed', delivery: 'invalid' });
			expect(String(bad.error)).toContain(where);
			expect(String(bad.error)).toMatch(/finite number/);
			expect(statusOf(good)).toBe('tracked');
			const { events } = await client().state();
			expect(events.map((event) => event.properties)).toEqual([{ score: 3 }]);
		},
	);

	test('a value nested 20,000 deep fails its item alone; the good item beside it is sent', async () => {
		const result = await run([
			{ id: 'u1', properties: { tree: nested(20_000) } },
			{ id: 'u2', properties: { score: 3 } },
		]);
		const [deep, good] = result.output(USER).map(({ json }) => json);
		expect(wordsOf(deep)).toMatchObject({ status: 'failed', delivery: 'invalid' });
		expect(String(deep.error)).toMatch(/nested more than/);
		expect(statusOf(good)).toBe('tracked');
		expect((await client().state()).events).toHaveLength(1);
	});
});
