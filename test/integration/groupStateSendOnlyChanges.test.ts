/**
 * Send Only Changes on Set Group State, Subscribe and Unsubscribe: the subscription endpoint's answer
 * proves no state, so the option could never leave an item out. The nodes do not offer it, nor read it
 * from a node's parameters that hold it: every state is sent each run. With or without it there, the
 * node notes the group states it set in what the workflow remembers, so that another node's Send Only
 * Changes keeps what it remembered and still sees the states this node set.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness';
import { deduplicationStore } from '../harness/deduplicationStore';
import { SUBSCRIPTION_NODE, USER_NODE } from '../support/nodeTypes';
import { statusOf } from '../support/nodeWords';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox({ subscriptionGroups: ['newsletter'] });
const store = deduplicationStore();
beforeEach(() => store.reset());

const WORKFLOW_ID = 'nightly-crm-sync';
const contacts = ['crm-0', 'crm-1', 'crm-2'].map((id) => ({ id, plan: 'gold' }));

/** The saved workflow: Start → Update Attributes (Send Only Changes) → Set Group State with Send Only Changes on. */
async function nightlyRun(groupStateOptions: INodeParameters = { sendOnlyChanges: true, resendEveryDays: 0 }) {
	const groupState: INodeParameters = {
		operation: 'setGroupState',
		subscriptionGroupId: 'newsletter',
		subscriptionState: 'subscribed',
		identifyBy: 'external_id',
		externalId: "={{ $('Start').item.json.id }}",
		options: groupStateOptions,
	};
	const result = await runWorkflow({
		workflowId: WORKFLOW_ID,
		nodes: [
			{
				id: 'a77f0000-0000-4000-8000-000000000001',
				name: 'Attributes',
				type: USER_NODE,
				parameters: {
					operation: 'updateAttributes',
					identifyBy: 'external_id',
					externalId: '={{ $json.id }}',
					attributesInput: 'json',
					attributesJson: '={{ { plan: $json.plan } }}',
					options: { sendOnlyChanges: true, resendEveryDays: 0 },
				},
			},
			{
				id: 'a77f0000-0000-4000-8000-000000000002',
				name: 'Newsletter',
				type: SUBSCRIPTION_NODE,
				parameters: groupState,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Attributes', type: 'main', index: 0 }]] },
			Attributes: { main: [[{ node: 'Newsletter', type: 'main', index: 0 }]] },
		},
		items: contacts,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
	});
	expect(result.error).toBeUndefined();
	return result;
}

/** What each request of the run since `after` carried: attribute objects' and group elements' external IDs. */
async function sentSince(after: number): Promise<{ attributes: string[]; groups: string[] }> {
	const requests = (await client().requests()).filter((request) => request.seq > after && request.status < 300);
	const body = (request: (typeof requests)[number]) => request.body as IDataObject;
	return {
		attributes: requests.flatMap((request) =>
			((body(request).attributes as IDataObject[] | undefined) ?? []).map((object) => String(object.external_id)),
		),
		groups: requests.flatMap((request) =>
			((body(request).subscription_groups as IDataObject[] | undefined) ?? []).flatMap(
				(element) => (element.external_ids as string[] | undefined) ?? [],
			),
		),
	};
}

const lastSeq = async () => Math.max(0, ...(await client().requests()).map((request) => request.seq));
const ids = contacts.map(({ id }) => id);

beforeEach(async () => await client().seed({ profiles: contacts.map(({ id }) => ({ external_id: id })) }));

test('the option held in the group-state node’s parameters is not read, and none is needed: the node sends every state and notes the states it sets, so the attribute node’s Send Only Changes keeps what it remembered', async () => {
	await nightlyRun();

	const before = await lastSeq();
	const second = await nightlyRun();

	expect(await sentSince(before)).toEqual({ attributes: [], groups: ids });
	expect(second.output('Attributes').map(({ json }) => statusOf(json))).toEqual(ids.map(() => 'unchanged'));
	// Each item answers with the state set.
	expect(second.output('Newsletter').map(({ json }) => statusOf(json))).toEqual(ids.map(() => 'subscribed'));
	expect(store.calls.filter(({ method }) => method === 'clearAllProcessedItems')).toEqual([]);
});

test('without the option in its parameters too: the group-state node notes what it sets instead of making the workflow forget', async () => {
	const withoutOption = async () => await nightlyRun({});
	await withoutOption();
	const before = await lastSeq();
	const second = await withoutOption();

	expect(await sentSince(before)).toEqual({ attributes: [], groups: ids });
	expect(second.output('Attributes').map(({ json }) => statusOf(json))).toEqual(ids.map(() => 'unchanged'));
});
