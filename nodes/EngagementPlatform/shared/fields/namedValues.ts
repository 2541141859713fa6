import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Input } from './inputs';
import { inputOf } from './inputs';
import { FROM_VERSION_2 } from './displayOptions';
import { keyValueOrJsonFields, namedValuesReader } from './bodyFields';

type Show = NonNullable<INodeProperties['displayOptions']>['show'];

/** What keyValueOrJsonFields declares: the parameters' stem, labels, noun and example. */
type NamedValuesDeclaration = Parameters<typeof keyValueOrJsonFields>[0];

/**
 * Named values (properties, attributes, a catalog item's fields) as keyValueOrJsonFields offers them:
 * typed fields (version 2), key/value pairs (version 1) or one JSON object; undefined when none were
 * given. Errors name the typed list by its own label (Custom Attributes), the pairs and the JSON by the
 * field's.
 *
 * `beside` is an input shown just before the typed list, where the list is how the values are given
 * (Standard Attributes beside Custom Attributes): it is given the condition that shows it, and read
 * before the list, its values first and the list's over them.
 */
export function namedValues(
	field: NamedValuesDeclaration,
	beside?: (shownWithTypedList: Show) => Input<IDataObject>,
): Input<IDataObject | undefined> {
	const mode = `${field.name}Input`;
	const typedList = `${field.name}Fields`;
	const besideList = beside?.({ ...FROM_VERSION_2, [mode]: ['fields'] });
	const properties = keyValueOrJsonFields(field).flatMap((property) =>
		besideList && property.name === typedList ? [...besideList.properties, property] : [property],
	);
	const typedLabel = field.fieldsDisplayName ?? field.displayName;
	const asGivenValues = namedValuesReader(field.name, field.displayName);
	if (!besideList && typedLabel === field.displayName)
		return inputOf(field.name, field.displayName, properties, asGivenValues);
	const typedValues = namedValuesReader(field.name, typedLabel);
	return inputOf(field.name, field.displayName, properties, (item) => {
		if (!item.readsText || item.raw(mode, 'fields') !== 'fields') return asGivenValues(item);
		if (!besideList) return typedValues(item);
		const values = besideList.read(item);
		return { ...values, ...typedValues(item) };
	});
}
