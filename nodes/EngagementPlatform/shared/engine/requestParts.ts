import type { IDataObject } from 'n8n-workflow';

import type { PlannedRequest } from './operation';
import type { Elements, RequestShape } from './requestShape';
import { declaredSlot } from './requestShape';

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
