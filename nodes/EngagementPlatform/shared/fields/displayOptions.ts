import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * Adds display conditions to each property, merged into those it has (as n8n's own
 * updateDisplayOptions does): `updateDisplayOptions({ show: { '@version': [1] } }, fields)`.
 */
export function updateDisplayOptions(
	displayOptions: IDisplayOptions,
	properties: INodeProperties[],
): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			...(displayOptions.show ? { show: { ...property.displayOptions?.show, ...displayOptions.show } } : {}),
			...(displayOptions.hide ? { hide: { ...property.displayOptions?.hide, ...displayOptions.hide } } : {}),
		},
	}));
}
