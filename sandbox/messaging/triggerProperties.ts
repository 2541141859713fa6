import { isPlainObject } from '../formats';

export type PropertiesField = 'trigger_properties' | 'canvas_entry_properties';

// Spec Limits: canvas_entry_properties at most 50 KB. Read as 1,024-byte KB of UTF-8 JSON, like the
// 100 KB of event properties. trigger_properties have no stated limit.
const MAX_CANVAS_ENTRY_PROPERTIES_BYTES = 50 * 1024;

/** A request's or a recipient's personalization object: any key-value pairs, within the size limit. */
export function triggerPropertiesProblem(field: PropertiesField, value: unknown, path: string): string | undefined {
	if (!isPlainObject(value)) return `${path} must be an object of key-value pairs`;
	if (field !== 'canvas_entry_properties') return undefined;
	const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
	return bytes > MAX_CANVAS_ENTRY_PROPERTIES_BYTES
		? `${path} may be at most 50 KB (${MAX_CANVAS_ENTRY_PROPERTIES_BYTES} bytes); this one is ${bytes} bytes`
		: undefined;
}

/** The request's properties overridden by the recipient's conflicting keys (spec: Recipient object); undefined when neither has any. */
export function mergedProperties(
	request: Record<string, unknown> | undefined,
	recipient: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
	if (request === undefined && recipient === undefined) return undefined;
	return { ...request, ...recipient };
}
