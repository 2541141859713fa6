import type { IDataObject } from 'n8n-workflow';

import { runWorkflow } from '../harness';
import { deduplicationStore } from '../harness/deduplicationStore';
import { USER, USER_NODE } from '../support/nodeTypes';
import { statusOf, wordsOf } from '../support/nodeWords';
import { installVirtualClock, moveClockBy, virtualNow } from '../sequences/virtualClock';
import { useSandbox } from './sandboxLifecycle';

/**
 * Resend Everything Every (Days) as a fact per contact: a sync whose values never change, run on a
 * schedule, sends each contact again at least once in that many days, whatever the schedule (daily,
 * every other day, weekly, with manual runs in between), and never resends everyone in one run.
 * Days pass on a virtual clock between runs.
 */
installVirtualClock();
const { sandbox, client, apiKey } = useSandbox();
const store = deduplicationStore();
const DAY = 86_400_000;
const EVERY_DAYS = 30;
const CONTACTS = Array.from({ length: 60 }, (_, i) => ({ id: `crm-${i}`, plan: 'gold' }));

beforeEach(() => store.reset());

async function sync(items: IDataObject[]) {
	const result = await runWorkflow({
		workflowId: 'weekly-sync',
		nodes: [
			{
				id: 'c0ffee00-0000-4000-8000-000000000030',
				name: USER,
				type: USER_NODE,
				parameters: {
					operation: 'updateAttributes',
					identifyBy: 'external_id',
					externalId: '={{ $json.id }}',
					attributesInput: 'json',
					attributesJson: '={{ { plan: $json.plan } }}',
					options: { sendOnlyChanges: true, resendEveryDays: EVERY_DAYS },
				},
			},
		],
		connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
		items,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
	});
	expect(result.error).toBeUndefined();
	return result
		.output(USER)
		.filter(({ json }) => statusOf(json) === 'updated')
		.map(({ json }) => String(wordsOf(json).external_id));
}

/** Runs the sync at each day offset; returns every contact's send times (days) and the most sent in one run. */
/** Each schedule starts on its own fixed day, so the contacts' turns fall the same way every time. */
let scheduleStart = Date.UTC(2031, 0, 1);

async function runSchedule(days: number[]) {
	scheduleStart += 1_000 * DAY;
	const start = scheduleStart;
	const sends = new Map<string, number[]>();
	let mostInOneRun = 0;
	for (const [index, day] of days.entries()) {
		moveClockBy(start + day * DAY - virtualNow());
		const sent = await sync(CONTACTS);
		if (index > 0) mostInOneRun = Math.max(mostInOneRun, sent.length);
		for (const id of sent) sends.set(id, [...(sends.get(id) ?? []), day]);
	}
	const last = days[days.length - 1];
	const longestWait = Math.max(
		...CONTACTS.map(({ id }) => {
			const times = [...(sends.get(id) ?? []), last];
			return Math.max(...times.slice(1).map((time, i) => time - times[i]));
		}),
	);
	return { longestWait, mostInOneRun, contactsSent: sends.size };
}

const every = (interval: number, until: number) =>
	Array.from({ length: Math.floor(until / interval) + 1 }, (_, i) => i * interval);

describe(`Resend Everything Every ${EVERY_DAYS} days, with values that never change`, () => {
	// The most contacts one run after the first may resend (those first sent together come due over half of the bound).
	test.each([
		['weekly', every(7, 120), 0.65],
		['every other day', every(2, 120), 0.45],
		['every three days', every(3, 120), 0.55],
		['daily', every(1, 120), 0.3],
		['weekly, with a manual run the day after each', every(7, 120).flatMap((day) => [day, day + 1]), 0.65],
	])(
		'%s: every contact is sent again within 30 days, and no run after the first resends everyone',
		async (_, days, mostShare) => {
			const { longestWait, mostInOneRun, contactsSent } = await runSchedule(days);

			// Every contact's answer is read as a send (an Update Attributes item that was sent says "updated").
			expect(contactsSent).toBe(CONTACTS.length);
			expect(longestWait).toBeLessThanOrEqual(EVERY_DAYS);
			expect(mostInOneRun).toBeLessThanOrEqual(CONTACTS.length * mostShare);
		},
	);
});

/**
 * Found by the state sequences (seed 263493253, sequence 965, shrunk): the node stopped a run (On Error:
 * Stop Workflow) after the platform had accepted one contact's object whole. The node remembers that
 * acceptance, so the same rows soon after leave the contact out, and it is sent again when due.
 */
describe('Resend Everything Every 3 days, after a run the node stopped (On Error: Stop Workflow)', () => {
	let executions = 0;
	async function syncCrm(items: IDataObject[]) {
		const requestsBefore = (await client().requests({ path: '/users/track' })).length;
		const result = await runWorkflow({
			workflowId: 'crm-sync-stops',
			executionId: `crm-sync-stops-${++executions}`,
			nodes: [
				{
					id: 'c0ffee00-0000-4000-8000-000000000032',
					name: USER,
					type: USER_NODE,
					parameters: {
						operation: 'updateAttributes',
						identifyBy: 'external_id',
						externalId: '={{ $json.id }}',
						attributesInput: 'json',
						attributesJson: '={{ $json.attrs }}',
						additionalFields: { _update_existing_only: '={{ $json.updateOnly === true }}' },
						options: { sendOnlyChanges: true, resendEveryDays: 3 },
					},
					onError: 'stopWorkflow',
				},
			],
			connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
			items,
			credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
		});
		const requests = (await client().requests({ path: '/users/track' })).slice(requestsBefore);
		const objects = requests.flatMap(({ body }) => (body as { attributes: IDataObject[] }).attributes);
		return { result, objects };
	}

	test('the contact the stopped run had the platform accept whole is unchanged 6 minutes later, and sent whole 3 days later', async () => {
		await client().seed({ profiles: [{ external_id: 'crm-1' }] });
		scheduleStart += 1_000 * DAY;
		moveClockBy(scheduleStart - virtualNow());
		// crm-new has no profile yet: Update Existing Only refuses it, and the node stops the workflow,
		// after the platform accepted crm-1's object beside it.
		const crm1 = { id: 'crm-1', attrs: { city: 'Lisbon', tier: 'gold' } };
		const stopped = await syncCrm([{ id: 'crm-new', updateOnly: true, attrs: { tier: 'bronze' } }, crm1]);
		expect(stopped.result.error).toBeDefined();
		expect(stopped.objects).toContainEqual({
			external_id: 'crm-1',
			_update_existing_only: false,
			city: 'Lisbon',
			tier: 'gold',
		});
		const held = (await client().state()).profiles.find(({ external_id }) => external_id === 'crm-1');
		expect(held?.custom_attributes.city).toBe('Lisbon');

		moveClockBy(0.1 * 3_600_000);
		const soon = await syncCrm([crm1]);
		expect(soon.result.error).toBeUndefined();
		expect(soon.objects).toEqual([]);
		expect(statusOf(soon.result.output(USER)[0].json)).toBe('unchanged');

		moveClockBy(3 * DAY);
		const due = await syncCrm([crm1]);
		expect(due.result.error).toBeUndefined();
		expect(due.objects).toEqual([{ external_id: 'crm-1', _update_existing_only: false, city: 'Lisbon', tier: 'gold' }]);
		expect(statusOf(due.result.output(USER)[0].json)).toBe('updated');
	});
});
