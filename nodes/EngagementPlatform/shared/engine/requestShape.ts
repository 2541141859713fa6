import type { IDataObject } from 'n8n-workflow';

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
export interface Elements<Payload> {
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
export function declaredSlot<Payload>(shape: RequestShape<unknown, Payload>, name: string): Slot<Payload> {
	const slot = shape.slots[name];
	if (!slot) throw new Error(`The slot "${name}" is not declared by the operation's request shape`);
	return slot;
}
