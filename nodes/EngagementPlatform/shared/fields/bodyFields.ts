import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemReader } from '../engine/read/readItems';
import type { Input } from './inputs';
import { collection as collectionInput } from './inputs';

/** A request object's fields in the order the panel shows them, with an "Additional Fields" collection last. */
export interface BodyFields {
	properties: INodeProperties[];
	/** Body key → the label the user sees, for parseOrThrow's errors. */
	labels: Record<string, string>;
	/** The item's object, each field under its body key, then the collection's options under their names. */
	read(item: ItemReader): IDataObject;
}

/** One request object's fields, each an input under its body key, a collection's options under theirs (`app_id`). */
export function bodyFields(fields: Record<string, Input<unknown>>, collection?: INodeProperties): BodyFields {
	const keys = Object.keys(fields);
	const inputs = Object.values(fields);
	const options = (collection?.options ?? []) as INodeProperties[];
	const additional = collection && collectionInput(collection);
	return {
		properties: [...inputs.flatMap((input) => input.properties), ...(collection ? [collection] : [])],
		labels: Object.fromEntries([
			...keys.map((key) => [key, fields[key].label]),
			...options.map((option) => [option.name, option.displayName]),
		]),
		read(item) {
			const body: IDataObject = {};
			for (let index = 0; index < keys.length; index++)
				body[keys[index]] = inputs[index].read(item) as IDataObject[string];
			return additional ? Object.assign(body, additional.read(item)) : body;
		},
	};
}
