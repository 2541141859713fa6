import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * Adds display conditions to each property, merged into those it has (as n8n's own
 * updateDisplayOptions does): `updateDisplayOptions({ show: { '@version': [1] } }, fields)`.
 * The added conditions come first: n8n checks a field's conditions in order and shows it at the
 * first whose parameter holds an expression (a mapped Identify User By), so the broader ones (the
 * operation, the version) must be checked before.
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

/** The node versions a field is shown for: as 1.0 saved it, or from version 2 on (see CONTRIBUTING.md). */
export const VERSION_1 = { '@version': [1] };
export const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };

/** Fields shown for version 1 alone. */
export const forVersion1 = (properties: INodeProperties[]) => updateDisplayOptions({ show: VERSION_1 }, properties);

/** Fields shown from version 2 on. */
export const fromVersion2 = (properties: INodeProperties[]) =>
	updateDisplayOptions({ show: FROM_VERSION_2 }, properties);

/**
 * A collection whose options 1.0 saved under other names (`namesIn1`: today's name → 1.0's): shown
 * with 1.0's names for version 1, whose saved workflows hold them, and with today's from version 2.
 */
export function collectionByVersion(
	collection: INodeProperties,
	namesIn1: Readonly<Record<string, string>>,
): INodeProperties[] {
	const asSavedIn1 = {
		...collection,
		options: (collection.options as INodeProperties[]).map((option) => ({
			...option,
			name: namesIn1[option.name] ?? option.name,
		})),
	};
	return [...forVersion1([asSavedIn1]), ...fromVersion2([collection])];
}
