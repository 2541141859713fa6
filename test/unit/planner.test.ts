import type { Piece } from '../../nodes/EngagementPlatform/shared/engine/operation';
import type { Packing } from '../../nodes/EngagementPlatform/shared/engine/planner';
import { fewestRequests, planRequests } from '../../nodes/EngagementPlatform/shared/engine/planner';

const pieces = (slot: string, count: number, groupKey = ''): Piece[] =>
	Array.from({ length: count }, (_, itemIndex) => ({ itemIndex, slot, groupKey, payload: {} }));

const shapes: Array<[string, Piece[], Packing]> = [
	['1,000 events, 75 a request', pieces('events', 1000), { perSlot: 75 }],
	['events, attributes and purchases side by side', [...pieces('events', 150), ...pieces('attributes', 10), ...pieces('purchases', 76)], { perSlot: 75 }],
	['50 combined', [...pieces('events', 120), ...pieces('attributes', 90)], { perSlot: 75, perRequest: 50 }],
	['a shared limit above the per-slot one', [...pieces('events', 150), ...pieces('attributes', 10)], { perSlot: 75, perRequest: 80 }],
	['groups never share', [...pieces('events', 10, 'a'), ...pieces('events', 10, 'b')], { perSlot: 75 }],
	['a few slots per request', [...pieces('x', 3), ...pieces('y', 3), ...pieces('z', 3)], { perSlot: 50, slotsPerRequest: 2 }],
	['elements of 50 ids, several per request', [...pieces('a', 120), ...pieces('b', 30), ...pieces('c', 10)], { perSlot: 50, slotsPerRequest: 50, repeatSlots: true }],
	['elements of 50 ids, two per request', [...pieces('a', 120), ...pieces('b', 30), ...pieces('c', 10)], { perSlot: 50, slotsPerRequest: 2, repeatSlots: true }],
];

describe('batch planner', () => {
	test.each(shapes)('%s: the plan uses the fewest requests the limits allow and keeps every piece once', (_, input, packing) => {
		const plan = planRequests(input, packing);

		expect(plan).toHaveLength(fewestRequests(input, packing));
		const planned = plan.flatMap((request) => [...request.slots.values()].flat());
		expect(new Set(planned).size).toBe(input.length);
		for (const request of plan) {
			const counts = [...request.slots.values()].map((slot) => slot.length);
			expect(Math.max(...counts)).toBeLessThanOrEqual(packing.perSlot);
			expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(packing.perRequest ?? Infinity);
			expect(new Set([...request.slots.values()].flat().map((p) => p.groupKey)).size).toBe(1);
			expect(request.slots.size).toBeLessThanOrEqual(packing.slotsPerRequest ?? Infinity);
		}
	});
});
