import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemReader, RunReading } from '../engine/read/readItems';
import type { PlainValue } from '../engine/read/plainReading';
import { copyOf, NOT_PLAIN } from '../engine/read/plainReading';
import { hasKeys } from '../schemas/parse';
import type { Input } from './inputs';

/** "Additional Fields": the optional fields of an operation, each added with "Add Field"; options named by their body keys. */
export function additionalFieldsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}

/** A request object's fields in the order the panel shows them, with an "Additional Fields" collection last. */
export interface BodyFields {
	properties: INodeProperties[];
	/** Body key → the label the user sees, for parseOrThrow's errors. */
	labels: Record<string, string>;
	/** The item's object, each field under its body key, then the collection's options under their names. */
	read(item: ItemReader): IDataObject;
	/** `read` as the run's plain reading (undefined for an item it cannot decide); undefined where an input has none. */
	plain(run: RunReading): ((json: IDataObject | undefined) => IDataObject | undefined) | undefined;
}

/**
 * The fields of one request object, each an input (inputs.ts) under the body key its value goes to;
 * a collection's options are named by their body keys (`app_id`). CONTRIBUTING.md, "Adding a field".
 */
export function bodyFields(fields: Record<string, Input<unknown>>, collection?: INodeProperties): BodyFields {
	const keys = Object.keys(fields);
	const inputs = Object.values(fields);
	const options = (collection?.options ?? []) as INodeProperties[];
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
			return collection ? Object.assign(body, item.collection(collection.name, collection)) : body;
		},
		plain(run) {
			const readings: PlainValue[] = [];
			for (const input of inputs) {
				const reading = input.compile?.(run);
				if (!reading) return undefined;
				readings.push(reading);
			}
			// Options are added with "Add Field": a collection that maps a value per item is read in full.
			const options = collection
				? run.once([collection.name], (item) => item.collection(collection.name, collection))
				: {};
			if (options === NOT_PLAIN) return undefined;
			const hasOptions = hasKeys(options as IDataObject);
			return (json) => {
				const body: IDataObject = {};
				for (let index = 0; index < readings.length; index++) {
					const value = readings[index](json);
					if (value === NOT_PLAIN) return undefined;
					body[keys[index]] = value as IDataObject[string];
				}
				return hasOptions ? Object.assign(body, copyOf(options)) : body;
			};
		},
	};
}
