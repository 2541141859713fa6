import type { INodeProperties } from 'n8n-workflow';

/** A property's label as errors name it: without the "(JSON)" that tells the panel's input kind. */
export function labelOf(property: INodeProperties): string {
	return property.displayName.replace(/ \(JSON\)$/, '');
}

/**
 * Each parameter's label, collection options under `collection.option`: its display name without the
 * "(JSON)" that tells the panel's input kind, so that an error names "Event Properties" whether they were
 * given as fields or as JSON.
 */
export function labelsOf(
	fields: INodeProperties[],
	prefix = '',
	labels = new Map<string, string>(),
): Map<string, string> {
	for (const field of fields) {
		const name = `${prefix}${field.name}`;
		if (!labels.has(name)) labels.set(name, labelOf(field));
		if (field.type === 'collection') labelsOf(field.options as INodeProperties[], `${name}.`, labels);
	}
	return labels;
}
