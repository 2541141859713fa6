import type { INodeProperties } from 'n8n-workflow';

/** A property's label as errors name it: without the "(JSON)" that tells the panel's input kind. */
export function labelOf(property: INodeProperties): string {
	return property.displayName.replace(/ \(JSON\)$/, '');
}

/**
 * Each parameter's label for the node's version, collection options under `collection.option`: its
 * display name without the "(JSON)" that tells the panel's input kind, so that an error names "Event
 * Properties" whether they were given as fields or as JSON.
 */
export function labelsOf(
	fields: INodeProperties[],
	version: number,
	prefix = '',
	labels = new Map<string, string>(),
): Map<string, string> {
	for (const field of fields) {
		if (!shownInVersion(field, version)) continue;
		const name = `${prefix}${field.name}`;
		if (!labels.has(name)) labels.set(name, labelOf(field));
		if (field.type === 'collection') labelsOf(field.options as INodeProperties[], version, `${name}.`, labels);
	}
	return labels;
}

/** Whether a field is shown for a node version, by its `@version` rule (displayOptions.ts writes them). */
function shownInVersion(property: INodeProperties, version: number): boolean {
	const rule = property.displayOptions?.show?.['@version'];
	if (!rule) return true;
	return rule.some((allowed) =>
		typeof allowed === 'number'
			? allowed === version
			: version >= Number((allowed as { _cnd?: { gte?: number } })._cnd?.gte),
	);
}
