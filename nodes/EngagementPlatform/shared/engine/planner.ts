import type { Piece, PlannedRequest } from './operation';

/** How many pieces one request may carry. */
export interface Packing {
	/** Most pieces of one slot in one request (e.g. 75 events). */
	perSlot: number;
	/** Most pieces of all slots together in one request (e.g. 50 combined updates). */
	perRequest?: number;
	/** Most slots (or, with repeatSlots, slot chunks) in one request. */
	slotsPerRequest?: number;
	/**
	 * A slot may fill several chunks of `perSlot` pieces in one request, keyed `<slot>#<n>`
	 * (e.g. several subscription elements of 50 ids for the same group and state).
	 */
	repeatSlots?: boolean;
}

/**
 * Packs pieces into the fewest requests the limits allow. Pieces of different groups never
 * share a request; within a group each request is filled up to every limit before the next
 * one opens, which reaches the lower bound max(ceil(slot / perSlot), ceil(total / perRequest)).
 */
export function planRequests<Payload>(pieces: Array<Piece<Payload>>, packing: Packing): Array<PlannedRequest<Payload>> {
	const groups = new Map<string, Array<Piece<Payload>>>();
	for (const piece of pieces) {
		const group = groups.get(piece.groupKey);
		if (group) group.push(piece);
		else groups.set(piece.groupKey, [piece]);
	}
	const requests: Array<PlannedRequest<Payload>> = [];
	for (const [groupKey, groupPieces] of groups) {
		requests.push(...planGroup(groupKey, groupPieces, packing));
	}
	return requests;
}

function planGroup<Payload>(groupKey: string, pieces: Array<Piece<Payload>>, packing: Packing): Array<PlannedRequest<Payload>> {
	const bySlot = new Map<string, Array<Piece<Payload>>>();
	for (const piece of pieces) {
		const slot = bySlot.get(piece.slot);
		if (slot) slot.push(piece);
		else bySlot.set(piece.slot, [piece]);
	}

	const perRequest = packing.perRequest ?? Number.POSITIVE_INFINITY;
	const slotsPerRequest = packing.slotsPerRequest ?? Number.POSITIVE_INFINITY;
	const slotQueues = [...bySlot.entries()].map(([slot, queue]) => ({ slot, queue, next: 0 }));
	const requests: Array<PlannedRequest<Payload>> = [];

	while (slotQueues.some((q) => q.next < q.queue.length)) {
		const request: PlannedRequest<Payload> = { groupKey, slots: new Map(), pieceCount: 0 };
		// The slot with the most left goes first, so a shared per-request limit is spent where it is scarce.
		slotQueues.sort((a, b) => b.queue.length - b.next - (a.queue.length - a.next));
		for (const q of slotQueues) {
			let chunk = 0;
			while (q.next < q.queue.length && request.pieceCount < perRequest && request.slots.size < slotsPerRequest) {
				const take = Math.min(packing.perSlot, perRequest - request.pieceCount, q.queue.length - q.next);
				request.slots.set(packing.repeatSlots ? `${q.slot}#${chunk++}` : q.slot, q.queue.slice(q.next, q.next + take));
				request.pieceCount += take;
				q.next += take;
				if (!packing.repeatSlots) break;
			}
		}
		requests.push(request);
	}
	return requests;
}

/** The fewest requests the limits allow for these pieces: what the plan must reach. */
export function fewestRequests(pieces: Array<Piece<unknown>>, packing: Packing): number {
	const perGroup = new Map<string, Map<string, number>>();
	for (const piece of pieces) {
		const slots = perGroup.get(piece.groupKey) ?? new Map<string, number>();
		slots.set(piece.slot, (slots.get(piece.slot) ?? 0) + 1);
		perGroup.set(piece.groupKey, slots);
	}
	let total = 0;
	for (const slots of perGroup.values()) {
		const counts = [...slots.values()];
		const all = counts.reduce((sum, n) => sum + n, 0);
		const bySlot = Math.max(...counts.map((n) => Math.ceil(n / packing.perSlot)));
		const byTotal = packing.perRequest ? Math.ceil(all / packing.perRequest) : 0;
		const chunks = packing.repeatSlots ? counts.reduce((sum, n) => sum + Math.ceil(n / packing.perSlot), 0) : counts.length;
		const bySlotCount = packing.slotsPerRequest ? Math.ceil(chunks / packing.slotsPerRequest) : 0;
		if (packing.repeatSlots) {
			total += Math.max(bySlotCount, byTotal, 1);
			continue;
		}
		total += Math.max(bySlot, byTotal, bySlotCount);
	}
	return total;
}
