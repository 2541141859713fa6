import type { IDataObject } from 'n8n-workflow';

import type { LoweredLimits, Piece } from '../../nodes/EngagementPlatform/shared/engine/operation';
import { planRequests } from '../../nodes/EngagementPlatform/shared/engine/plan/planner';
import { requestParts } from '../../nodes/EngagementPlatform/shared/engine/plan/planner';
import type { RequestShape } from '../../nodes/EngagementPlatform/shared/engine/plan/planner';
import { fewestRequests } from '../support/fewestRequests';

type Group = { name: string } | undefined;

const pieces = (slot: string, count: number, group: Group = undefined): Array<Piece<Group>> =>
	Array.from({ length: count }, (_, itemIndex) => ({ itemIndex, slot, group, payload: { n: itemIndex } }));

const list = (field: string, max: number) => ({ form: 'list' as const, field, max });
const track: RequestShape<Group> = {
	slots: { events: list('events', 75), attributes: list('attributes', 75), purchases: list('purchases', 75) },
};
const perCatalog: RequestShape<Group> = {
	slots: { items: list('items', 50) },
	groupKey: (group) => group?.name ?? '',
	pathParams: (group) => ({ name: group!.name }),
};
const elements: RequestShape<Group> = {
	slots: {
		groups: {
			form: 'elements',
			field: 'subscription_groups',
			max: 50,
			elements: {
				max: 50,
				kindOf: (payload) => ({
					key: String(Number(payload.n) % 3),
					fields: { kind: Number(payload.n) % 3 },
					listField: 'ids',
					value: payload.n,
				}),
			},
		},
	},
	total: 50,
};

const shapes: Array<[string, Array<Piece<Group>>, RequestShape<Group>, LoweredLimits]> = [
	['1,000 events, 75 a request', pieces('events', 1000), track, {}],
	[
		'events, attributes and purchases side by side',
		[...pieces('events', 150), ...pieces('attributes', 10), ...pieces('purchases', 76)],
		track,
		{},
	],
	['50 combined', [...pieces('events', 120), ...pieces('attributes', 90)], track, { total: 50 }],
	[
		'a batch size below the declared limit',
		[...pieces('events', 150), ...pieces('attributes', 10)],
		track,
		{ perSlot: 20 },
	],
	[
		'catalogs never share',
		[...pieces('items', 10, { name: 'a' }), ...pieces('items', 60, { name: 'b' })],
		perCatalog,
		{},
	],
	['elements of one call hold 50 users in all', pieces('groups', 293), elements, {}],
];

describe('batch planner', () => {
	test.each(shapes)(
		'%s: the plan uses the fewest requests the limits allow and keeps every piece once',
		(_, input, shape, lowered) => {
			const plan = planRequests(input, shape, lowered);

			expect(plan).toHaveLength(fewestRequests(input, shape, lowered));
			const planned = plan.flatMap((request) => [...request.slots.values()].flat());
			expect(new Set(planned).size).toBe(input.length);
			for (const request of plan) {
				const counts = [...request.slots].map(([name, slot]) => [
					slot.length,
					Math.min(shape.slots[name].max, lowered.perSlot ?? Infinity),
				]);
				for (const [count, max] of counts) expect(count).toBeLessThanOrEqual(max);
				expect(request.pieceCount).toBeLessThanOrEqual(Math.min(shape.total ?? Infinity, lowered.total ?? Infinity));
				const keys = [...request.slots.values()].flat().map((piece) => shape.groupKey?.(piece.group) ?? '');
				expect(new Set(keys).size).toBe(1);
			}
		},
	);

	test('every slot of a request is built into its body, and the path is filled from the group', () => {
		const [request] = planRequests([...pieces('items', 2, { name: 'menu/1' })], perCatalog);
		expect(requestParts('/catalogs/{name}/items', perCatalog, request)).toEqual({
			path: '/catalogs/menu%2F1/items',
			body: { items: [{ n: 0 }, { n: 1 }] },
			qs: undefined,
		});

		const [mixed] = planRequests(
			[...pieces('events', 2), ...pieces('attributes', 1), ...pieces('purchases', 1)],
			track,
		);
		const body = requestParts('/users/track', track, mixed).body as IDataObject;
		expect(Object.keys(body).sort()).toEqual(['attributes', 'events', 'purchases']);
		expect([body.events, body.attributes, body.purchases].flat()).toHaveLength(4);
	});

	test('elements group their payloads by kind, every payload in one element', () => {
		const [request] = planRequests(pieces('groups', 7), elements);
		const built = requestParts('/v2/subscription/status/set', elements, request).body as {
			subscription_groups: Array<{ kind: number; ids: number[] }>;
		};
		expect(built.subscription_groups).toEqual([
			{ kind: 0, ids: [0, 3, 6] },
			{ kind: 1, ids: [1, 4] },
			{ kind: 2, ids: [2, 5] },
		]);
	});

	test('a piece whose slot the shape does not declare cannot be planned', () => {
		expect(() => planRequests(pieces('recipients', 1), track)).toThrow('The slot "recipients" is not declared');
	});

	test('one item per request: each piece is its own request, in item order, whatever its group', () => {
		const onePerRequest: RequestShape<Group> = {
			slots: { fields: { form: 'fields', max: 1 } },
			groupKey: (group) => group?.name ?? '',
		};
		const input = ['b', 'a', 'b'].map((name, itemIndex) => ({
			itemIndex,
			slot: 'fields',
			group: { name },
			payload: { n: itemIndex },
		}));
		const requests = planRequests(input, onePerRequest);
		expect(requests.map((request) => [request.group?.name, request.slots.get('fields')])).toEqual(
			input.map((piece) => [piece.group.name, [piece]]),
		);
		expect(() => planRequests([{ ...input[0], slot: 'other' }], onePerRequest)).toThrow('is not declared');
	});
});
