import type { LoweredLimits, Piece, PlannedRequest } from './operation';
import type { RequestShape, Slot } from './requestShape';
import { declaredSlot } from './requestShape';

/**
 * Packs pieces into the fewest requests the declared limits allow. Pieces of different groups
 * never share a request; within a group each request is filled up to every limit before the next
 * one opens, which reaches the lower bound max(ceil(slot / slot max), ceil(total / total max)).
 */
export function planRequests<Group, Payload>(
	pieces: Array<Piece<Group, Payload>>,
	shape: RequestShape<Group, Payload>,
	lowered: LoweredLimits = {},
): Array<PlannedRequest<Group, Payload>> {
	const groups = new Map<string, Array<Piece<Group, Payload>>>();
	for (const piece of pieces) {
		declaredSlot(shape, piece.slot);
		const key = shape.groupKey?.(piece.group) ?? '';
		const group = groups.get(key);
		if (group) group.push(piece);
		else groups.set(key, [piece]);
	}
	const total = Math.min(shape.total ?? Number.POSITIVE_INFINITY, lowered.total ?? Number.POSITIVE_INFINITY);
	const requests: Array<PlannedRequest<Group, Payload>> = [];
	for (const groupPieces of groups.values()) {
		requests.push(...planGroup(groupPieces, shape, total, lowered));
	}
	return requests;
}

/** The most pieces of one slot a request may carry in this run. */
export function slotMax(slot: Slot<unknown>, lowered: LoweredLimits): number {
	return slot.form === 'list' || slot.form === 'elements'
		? Math.min(slot.max, lowered.perSlot ?? Number.POSITIVE_INFINITY)
		: slot.max;
}

function planGroup<Group, Payload>(
	pieces: Array<Piece<Group, Payload>>,
	shape: RequestShape<Group, Payload>,
	total: number,
	lowered: LoweredLimits,
): Array<PlannedRequest<Group, Payload>> {
	const bySlot = new Map<string, Array<Piece<Group, Payload>>>();
	for (const piece of pieces) {
		const slot = bySlot.get(piece.slot);
		if (slot) slot.push(piece);
		else bySlot.set(piece.slot, [piece]);
	}
	const queues = [...bySlot.entries()].map(([slot, queue]) => ({
		slot,
		queue,
		next: 0,
		max: slotMax(declaredSlot(shape, slot), lowered),
	}));
	const requests: Array<PlannedRequest<Group, Payload>> = [];

	while (queues.some((q) => q.next < q.queue.length)) {
		const request: PlannedRequest<Group, Payload> = { group: undefined as Group, slots: new Map(), pieceCount: 0 };
		// The slot with the most left goes first, so a shared total is spent where it is scarce.
		queues.sort((a, b) => b.queue.length - b.next - (a.queue.length - a.next));
		for (const q of queues) {
			const take = Math.min(q.max, total - request.pieceCount, q.queue.length - q.next);
			if (take <= 0) continue;
			const taken = q.queue.slice(q.next, q.next + take);
			if (request.pieceCount === 0) request.group = taken[0].group;
			request.slots.set(q.slot, taken);
			request.pieceCount += take;
			q.next += take;
		}
		requests.push(request);
	}
	return requests;
}
