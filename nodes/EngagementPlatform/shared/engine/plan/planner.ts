import type { IDataObject } from 'n8n-workflow';

/**
 * One piece of a request contributed by one input item. An item may contribute several
 * pieces (an order with three products gives three purchase objects); pieces of one item
 * may travel in different requests.
 */
export interface Piece<Group = unknown, Payload = IDataObject> {
	itemIndex: number;
	/** The declared slot the piece goes into, e.g. "events". */
	slot: string;
	/** What the whole request shares (a catalog, a message); pieces of unequal groups never share a request. */
	group: Group;
	payload: Payload;
	/** Who or what the piece is about (a user's identifier, an item ID), echoed in the item's result. */
	subject?: IDataObject;
}

export interface PlannedRequest<Group = unknown, Payload = IDataObject> {
	group: Group;
	/** Pieces by slot, in input order. */
	slots: Map<string, Array<Piece<Group, Payload>>>;
	pieceCount: number;
}

/** Limits a run may lower below the declared ones (Options such as Batch Size). */
export interface LoweredLimits {
	/** Most pieces of each list slot in one request. */
	perSlot?: number;
	/** Most pieces of all slots together in one request. */
	total?: number;
}

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
	// Where every slot holds one piece (the API takes one item per request), each piece is its own
	// request, in item order: there is nothing to pack.
	if (Object.values(shape.slots).every((slot) => slot.max === 1)) {
		return pieces.map((piece) => {
			declaredSlot(shape, piece.slot);
			return { group: piece.group, slots: new Map([[piece.slot, [piece]]]), pieceCount: 1 };
		});
	}
	const groups = new Map<string, Array<Piece<Group, Payload>>>();
	for (let index = 0; index < pieces.length; index++) {
		const piece = pieces[index];
		declaredSlot(shape, piece.slot);
		const key = shape.groupKey ? shape.groupKey(piece.group) : '';
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
	for (let index = 0; index < pieces.length; index++) {
		const piece = pieces[index];
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

/**
 * Where each piece of a request goes, declared once per operation. The engine builds every slot of
 * a request into its body or query; a piece whose slot is not declared cannot be planned.
 *
 * - list: the body field holds the slot's payloads, e.g. `events: [...]`.
 * - elements: the body field holds elements, each grouping payloads of one element kind under
 *   its own list field, e.g. `subscription_groups: [{subscription_group_id, ..., emails: [...]}]`.
 * - value: the body field holds the one payload, e.g. `recipient: {...}`.
 * - flag: the body field is true, e.g. `broadcast: true`.
 * - fields: the payload's fields are the body's (a request that is one item's).
 * - query: the payload's fields are the query string's.
 * - shared: the piece adds nothing of its own; it asks what its group asks (the path's ID, a
 *   lookup several items share).
 */
export type Slot<Payload = IDataObject> =
	| { form: 'list'; field: string; max: number; alwaysSent?: boolean }
	| { form: 'elements'; field: string; max: number; elements: Elements<Payload> }
	| { form: 'value' | 'flag'; field: string; max: 1 }
	| { form: 'fields' | 'query'; max: 1 }
	| { form: 'shared'; max: number };

/** How the payloads of an element slot form the elements of the body field. */
interface Elements<Payload> {
	/** Most payloads in one element. */
	max: number;
	/** Payloads of equal kinds share elements; the key is only compared, never read back. */
	kindOf(payload: Payload): { key: string; fields: IDataObject; listField: string; value: unknown };
}

export interface RequestShape<Group = unknown, Payload = IDataObject> {
	slots: Record<string, Slot<Payload>>;
	/** What a request packs, named by the Batch Size option it gets, e.g. "catalog items"; without it, no Batch Size. */
	batch?: string;
	/** Most pieces of all slots together in one request (e.g. 50 users per call). */
	total?: number;
	/** Pieces of groups with unequal keys never share a request; the key is only compared, never read back. */
	groupKey?(group: Group): string;
	/** The values of the endpoint path template's {name} parameters. */
	pathParams?(group: Group): Record<string, string>;
	/** Body fields every piece of the request shares. */
	groupBody?(group: Group): IDataObject;
	/** Query parameters every piece of the request shares. */
	groupQuery?(group: Group): IDataObject;
}

/** A shape's slot, or an error: a piece whose slot the body does not hold cannot be planned. */
function declaredSlot<Payload>(shape: RequestShape<unknown, Payload>, name: string): Slot<Payload> {
	const slot = shape.slots[name];
	if (!slot) throw new Error(`The slot "${name}" is not declared by the operation's request shape`);
	return slot;
}

export interface RequestParts {
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
}

/**
 * The path, body and query of one planned request, built from its group and every one of its
 * slots as the shape declares them: nothing a piece carries can be left out of the request.
 */
export function requestParts<Group, Payload>(
	pathTemplate: string,
	shape: RequestShape<Group, Payload>,
	request: PlannedRequest<Group, Payload>,
): RequestParts {
	const body: IDataObject = { ...shape.groupBody?.(request.group) };
	const qs: IDataObject = { ...shape.groupQuery?.(request.group) };
	for (const [name, slot] of Object.entries(shape.slots)) {
		const pieces = request.slots.get(name) ?? [];
		if (pieces.length === 0 && !(slot.form === 'list' && slot.alwaysSent)) continue;
		const payloads = pieces.map((piece) => piece.payload);
		switch (slot.form) {
			case 'list':
				body[slot.field] = payloads as unknown as IDataObject[];
				break;
			case 'elements':
				body[slot.field] = elementsOf(payloads, slot.elements);
				break;
			case 'value':
				body[slot.field] = payloads[0] as unknown as IDataObject;
				break;
			case 'flag':
				body[slot.field] = true;
				break;
			case 'fields':
				Object.assign(body, payloads[0]);
				break;
			case 'query':
				Object.assign(qs, payloads[0]);
				break;
			case 'shared':
				break;
		}
	}
	for (const name of request.slots.keys()) declaredSlot(shape, name);
	return {
		path: fillPath(pathTemplate, shape.pathParams?.(request.group) ?? {}),
		body: Object.keys(body).length > 0 ? body : undefined,
		qs: Object.keys(qs).length > 0 ? qs : undefined,
	};
}

/** Payloads grouped by kind, in order of first appearance, each element holding at most `max`. */
function elementsOf<Payload>(payloads: Payload[], elements: Elements<Payload>): IDataObject[] {
	const open = new Map<string, { element: IDataObject; list: unknown[] }>();
	const out: IDataObject[] = [];
	for (const payload of payloads) {
		const { key, fields, listField, value } = elements.kindOf(payload);
		let current = open.get(key);
		if (!current || current.list.length >= elements.max) {
			current = { element: { ...fields }, list: [] };
			current.element[listField] = current.list as IDataObject[];
			open.set(key, current);
			out.push(current.element);
		}
		current.list.push(value);
	}
	return out;
}

/** Fills each {name} of the template, encoded; a parameter the group does not give is a declaration error. */
function fillPath(template: string, params: Record<string, string>): string {
	return template.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined)
			throw new Error(`The path ${template} needs "${name}", which the request's group does not give`);
		return encodeURIComponent(value);
	});
}
