import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from './sandboxLifecycle';
import { runUserNode } from './userNode';

const { sandbox, client, apiKey } = useSandbox();

/**
 * Parameters that are plain field references (`{{ $json.a.b }}`) are read from the item rather
 * than by n8n's expression engine. The same mapping written so that only the engine can resolve
 * it (`{{ ($json.a.b) }}`) must give the same requests and the same items.
 */
const ITEMS: IDataObject[] = [
	{ customer: { id: 'c-1' }, 'event name': 'viewed', props: { sku: 'A', tags: ['x', 'y'] }, when: '2026-11-01T10:00:00Z' },
	{ customer: { id: 42 }, 'event name': 'bought', props: { nested: { deep: [1, { two: 2 }] } }, when: '2026-11-02T10:00:00Z' },
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
	const result = await runUserNode({ items: structuredClone(ITEMS), parameters: parameters(wrap), endpoint: sandbox().url, apiKey, continueOnFail: true });
	const bodies = (await client().requests()).map((request) => request.body);
	return { output: result.output('User').map((item) => ({ json: item.json, pairedItem: item.pairedItem })), bodies };
}

describe('reading parameters', () => {
	test('field references read from the item give exactly what n8n’s expression engine gives', async () => {
		const direct = await runWith((path) => `={{ ${path} }}`);
		const throughEngine = await runWith((path) => `={{ (${path}) }}`);

		expect(direct).toEqual(throughEngine);
		expect(direct.output.map((item) => item.json.error ?? item.json.status)).toEqual([
			'processed',
			'processed',
			'processed',
			expect.stringContaining('External ID'),
			expect.stringContaining('External ID'),
		]);
		expect(direct.bodies).toHaveLength(1);
	});

	test('a constant parameter gives every item the same value', async () => {
		const result = await runUserNode({
			items: [{ id: 'a' }, { id: 'b' }],
			parameters: { ...parameters((path) => `={{ ${path} }}`), externalId: '={{ $json.id }}', eventName: 'signed_up', time: '2026-11-01T10:00:00Z', propertiesJson: '{"plan": "gold"}' },
			endpoint: sandbox().url,
			apiKey,
		});

		expect(result.error).toBeUndefined();
		const [request] = await client().requests();
		expect((request.body as { events: IDataObject[] }).events.map((event) => [event.external_id, event.name, event.properties])).toEqual([
			['a', 'signed_up', { plan: 'gold' }],
			['b', 'signed_up', { plan: 'gold' }],
		]);
	});
});
