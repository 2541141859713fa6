import type { INodeProperties } from 'n8n-workflow';

/**
 * Adds hints for n8n's AI workflow builder, by parameter name, to the fields a shared builder
 * declares for a node (its typed lists, Send Only Changes), the Options collection's own options
 * included. A field that carries its own hint keeps it.
 */
export function withBuilderHints(
	properties: INodeProperties[],
	hints: Readonly<Record<string, string>>,
): INodeProperties[] {
	return properties.map((property) => {
		const propertyHint = hints[property.name];
		const hinted = propertyHint && !property.builderHint ? { ...property, builderHint: { propertyHint } } : property;
		return property.name === 'options' && property.type === 'collection'
			? { ...hinted, options: withBuilderHints(property.options as INodeProperties[], hints) }
			: hinted;
	});
}
