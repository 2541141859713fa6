import type { IDataObject, INodeParameters } from 'n8n-workflow';

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
const { sandbox, client, apiKey } = useSandbox({ subscriptionGroups: ['newsletter'] });
const store = deduplicationStore();
const DAY = 86_400_000;
const EVERY_DAYS = 30;
const CONTACTS = Array.from({ length: 60 }, (_, i) => ({ id: `crm-${i}`, plan: 'gold' }));

beforeEach(() => store.reset());

interface AttributeSync {
	workflowId: string;
	nodeId: string;
	/** The node's Attributes (JSON) expression. */
	attributesJson: string;
	options: INodeParameters;
	items: IDataObject[];
	executionId?: string;
	additionalFields?: INodeParameters;
	onError?: 'stopWorkflow';
}

/** One saved workflow's Update Attributes by external ID, the contacts' `id`, run once. */
async function runAttributeSync(sync: AttributeSync) {
	return await runWorkflow({
		workflowId: sync.workflowId,
		...(sync.executionId ? { executionId: sync.executionId } : {}),
		nodes: [
			{
				id: sync.nodeId,
				name: USER,
				type: USER_NODE,
				parameters: {
					operation: 'updateAttributes',
					identifyBy: 'external_id',
					externalId: '={{ $json.id }}',
					attributesInput: 'json',
					attributesJson: sync.attributesJson,
					...(sync.additionalFields ? { additionalFields: sync.additionalFields } : {}),
					options: sync.options,
				},
				...(sync.onError ? { onError: sync.onError } : {}),
			},
		],
		connections: { Start: { main: [[{ node: USER, type: 'main', index: 0 }]] } },
		items: sync.items,
		credentials: { engagementPlatformApi: { restEndpoint: sandbox().url, apiKey } },
	});
}

async function sync(items: IDataObject[]) {
	const result = await runAttributeSync({
		workflowId: 'weekly-sync',
		nodeId: 'c0ffee00-0000-4000-8000-000000000030',
		attributesJson: '={{ { plan: $json.plan } }}',
		options: { sendOnlyChanges: true, resendEveryDays: EVERY_DAYS },
		items,
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

describe(`Resend Everything Every ${EVERY_DAYS} days, with one value changing every day`, () => {
	test('a contact sending its changed city alone each day still sends its unchanged plan within 30 days: when due, it is sent whole', async () => {
		scheduleStart += 1_000 * DAY;
		const contacts = CONTACTS.slice(0, 20);
		const planSent = new Map<string, number[]>(contacts.map(({ id }) => [id, [0]]));
		let lastSeq = 0;
		let partial = 0;
		for (const day of every(1, 120)) {
			moveClockBy(scheduleStart + day * DAY - virtualNow());
			const city = `city of day ${day}`;
			const result = await runAttributeSync({
				workflowId: 'daily-city-sync',
				nodeId: 'c0ffee00-0000-4000-8000-000000000031',
				attributesJson: `={{ { plan: $json.plan, home_city: "${city}" } }}`,
				options: { sendOnlyChanges: true, resendEveryDays: EVERY_DAYS },
				items: contacts,
			});
			expect(result.error).toBeUndefined();
			const requests = (await client().requests({ path: '/users/track' })).filter(({ seq }) => seq > lastSeq);
			lastSeq = Math.max(lastSeq, ...requests.map(({ seq }) => seq));
			const objects = requests.flatMap(({ body }) => (body as { attributes: IDataObject[] }).attributes);
			// Every contact's city changed: each is sent once, with the city, and the plan only when sent whole.
			expect(objects.map(({ external_id }) => external_id).sort()).toEqual(contacts.map(({ id }) => id).sort());
			for (const object of objects) {
				expect(object.home_city).toBe(city);
				if (object.plan !== undefined) planSent.get(String(object.external_id))!.push(day);
				else if (day > 0) partial++;
			}
		}
		const longestWait = Math.max(
			...[...planSent.values()].map((days) => Math.max(...[...days, 120].slice(1).map((day, i) => day - days[i]))),
		);
		expect(longestWait).toBeLessThanOrEqual(EVERY_DAYS);
		// Most days a contact sends its city alone.
		expect(partial).toBeGreaterThan(contacts.length * 120 * 0.8);
	});
});

describe('Resend Everything Every 3 days, after a run the node stopped (On Error: Stop Workflow)', () => {
	const newsletter = (state: string) => [{ subscription_group_id: 'newsletter', subscription_state: state }];
	let executions = 0;
	async function syncCrm(items: IDataObject[]) {
		const requestsBefore = (await client().requests({ path: '/users/track' })).length;
		const result = await runAttributeSync({
			workflowId: 'crm-sync-stops',
			executionId: `crm-sync-stops-${++executions}`,
			nodeId: 'c0ffee00-0000-4000-8000-000000000032',
			attributesJson: '={{ $json.attrs }}',
			additionalFields: { _update_existing_only: '={{ $json.updateOnly === true }}' },
			options: { sendOnlyChanges: true, resendEveryDays: 3 },
			onError: 'stopWorkflow',
			items,
		});
		const requests = (await client().requests({ path: '/users/track' })).slice(requestsBefore);
		const objects = requests.flatMap(({ body }) => (body as { attributes: IDataObject[] }).attributes);
		return { result, objects };
	}

	test('the contact the stopped run had the platform accept whole counts as sent then: a change 6 minutes later sends the changed parts alone, and 3 days later the contact is sent whole', async () => {
		await client().seed({ profiles: [{ external_id: 'crm-1' }] });
		scheduleStart += 1_000 * DAY;
		moveClockBy(scheduleStart - virtualNow());
		// crm-new has no profile yet: Update Existing Only refuses it, and the node stops the workflow,
		// after the platform accepted crm-1's object beside it.
		const stopped = await syncCrm([
			{ id: 'crm-new', updateOnly: true, attrs: { tier: 'bronze' } },
			{ id: 'crm-1', attrs: { city: 'Oslo', subscription_groups: newsletter('unsubscribed') } },
		]);
		expect(stopped.result.error).toBeDefined();
		expect(stopped.objects).toContainEqual({
			external_id: 'crm-1',
			_update_existing_only: false,
			city: 'Oslo',
			subscription_groups: newsletter('unsubscribed'),
		});
		const held = (await client().state()).profiles.find(({ external_id }) => external_id === 'crm-1');
		expect(held?.custom_attributes.city).toBe('Oslo');
		expect(held?.subscription_groups.newsletter).toBe('unsubscribed');

		// Six minutes later the CRM changes crm-1's city and tier: the newsletter state the platform
		// accepted from the stopped run is left out, the contact being sent whole 6 minutes before.
		const changed = {
			id: 'crm-1',
			attrs: { tier: 'gold', city: 'Lisbon', subscription_groups: newsletter('unsubscribed') },
		};
		moveClockBy(0.1 * 3_600_000);
		const partly = await syncCrm([changed]);
		expect(partly.result.error).toBeUndefined();
		expect(partly.objects).toEqual([
			{ external_id: 'crm-1', _update_existing_only: false, tier: 'gold', city: 'Lisbon' },
		]);
		const words = wordsOf(partly.result.output(USER)[0].json);
		expect(words.status).toBe('updated');
		expect(words.unchanged).toEqual(['subscription group newsletter']);

		// Three days after the stopped run's send, nothing has changed, and the contact is sent whole.
		moveClockBy(3 * DAY);
		const due = await syncCrm([changed]);
		expect(due.result.error).toBeUndefined();
		expect(due.objects).toEqual([
			{
				external_id: 'crm-1',
				_update_existing_only: false,
				tier: 'gold',
				city: 'Lisbon',
				subscription_groups: newsletter('unsubscribed'),
			},
		]);
		expect(statusOf(due.result.output(USER)[0].json)).toBe('updated');
	});
});

describe('Resend Everything Every 30 days, with a History Size holding about three nights', () => {
	// Eight attributes per contact: each night writes about fourteen entries a contact into n8n's store,
	// and History Size drops the oldest. What tells that a contact is not due yet must not be among them:
	// the same nights with a History Size that drops nothing resend the same contacts on the same nights.
	const contacts = Array.from({ length: 300 }, (_, i) => ({
		id: `night-${i}`,
		...Object.fromEntries(Array.from({ length: 8 }, (_, a) => [`attr_${a}`, `value ${a} of ${i}`])),
	}));
	const SMALL = 'nightly-small-history';
	const LARGE = 'nightly-large-history';
	const NODE_ID = 'c0ffee00-0000-4000-8000-000000000033';

	async function nightly(workflowId: string, historySize: number): Promise<string[]> {
		const result = await runAttributeSync({
			workflowId,
			nodeId: NODE_ID,
			attributesJson: '={{ Object.fromEntries(Object.entries($json).filter(([key]) => key.startsWith("attr_"))) }}',
			options: { sendOnlyChanges: true, resendEveryDays: EVERY_DAYS, historySize },
			items: contacts,
		});
		expect(result.error).toBeUndefined();
		return result
			.output(USER)
			.filter(({ json }) => statusOf(json) === 'updated')
			.map(({ json }) => String(wordsOf(json).external_id))
			.sort();
	}

	test('30 nights resend the same contacts on the same nights as with a History Size that drops nothing, none in the first week and each within the 30 days', async () => {
		scheduleStart += 1_000 * DAY;
		moveClockBy(scheduleStart - virtualNow());
		expect(await nightly(SMALL, 12_000)).toHaveLength(contacts.length);
		expect(await nightly(LARGE, 1_000_000)).toHaveLength(contacts.length);
		const resentSmall: string[][] = [];
		const resentLarge: string[][] = [];
		for (let night = 1; night <= 30; night++) {
			moveClockBy(DAY);
			resentSmall.push(await nightly(SMALL, 12_000));
			resentLarge.push(await nightly(LARGE, 1_000_000));
			expect(store.workflowEntriesOf(SMALL).length).toBeLessThanOrEqual(12_000);
		}
		// The small History Size did drop entries: more than three nights' worth were written.
		expect(store.workflowEntriesOf(LARGE).length).toBeGreaterThan(3 * 12_000);
		expect(resentSmall).toEqual(resentLarge);
		expect(resentSmall.slice(0, 6).flat()).toEqual([]);
		// Each contact sent again within the 30 days, none more than twice.
		expect(new Set(resentSmall.flat())).toEqual(new Set(contacts.map(({ id }) => id)));
		const times = new Map<string, number>();
		for (const id of resentSmall.flat()) times.set(id, (times.get(id) ?? 0) + 1);
		expect(Math.max(...times.values())).toBeLessThanOrEqual(2);
	});
});
