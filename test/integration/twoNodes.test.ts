/**
 * A workflow is several nodes. A profile sync split into two Update Attributes nodes (profile fields,
 * then scores) on the same contacts, Send Only Changes on both: each leaves out what the platform holds,
 * night after night, and the workflow's memory stays right under the last word.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../harness';
import { runWorkflow } from '../harness';
import { deduplicationStore } from '../harness/deduplicationStore';
import { USER_NODE } from '../support/nodeTypes';
import { statusOf } from '../support/nodeWords';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client, apiKey } = useSandbox();
const store = deduplicationStore();
beforeEach(() => store.reset());

const WORKFLOW_ID = 'two-node-sync';
const PROFILE = 'Profile';
const SCORES = 'Scores';

const updateAttributes = (attributes: string): INodeParameters => ({
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	attributesInput: 'json',
	attributesJson: `={{ ${attributes} }}`,
	options: { sendOnlyChanges: true },
});

/** Profile fields, then scores, of the same contacts: one node after the other. */
async function nightlySync(rows: IDataObject[]): Promise<RunResult> {
	return await runWorkflow({
		workflowId: WORKFLOW_ID,
		nodes: [
			{
				id: 'a1a1a1a1-0000-4000-8000-000000000001',
				name: PROFILE,
				type: USER_NODE,
				parameters: updateAttributes('{ first_name: $json.name, plan: $json.plan }'),
			},
			{
				id: 'a1a1a1a1-0000-4000-8000-000000000002',
				name: SCORES,
				type: USER_NODE,
				parameters: updateAttributes('{ score: $json.score, tier: $json.tier }'),
			},
		],
		connections: {
			Start: { main: [[{ node: PROFILE, type: 'main', index: 0 }]] },
			[PROFILE]: { main: [[{ node: SCORES, type: 'main', index: 0 }]] },
		},
		items: rows,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
	});
}

const CONTACTS = ['c-1', 'c-2', 'c-3'].map((id, index) => ({
	id,
	name: `Name ${index}`,
	plan: 'gold',
	score: 10 + index,
	tier: 'A',
}));

/** The attribute values the platform received since request `after`, as "contact key=value". */
async function valuesSent(after: number): Promise<string[]> {
	const requests = (await client().requests({ path: '/users/track' })).filter((request) => request.seq > after);
	return requests.flatMap((request) =>
		((request.body as { attributes?: IDataObject[] }).attributes ?? []).flatMap((object) =>
			Object.entries(object)
				.filter(([key]) => key !== 'external_id')
				.map(([key, value]) => `${String(object.external_id)} ${key}=${JSON.stringify(value)}`),
		),
	);
}

const lastSeq = async () => Math.max(0, ...(await client().requests()).map((request) => request.seq));
const statuses = (result: RunResult, node: string) => result.output(node).map((item) => statusOf(item.json));

test('two Update Attributes nodes on the same contacts: a night with nothing changed sends nothing, a changed score alone', async () => {
	const first = await nightlySync(CONTACTS);
	expect(first.error).toBeUndefined();
	expect(await valuesSent(0)).toHaveLength(12);

	const quiet = await lastSeq();
	const second = await nightlySync(CONTACTS);
	expect(await valuesSent(quiet)).toEqual([]);
	expect(statuses(second, PROFILE)).toEqual(['unchanged', 'unchanged', 'unchanged']);
	expect(statuses(second, SCORES)).toEqual(['unchanged', 'unchanged', 'unchanged']);

	const changed = await lastSeq();
	const third = await nightlySync(CONTACTS.map((row) => (row.id === 'c-2' ? { ...row, score: 99 } : row)));
	expect(await valuesSent(changed)).toEqual(['c-2 score=99']);
	expect(statuses(third, PROFILE)).toEqual(['unchanged', 'unchanged', 'unchanged']);
	expect(statuses(third, SCORES)).toEqual(['unchanged', 'updated', 'unchanged']);
});

test('two nodes setting one attribute to different values: the later node’s stays, and its run says why the next run sends everything', async () => {
	const twoTiers = async () =>
		await runWorkflow({
			workflowId: WORKFLOW_ID,
			nodes: [
				{
					id: 'a1a1a1a1-0000-4000-8000-000000000003',
					name: PROFILE,
					type: USER_NODE,
					parameters: updateAttributes('{ plan: $json.plan, tier: "A" }'),
				},
				{
					id: 'a1a1a1a1-0000-4000-8000-000000000004',
					name: SCORES,
					type: USER_NODE,
					parameters: updateAttributes('{ score: $json.score, tier: "B" }'),
				},
			],
			connections: {
				Start: { main: [[{ node: PROFILE, type: 'main', index: 0 }]] },
				[PROFILE]: { main: [[{ node: SCORES, type: 'main', index: 0 }]] },
			},
			items: CONTACTS,
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		});

	await twoTiers();
	const second = await twoTiers();

	const { profiles } = await client().state();
	expect(profiles.map((profile) => profile.custom_attributes.tier)).toEqual(['B', 'B', 'B']);
	const hints = (second.run.data.resultData.runData[SCORES][0].hints ?? []).map(({ message }) => message);
	expect(hints).toContainEqual(expect.stringMatching(/set "tier" of 3 contacts to another value in this execution/));
	// The earlier node's value was not held after the later one's: it is sent, never answered unchanged.
	expect(statuses(second, PROFILE)).not.toContain('unchanged');
});
