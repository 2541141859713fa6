import type { LoweredLimits, Piece } from '../../nodes/EngagementPlatform/shared/engine/operation';
import { slotMax } from '../../nodes/EngagementPlatform/shared/engine/plan/planner';
import type { RequestShape } from '../../nodes/EngagementPlatform/shared/engine/plan/planner';

/**
 * The fewest requests a shape's limits allow for these pieces, counted independently of the
 * planner: per group, the most any one slot needs, or the shared total, whichever is more.
 */
export function fewestRequests<Group, Payload>(
	pieces: Array<Piece<Group, Payload>>,
	shape: RequestShape<Group, Payload>,
	lowered: LoweredLimits = {},
): number {
	const perGroup = new Map<string, Map<string, number>>();
	for (const piece of pieces) {
		const key = shape.groupKey?.(piece.group) ?? '';
		const slots = perGroup.get(key) ?? new Map<string, number>();
		slots.set(piece.slot, (slots.get(piece.slot) ?? 0) + 1);
		perGroup.set(key, slots);
	}
	const total = Math.min(shape.total ?? Infinity, lowered.total ?? Infinity);
	let requests = 0;
	for (const slots of perGroup.values()) {
		const all = [...slots.values()].reduce((sum, n) => sum + n, 0);
		const bySlot = Math.max(...[...slots].map(([name, n]) => Math.ceil(n / slotMax(shape.slots[name], lowered))));
		requests += Math.max(bySlot, Number.isFinite(total) ? Math.ceil(all / total) : 0);
	}
	return requests;
}
