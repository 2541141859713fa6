import type { IDataObject, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';

import { loadPackageNodeTypes } from '../harness/package-types';
import { packageNodes } from '../conservation/nodeOperations';
import { OPERATION_ROWS } from '../conservation/operationsTable';
import {
	CATALOG,
	CATALOG_NODE,
	MESSAGE,
	MESSAGE_NODE,
	SUBSCRIPTION,
	SUBSCRIPTION_NODE,
	USER,
	USER_NODE,
} from '../support/nodeTypes';
import { statusOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

/**
 * Options come from each operation's declaration: the engine adds Batch Size where requests pack
 * several items, and the request options everywhere. The limits are the spec's, written in each
 * operation's row (test/conservation/<node>Cases.ts) independently of the nodes.
 */
const SPEC_BATCH_LIMITS: Record<string, number> = Object.fromEntries(
	OPERATION_ROWS.flatMap(({ nodeType, operation, batchLimit }) =>
		batchLimit === null ? [] : [[`${nodeType.split('.').pop()} / ${operation}`, batchLimit]],
	),
);
const REQUEST_OPTIONS = ['maxRateLimitWaitSeconds', 'parallelRequests', 'timeoutSeconds'];

function optionsOf(nodeType: string, operation: string): INodeProperties[] {
	const type = loadPackageNodeTypes()[nodeType] as INodeType;
	return type.description.properties.filter(
		(property) =>
			property.name === 'options' &&
			((property.displayOptions?.show?.operation as string[] | undefined) ?? []).includes(operation),
	);
}

describe('Options from the declaration', () => {
	const operations = packageNodes().operations;

	test.each(
		operations.map(({ nodeType, operation }) => [`${nodeType.split('.').pop()} / ${operation}`, nodeType, operation]),
	)(
		'%s has one Options collection with the request options, and Batch Size up to the spec limit where requests pack items',
		(id, nodeType, operation) => {
			const collections = optionsOf(nodeType, operation);
			expect(collections).toHaveLength(1);
			const fields = collections[0].options as INodeProperties[];
			expect(fields.map((field) => field.name)).toEqual(expect.arrayContaining(REQUEST_OPTIONS));
			const displayNames = fields.map((field) => field.displayName);
			expect(displayNames).toEqual([...displayNames].sort((a, b) => a.localeCompare(b)));

			const batchSize = fields.find((field) => field.name === 'batchSize');
			const limit = SPEC_BATCH_LIMITS[id];
			if (limit === undefined) {
				expect(batchSize).toBeUndefined();
			} else {
				expect(batchSize).toMatchObject({
					type: 'number',
					default: limit,
					typeOptions: { minValue: 1, maxValue: limit },
				});
				expect(batchSize!.description).toContain(`the platform allows ${limit}`);
			}
		},
	);

	test('Send Only Changes is offered where items set state an answer can prove, and nowhere else (events and purchases are occurrences; the subscription endpoint accepts an unknown user)', () => {
		const offering = operations
			.filter(({ nodeType, operation }) =>
				(optionsOf(nodeType, operation)[0].options as INodeProperties[]).some(({ name }) => name === 'sendOnlyChanges'),
			)
			.map(({ nodeType, operation }) => `${nodeType.split('.').pop()} / ${operation}`);
		expect(offering.sort()).toEqual([
			'engagementPlatformUser / trackUserData',
			'engagementPlatformUser / updateAttributes',
		]);
	});

	test('the table names only operations the nodes have', () => {
		const ids = new Set(operations.map(({ nodeType, operation }) => `${nodeType.split('.').pop()} / ${operation}`));
		expect(Object.keys(SPEC_BATCH_LIMITS).filter((id) => !ids.has(id))).toEqual([]);
	});
});

describe('Batch Size lowers every batched operation alike', () => {
	const { sandbox, client, apiKey } = useSandbox({ subscriptionGroups: ['sg-newsletter'] });
	const run = async (type: string, items: IDataObject[], parameters: INodeParameters) =>
		await runNode(type, { items, parameters, endpoint: sandbox().url, apiKey });
	const sizes = (requests: Array<{ body: unknown }>, count: (body: IDataObject) => number) =>
		requests.map(({ body }) => count(body as IDataObject));

	test('23 catalog rows at Batch Size 10: requests of 10, 10 and 3, each row accepted', async () => {
		await client().seed({
			catalogs: [{ name: 'menu', fields: [{ name: 'name', type: 'string' }], items: [] }],
		} as never);
		const rows = Array.from({ length: 23 }, (_, i) => ({ id: `m-${i}` }));

		const result = await run(CATALOG_NODE, rows, {
			operation: 'replaceItems',
			catalogName: 'menu',
			itemId: '={{ $json.id }}',
			fieldsInput: 'json',
			fieldsJson: '={"name": "Dish"}',
			options: { batchSize: 10 },
		});

		expect(result.error).toBeUndefined();
		expect(sizes(await client().requests({ method: 'PUT' }), (body) => (body.items as unknown[]).length)).toEqual([
			10, 10, 3,
		]);
		expect(result.output(CATALOG).map(({ json }) => statusOf(json))).toEqual(rows.map(() => 'accepted'));
	});

	test('25 users at Batch Size 10 of Set Group State: calls of 10, 10 and 5 users', async () => {
		const result = await run(
			SUBSCRIPTION_NODE,
			Array.from({ length: 25 }, (_, i) => ({ id: `u-${i}` })),
			{
				operation: 'setGroupState',
				subscriptionGroupId: 'sg-newsletter',
				subscriptionState: 'subscribed',
				externalId: '={{ $json.id }}',
				options: { batchSize: 10 },
			},
		);

		expect(result.error).toBeUndefined();
		const users = (body: IDataObject) =>
			(body.subscription_groups as IDataObject[]).reduce(
				(sum, element) => sum + (element.external_ids as unknown[]).length,
				0,
			);
		expect(sizes(await client().requests({ path: '/v2/subscription/status/set' }), users)).toEqual([10, 10, 5]);
		expect(result.output(SUBSCRIPTION)).toHaveLength(25);
	});

	test('Send Now at Batch Size 4 counts external IDs and aliases together', async () => {
		const items = Array.from({ length: 6 }, (_, i) =>
			i % 2 === 0 ? { by: 'external_id', id: `u-${i}` } : { by: 'user_alias', id: `a-${i}` },
		);
		await client().seed({
			profiles: items.map(({ by, id }) =>
				by === 'external_id' ? { external_id: id } : { user_aliases: [{ alias_name: id, alias_label: 'crm' }] },
			),
		});

		const result = await run(MESSAGE_NODE, items, {
			operation: 'sendNow',
			sendTo: 'users',
			identifyBy: '={{ $json.by }}',
			externalId: '={{ $json.id }}',
			aliasName: '={{ $json.id }}',
			aliasLabel: 'crm',
			messages: '{"email": {"app_id": "app", "subject": "Your order", "body": "<p>Thanks!</p>"}}',
			options: { batchSize: 4 },
		});

		expect(result.error).toBeUndefined();
		const recipients = (body: IDataObject) =>
			((body.external_user_ids as unknown[]) ?? []).length + ((body.user_aliases as unknown[]) ?? []).length;
		expect(sizes(await client().requests({ path: '/messages/send' }), recipients)).toEqual([4, 2]);
		expect(result.output(MESSAGE)).toHaveLength(6);
	});

	test('a Batch Size that is no number (a mapped expression) stops the node before sending, naming the option and the fix', async () => {
		const result = await run(USER_NODE, [{ id: 'u-1' }], {
			operation: 'trackEvent',
			externalId: '={{ $json.id }}',
			eventName: 'visited',
			options: { batchSize: '={{ "seventy" }}' },
		});

		expect(result.error?.message).toBe('Options → Batch Size must be a whole number from 1 to 75, got "seventy"');
		expect((result.error as { description?: string }).description).toContain(
			'or leave the option out for its default, 75',
		);
		expect(await client().requests()).toHaveLength(0);
	});

	test('Track Event keeps its own options: 50 combined objects under a Batch Size of 75', async () => {
		const result = await run(
			USER_NODE,
			Array.from({ length: 120 }, (_, i) => ({ id: `u-${i}` })),
			{
				operation: 'trackEvent',
				externalId: '={{ $json.id }}',
				eventName: 'visited',
				options: { batchSize: 75, combinedLimit: true },
			},
		);

		expect(result.error).toBeUndefined();
		expect(
			sizes(await client().requests({ path: '/users/track' }), (body) => (body.events as unknown[]).length),
		).toEqual([50, 50, 20]);
		expect(result.output(USER)).toHaveLength(120);
	});
});
