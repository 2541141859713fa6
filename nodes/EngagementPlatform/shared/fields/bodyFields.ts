import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemReader } from '../engine/read/readItems';
import { forVersion1, fromVersion2 } from './displayOptions';
import { keyValueOrJsonFields, namedValuesReader } from './keyValueOrJson';

/**
 * A field of a request object, declared once: the n8n properties the user fills in, the body key
 * its value goes under, how an item's value is read, and the label errors name it by (the
 * properties' display name). CONTRIBUTING.md, "Adding a field", shows one.
 */
export interface BodyField {
	key: string;
	label: string;
	properties: INodeProperties[];
	read(item: ItemReader): unknown;
}

/** One property for every node version, or the ones version 1 (as 1.0 saved it) and version 2 show. */
type Declared = INodeProperties | { version1: INodeProperties; fromVersion2: INodeProperties };

function propertiesOf(declared: Declared): { name: string; label: string; properties: INodeProperties[] } {
	if (!('version1' in declared)) return { name: declared.name, label: declared.displayName, properties: [declared] };
	return {
		name: declared.fromVersion2.name,
		label: declared.fromVersion2.displayName,
		properties: [...forVersion1([declared.version1]), ...fromVersion2([declared.fromVersion2])],
	};
}

/** Text, trimmed; empty is not set. `adjust` turns what was given into what is sent (a currency in capitals). */
export function textField(key: string, declared: Declared, adjust?: (text: string) => string): BodyField {
	const { name, label, properties } = propertiesOf(declared);
	return {
		key,
		label,
		properties,
		read(item) {
			const text = item.optionalString(name, label);
			return text === undefined || !adjust ? text : adjust(text);
		},
	};
}

/** A number; from version 2 a text that is exactly one, as `item.number` reads it (`example` shows one). */
export function numberField(key: string, declared: Declared, example: string): BodyField {
	const { name, label, properties } = propertiesOf(declared);
	// An unset number is its default only where today's declaration has one (Quantity 1; Price none).
	const current = 'version1' in declared ? declared.fromVersion2 : declared;
	const fallback = typeof current.default === 'number' ? current.default : undefined;
	return { key, label, properties, read: (item) => item.number(name, label, example, fallback) };
}

/** A date and time; from version 2 one without a zone is in the workflow's timezone. */
export function timeBodyField(key: string, declared: INodeProperties): BodyField {
	return { key, label: declared.displayName, properties: [declared], read: (item) => item.time(declared.name) };
}

/** Named values (properties, attributes): typed fields, key/value pairs or JSON, as keyValueOrJsonFields offers them. */
export function namedValuesField(key: string, field: Parameters<typeof keyValueOrJsonFields>[0]): BodyField {
	return {
		key,
		label: field.displayName,
		properties: keyValueOrJsonFields(field),
		read: namedValuesReader(field.name, field.displayName),
	};
}

/** A request object's fields in the order the panel shows them, with an "Additional Fields" collection last. */
export interface BodyFields {
	properties: INodeProperties[];
	/** Body key → the label the user sees, for parseOrThrow's errors. */
	labels: Record<string, string>;
	/** The item's object, each field under its body key, then the collection's options under their names. */
	read(item: ItemReader): IDataObject;
}

/** The fields of one request object; a collection's options are named by their body keys (`app_id`). */
export function bodyFields(fields: BodyField[], collection?: INodeProperties): BodyFields {
	const options = (collection?.options ?? []) as INodeProperties[];
	return {
		properties: [...fields.flatMap((field) => field.properties), ...(collection ? [collection] : [])],
		labels: Object.fromEntries([
			...fields.map((field) => [field.key, field.label]),
			...options.map((option) => [option.name, option.displayName]),
		]),
		read(item) {
			const body: IDataObject = {};
			for (const field of fields) body[field.key] = field.read(item) as IDataObject[string];
			return collection ? Object.assign(body, item.collection(collection.name, collection)) : body;
		},
	};
}
