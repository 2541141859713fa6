import type { IDataObject } from 'n8n-workflow';

import type { Input } from '../../shared/fields/inputs';
import { inputOf } from '../../shared/fields/inputs';
import { keyValueOrJsonFields, namedValuesReader } from '../../shared/fields/bodyFields';

/**
 * Named values (properties, attributes) as keyValueOrJsonFields offers them: typed fields, key/value
 * pairs or one JSON object, read as one object, undefined when none were given. Named by its
 * display name.
 */
export function namedValues(field: Parameters<typeof keyValueOrJsonFields>[0]): Input<IDataObject | undefined> {
	return inputOf(
		field.name,
		field.displayName,
		keyValueOrJsonFields(field),
		namedValuesReader(field.name, field.displayName),
	);
}
