import { isDatetimeString, isPlainObject, characters } from '../formats';

const MAX_NAME_LENGTH = 255;
const MAX_STRING_LENGTH = 255;
// "up to 100 KB": we read KB as 1,024 bytes and measure the properties object as UTF-8 JSON.
const MAX_NESTED_PAYLOAD_BYTES = 100 * 1024;

/** The spec's "Event properties rules", for event and purchase `properties`. Undefined when valid. */
export function propertiesProblem(properties: unknown): string | undefined {
	if (!isPlainObject(properties)) return 'properties must be an object';
	let nested = false;
	for (const [name, value] of Object.entries(properties)) {
		const nameProblem = propertyNameProblem(name);
		if (nameProblem) return `properties: ${nameProblem}`;
		const valueProblem = propertyValueProblem(value);
		if (valueProblem) return `properties.${name}: ${valueProblem}`;
		if (typeof value === 'object') nested = true;
	}
	if (nested) {
		const bytes = Buffer.byteLength(JSON.stringify(properties), 'utf8');
		if (bytes > MAX_NESTED_PAYLOAD_BYTES) {
			return `properties: a payload with array or object values may be at most 100 KB (${MAX_NESTED_PAYLOAD_BYTES} bytes); this one is ${bytes} bytes`;
		}
	}
	return undefined;
}

/** Also the rule for custom attribute names. */
export function propertyNameProblem(name: string): string | undefined {
	if (name === '') return 'names must not be empty';
	if (characters(name) > MAX_NAME_LENGTH)
		return `name '${name.slice(0, 40)}...' is longer than ${MAX_NAME_LENGTH} characters`;
	if (name.startsWith('$')) return `name '${name}' must not start with $`;
	return undefined;
}

// null is not among the spec's allowed value types, so it is refused rather than guessed at.
function propertyValueProblem(value: unknown): string | undefined {
	switch (typeof value) {
		case 'number':
		case 'boolean':
			return undefined;
		case 'string':
			// Datetime strings are short; any longer string breaks the 255 rule.
			return characters(value) > MAX_STRING_LENGTH
				? `strings may be at most ${MAX_STRING_LENGTH} characters (got ${characters(value)})`
				: undefined;
		case 'object':
			if (value === null) return 'null is not an allowed value (number, boolean, datetime, string, array or object)';
			if (Array.isArray(value) && containsDatetime(value)) return 'arrays cannot contain datetimes';
			return undefined;
		default:
			return 'value must be a number, boolean, datetime, string, array or object';
	}
}

function containsDatetime(values: unknown[]): boolean {
	return values.some((item) => isDatetimeString(item) || (Array.isArray(item) && containsDatetime(item)));
}
