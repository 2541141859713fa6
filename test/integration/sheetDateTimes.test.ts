import type { IDataObject, INodeParameters, INodeProperties, INodeType, NodeExecutionHint } from 'n8n-workflow';

import { packageNodeTypes } from '../harness';
import { MESSAGE, MESSAGE_NODE, USER, USER_NODE } from '../support/nodeTypes';
import { wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

/**
 * Issue 34: a marketer's sheet or CRM writes dates and times its own way. Every time field reads
 * `2026-03-05 14:30` (and 2026-03-05, 2026-03-05 14:30:00, ISO 8601 with a space or a T) in the
 * workflow's timezone, sends the instant with the zone's offset, refuses ambiguous forms (03/05/2026,
 * 5.3.2026, Dec 3, 2026) naming the value and the forms taken, sends a typed list's String entry
 * written as a date as that instant, and names the timezone in the run's hints. The workflow's
 * timezone is Europe/Berlin (+01:00 in March) unless a test says otherwise.
 */
const { sandbox, client, apiKey } = useSandbox();

interface Run {
	answers: IDataObject[];
	hints: NodeExecutionHint[];
}

async function run(
	type: string,
	name: string,
	parameters: INodeParameters,
	items: IDataObject[],
	{ timezone = 'Europe/Berlin' }: { timezone?: string } = {},
): Promise<Run> {
	const result = await runNode(type, {
		items,
		parameters,
		timezone,
		continueOnFail: true,
		endpoint: sandbox().url,
		apiKey,
	});
	return {
		answers: result.output(name).map(({ json }) => json),
		hints: result.run.data.resultData.runData[name]?.[0]?.hints ?? [],
	};
}

const user = (parameters: INodeParameters, items: IDataObject[], options?: { timezone?: string }) =>
	run(USER_NODE, USER, parameters, items, options);
const message = (parameters: INodeParameters, items: IDataObject[], options?: { timezone?: string }) =>
	run(MESSAGE_NODE, MESSAGE, parameters, items, options);

const ZONELESS_HINT = {
	message: "Times without a zone were read in Europe/Berlin, this workflow's timezone (Workflow Settings → Timezone).",
	type: 'info',
	location: 'outputPane',
};
/** An answer's error (undefined when the item was accepted): the tests do not depend on the result's words. */
const refusal = (answer: IDataObject) => answer.error;
const zonelessHints = (hints: NodeExecutionHint[]) => hints.filter((hint) => hint.message.startsWith('Times without'));

const trackEvent = (extra: INodeParameters = {}): INodeParameters => ({
	operation: 'trackEvent',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	eventName: 'order_placed',
	time: '={{ $json.when }}',
	...extra,
});

const trackPurchase = (extra: INodeParameters = {}): INodeParameters => ({
	operation: 'trackPurchase',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	productId: 'sku-7',
	currency: 'EUR',
	price: '59.90',
	quantity: '1',
	time: '={{ $json.when }}',
	...extra,
});

const updateSchedule = (inLocalTime: boolean | string, extra: INodeParameters = {}): INodeParameters => ({
	operation: 'updateScheduledCanvas',
	canvasId: 'onboarding',
	scheduleId: '={{ $json.id }}',
	time: '={{ $json.when }}',
	inLocalTime,
	...extra,
});

const seedSchedules = async (...ids: string[]) =>
	await client().seed({
		canvases: [{ id: 'onboarding' }],
		canvasSchedules: ids.map((id) => ({
			canvas_id: 'onboarding',
			schedule_id: id,
			schedule: { time: '2026-12-01T09:00:00Z' },
		})),
	});

const storedSchedules = async () =>
	Object.fromEntries(
		(await client().state()).canvasSchedules.map(({ schedule_id, schedule }) => [schedule_id, schedule]),
	);

const updateAttributes = (assignments: INodeParameters[], extra: INodeParameters = {}): INodeParameters => ({
	operation: 'updateAttributes',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
	attributesFields: { assignments },
	...extra,
});

const customAttributesOf = async (externalId: string) =>
	(await client().state()).profiles.find((profile) => profile.external_id === externalId)?.custom_attributes;

describe('every kind of time field reads "2026-03-05 14:30" in the workflow timezone', () => {
	test('Track Event Time, dragged in per item and given once for all items', async () => {
		const mapped = await user(trackEvent(), [{ id: 'crm-1', when: '2026-03-05 14:30' }]);
		const constant = await user(trackEvent({ time: '2026-03-05 14:30:00' }), [{ id: 'crm-2' }]);
		expect([...mapped.answers, ...constant.answers].map(refusal)).toEqual([undefined, undefined]);
		const stored = (await client().state()).events.map((event) => event.time);
		expect(stored).toEqual(['2026-03-05T14:30:00+01:00', '2026-03-05T14:30:00+01:00']);
	});

	test('Track Purchase Time', async () => {
		const { answers } = await user(trackPurchase(), [{ id: 'crm-1', when: '2026-03-05 14:30' }]);
		expect(refusal(answers[0])).toBeUndefined();
		expect((await client().state()).purchases.map((purchase) => purchase.time)).toEqual(['2026-03-05T14:30:00+01:00']);
	});

	test("Track User Data: an event's and a purchase's time in the JSON", async () => {
		const { answers } = await user(
			{
				operation: 'trackUserData',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				eventsJson: '={{ [{ name: "order_placed", time: $json.when }] }}',
				purchasesJson: '={{ [{ product_id: "sku-7", currency: "EUR", price: 1, time: $json.when }] }}',
			},
			[{ id: 'crm-1', when: '2026-03-05 14:30' }],
		);
		expect(refusal(answers[0])).toBeUndefined();
		const { events, purchases } = await client().state();
		expect(events.map((event) => event.time)).toEqual(['2026-03-05T14:30:00+01:00']);
		expect(purchases.map((purchase) => purchase.time)).toEqual(['2026-03-05T14:30:00+01:00']);
	});

	test("Update Scheduled Canvas's Send Time: in the workflow timezone; with In Local Time each user's, its T restored", async () => {
		await seedSchedules('s-1', 's-2', 's-3');
		const { answers } = await message(updateSchedule('={{ $json.local }}'), [
			{ id: 's-1', when: '2026-03-05 14:30', local: false },
			{ id: 's-2', when: '2026-03-05 14:30', local: true },
			{ id: 's-3', when: '2026-03-05', local: true },
		]);
		expect(answers.map(refusal)).toEqual([undefined, undefined, undefined]);
		expect(await storedSchedules()).toEqual({
			's-1': { time: '2026-03-05T14:30:00+01:00', in_local_time: false },
			's-2': { time: '2026-03-05T14:30:00', in_local_time: true },
			's-3': { time: '2026-03-05T00:00:00', in_local_time: true },
		});
	});

	test('a standard attribute session date and a typed Date entry', async () => {
		const { answers } = await user(
			updateAttributes([{ id: '1', name: 'renewal', value: '={{ $json.when }}', type: 'dateTime' }], {
				standardAttributes: { mappingMode: 'defineBelow', value: { date_of_last_session: '={{ $json.when }}' } },
			}),
			[{ id: 'crm-1', when: '2026-03-05 14:30' }],
		);
		expect(refusal(answers[0])).toBeUndefined();
		const profile = (await client().state()).profiles.find((candidate) => candidate.external_id === 'crm-1');
		expect(profile?.custom_attributes).toEqual({ renewal: '2026-03-05T14:30:00+01:00' });
		expect(profile?.standard_attributes).toMatchObject({ date_of_last_session: '2026-03-05T14:30:00+01:00' });
	});
});

describe('an ambiguous or unknown form is refused, naming the field, the value and the forms taken', () => {
	const FORMS = 'expects a date (2026-12-03) or a date and time (2026-12-03 12:00, 2026-12-03T12:00:00Z) but got';
	const WRITTEN = ['03/05/2026', '5.3.2026', 'Dec 3, 2026'];

	test.each(WRITTEN)('Track Event Time %p; the good item beside it is sent', async (written) => {
		const { answers } = await user(trackEvent(), [
			{ id: 'crm-1', when: written },
			{ id: 'crm-2', when: '2026-03-05 14:30' },
		]);
		expect(wordsOf(answers[0])).toMatchObject({ status: 'failed', delivery: 'invalid', field: 'Time' });
		expect(String(answers[0].error)).toContain(`"Time" ${FORMS} '${written}'`);
		expect(String(wordsOf(answers[0]).description)).toContain(
			"Without a zone, it is in the workflow's timezone (Workflow Settings → Timezone).",
		);
		expect(refusal(answers[1])).toBeUndefined();
		expect((await client().state()).events.map((event) => event.time)).toEqual(['2026-03-05T14:30:00+01:00']);
	});

	test.each(WRITTEN)('Track Purchase Time %p', async (written) => {
		const { answers } = await user(trackPurchase(), [{ id: 'crm-1', when: written }]);
		expect(wordsOf(answers[0])).toMatchObject({ status: 'failed', delivery: 'invalid', field: 'Time' });
		expect(String(answers[0].error)).toContain(`"Time" ${FORMS} '${written}'`);
		expect((await client().state()).purchases).toEqual([]);
	});

	test.each(WRITTEN)('Send Time %p, with and without In Local Time', async (written) => {
		await seedSchedules('s-1', 's-2');
		const { answers } = await message(updateSchedule('={{ $json.local }}'), [
			{ id: 's-1', when: written, local: false },
			{ id: 's-2', when: written, local: true },
		]);
		for (const answer of answers) {
			expect(wordsOf(answer)).toMatchObject({ status: 'failed', delivery: 'invalid', field: 'Send Time' });
			expect(String(answer.error)).toContain(`"Send Time" ${FORMS} '${written}'`);
			// One problem for the field, not the schema's words beside it.
			expect(String(answer.error)).not.toContain('is not a datetime');
		}
		expect(String(wordsOf(answers[0]).description)).toContain("Without a zone, it is in the workflow's timezone");
		expect(String(wordsOf(answers[1]).description)).toContain("Without a zone, it is in each user's own time.");
		expect(await client().requests({ path: '/canvas/trigger/schedule/update' })).toEqual([]);
	});

	test("a problem of Time is listed with the item's other problems", async () => {
		const { answers } = await user(trackPurchase({ price: '={{ $json.price }}' }), [
			{ id: 'crm-1', when: 'Dec 3, 2026', price: 'ten' },
		]);
		expect(String(answers[0].error)).toContain(`"Time" ${FORMS} 'Dec 3, 2026'`);
		expect(String(answers[0].error)).toContain(`"Price" expects a number but got 'ten'`);
	});
});

describe('a typed list entry of type String written as a date is sent as a date', () => {
	test.each([
		['2026-03-01 10:00', '2026-03-01T10:00:00+01:00'],
		['2026-03-01 10:00:00', '2026-03-01T10:00:00+01:00'],
		['2026-03-01', '2026-03-01T00:00:00+01:00'],
		['2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z'],
		['2026-03-01 10:00:00+0530', '2026-03-01T10:00:00+05:30'],
		['abc 2026', 'abc 2026'],
		['03/01/2026', '03/01/2026'],
		['2026-02-30', '2026-02-30'],
	])('Custom Attribute signed_up %p is stored as %p', async (written, stored) => {
		const { answers } = await user(
			updateAttributes([{ id: '1', name: 'signed_up', value: '={{ $json.signed_up }}', type: 'string' }]),
			[{ id: 'crm-1', signed_up: written }],
		);
		expect(refusal(answers[0])).toBeUndefined();
		expect(await customAttributesOf('crm-1')).toEqual({ signed_up: stored });
	});

	test('an event property and a purchase property', async () => {
		await user(
			trackEvent({
				propertiesFields: {
					assignments: [
						{ id: '1', name: 'delivery_by', value: '={{ $json.delivery_by }}', type: 'string' },
						{ id: '2', name: 'note', value: 'gift 2026', type: 'string' },
					],
				},
			}),
			[{ id: 'crm-1', when: '2026-03-05T14:30:00Z', delivery_by: '2026-03-07' }],
		);
		await user(
			trackPurchase({
				propertiesFields: {
					assignments: [{ id: '1', name: 'shipped', value: '={{ $json.shipped }}', type: 'string' }],
				},
			}),
			[{ id: 'crm-1', when: '2026-03-05T14:30:00Z', shipped: '2026-03-06 09:15' }],
		);
		const { events, purchases } = await client().state();
		expect(events[0].properties).toEqual({ delivery_by: '2026-03-07T00:00:00+01:00', note: 'gift 2026' });
		expect(purchases[0].properties).toEqual({ shipped: '2026-03-06T09:15:00+01:00' });
	});

	test('a date of birth (dob) stays the calendar date the platform keeps it as', async () => {
		const { answers } = await user(updateAttributes([{ id: '1', name: 'dob', value: '1990-04-21', type: 'string' }]), [
			{ id: 'crm-1' },
		]);
		expect(refusal(answers[0])).toBeUndefined();
		const profile = (await client().state()).profiles.find((candidate) => candidate.external_id === 'crm-1');
		expect(profile?.standard_attributes).toMatchObject({ dob: '1990-04-21' });
	});

	test('JSON mode sends the text as written', async () => {
		await user(
			{
				operation: 'updateAttributes',
				identifyBy: 'external_id',
				externalId: '={{ $json.id }}',
				attributesInput: 'json',
				attributesJson: '{"signed_up": "2026-03-01 10:00"}',
			},
			[{ id: 'crm-1' }],
		);
		expect(await customAttributesOf('crm-1')).toEqual({ signed_up: '2026-03-01 10:00' });
	});

	test("the list's hint says so and names where the timezone is set", () => {
		const node = packageNodeTypes()[USER_NODE] as INodeType;
		const lists = node.description.properties.filter((property) => property.type === 'assignmentCollection');
		expect(lists.length).toBeGreaterThan(0);
		for (const list of lists) {
			expect(list.hint).toContain('Text written as a date (2026-03-01) or date and time (2026-03-01 14:30)');
			expect(list.hint).toContain('Workflow Settings → Timezone');
		}
	});
});

describe('the timezone is named', () => {
	const hintsOf = (type: string, operation: string) =>
		(packageNodeTypes()[type] as INodeType).description.properties
			.filter(
				(property: INodeProperties) =>
					property.name === 'time' &&
					(property.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
			)
			.map((property) => property.hint ?? '');

	test("every time field's hint names where the workflow's timezone is set", () => {
		for (const [type, operation] of [
			[USER_NODE, 'trackEvent'],
			[USER_NODE, 'trackPurchase'],
			[MESSAGE_NODE, 'updateScheduledCanvas'],
		]) {
			expect([operation, hintsOf(type, operation)]).toEqual([
				operation,
				[expect.stringContaining("the workflow's timezone (Workflow Settings → Timezone)")],
			]);
		}
	});

	test('a run that read a zoneless time adds one hint naming the zone', async () => {
		const { hints } = await user(trackEvent(), [
			{ id: 'crm-1', when: '2026-03-05 14:30' },
			{ id: 'crm-2', when: '2026-03-05 15:30' },
			{ id: 'crm-3', when: '2026-03-05T15:30:00Z' },
		]);
		expect(zonelessHints(hints)).toEqual([ZONELESS_HINT]);
	});

	test('the hint names the zone the workflow has (America/New_York)', async () => {
		const { hints } = await user(trackEvent(), [{ id: 'crm-1', when: '2026-03-05' }], {
			timezone: 'America/New_York',
		});
		expect(zonelessHints(hints)).toEqual([
			{
				...ZONELESS_HINT,
				message:
					"Times without a zone were read in America/New_York, this workflow's timezone (Workflow Settings → Timezone).",
			},
		]);
	});

	test.each([
		[
			'a typed String entry written as a date',
			updateAttributes([{ id: '1', name: 'd', value: '2026-03-01', type: 'string' }]),
		],
		['a typed Date entry', updateAttributes([{ id: '1', name: 'd', value: '2026-03-01 10:00', type: 'dateTime' }])],
		[
			'a standard attribute session date',
			updateAttributes([], {
				standardAttributes: { mappingMode: 'defineBelow', value: { date_of_first_session: '2026-03-01 10:00' } },
			}),
		],
		['a purchase Time given once', trackPurchase({ time: '2026-03-01 10:00' })],
	])('%s adds the hint', async (_, parameters) => {
		const { hints } = await user(parameters, [{ id: 'crm-1' }]);
		expect(zonelessHints(hints)).toEqual([ZONELESS_HINT]);
	});

	test("a zoneless Send Time adds it; one In Local Time does not (it is each user's)", async () => {
		await seedSchedules('s-1');
		const zoned = await message(updateSchedule(false), [{ id: 's-1', when: '2026-03-05 14:30' }]);
		expect(zonelessHints(zoned.hints)).toEqual([ZONELESS_HINT]);
		const local = await message(updateSchedule(true), [{ id: 's-1', when: '2026-03-05 14:30' }]);
		expect(zonelessHints(local.hints)).toEqual([]);
	});

	test('no hint when every time had a zone, or an empty Time was the time of the run', async () => {
		const zoned = await user(trackEvent(), [
			{ id: 'crm-1', when: '2026-03-05T14:30:00Z' },
			{ id: 'crm-2', when: '2026-03-05 14:30+01:00' },
			{ id: 'crm-3', when: '' },
		]);
		expect(zoned.answers.map(refusal)).toEqual([undefined, undefined, undefined]);
		expect(zonelessHints(zoned.hints)).toEqual([]);
		const text = await user(updateAttributes([{ id: '1', name: 'plan', value: 'gold', type: 'string' }]), [
			{ id: 'crm-1' },
		]);
		expect(zonelessHints(text.hints)).toEqual([]);
	});
});
