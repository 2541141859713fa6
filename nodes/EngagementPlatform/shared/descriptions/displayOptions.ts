import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * Adds display conditions to each property, merged into those it has (as n8n's own
 * updateDisplayOptions does): `updateDisplayOptions({ show: { operation: ['trackEvent'] } }, fields)`.
 * The added conditions come first: n8n checks a field's conditions in order and shows it at the
 * first whose parameter holds an expression (a mapped Identify User By), so the broader one (the
 * operation) must be checked before.
 */
export function updateDisplayOptions(
	displayOptions: IDisplayOptions,
	properties: INodeProperties[],
): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			...(displayOptions.show ? { show: { ...displayOptions.show, ...property.displayOptions?.show } } : {}),
			...(displayOptions.hide ? { hide: { ...displayOptions.hide, ...property.displayOptions?.hide } } : {}),
		},
	}));
}
