import type { IDataObject, INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { ItemInputError } from '../../shared/engine';

/** The spec's `options.links-tags`: icons of the preference center page. */

const RELS = ['icon', 'shortcut icon', 'apple-touch-icon'];
const TYPES = ['image/png', 'image/svg', 'image/gif', 'image/x-icon', 'image/svg+xml', 'mask-icon'];

export const linkTagsField: INodeProperties = {
	displayName: 'Link Tags',
	name: 'links_tags',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Link Tag',
	default: {},
	description: 'Icons of the page (its &lt;link&gt; tags)',
	options: [
		{
			displayName: 'Link Tag',
			name: 'tag',
			values: [
				{ displayName: 'Color', name: 'color', type: 'color', default: '', hint: 'Only with type mask-icon' },
				{
					displayName: 'Href',
					name: 'href',
					type: 'string',
					default: '',
					placeholder: 'https://example.com/favicon.png',
					description: 'URL of the icon',
				},
				{
					displayName: 'Rel',
					name: 'rel',
					type: 'options',
					options: RELS.map((rel) => ({ name: rel, value: rel })),
					default: 'icon',
				},
				{ displayName: 'Sizes', name: 'sizes', type: 'string', default: '', placeholder: 'e.g. 32x32' },
				{
					displayName: 'Type',
					name: 'type',
					type: 'options',
					options: [{ name: '(None)', value: '' }, ...TYPES.map((type) => ({ name: type, value: type }))],
					default: '',
				},
			],
		},
	],
};

/** A link tag's values by name → their labels, as errors name them (Link Tags[0].Href). */
const VALUE_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
	((linkTagsField.options as INodePropertyCollection[])[0].values ?? []).map((value) => [
		value.name,
		value.displayName,
	]),
);

/** The link tags as the platform takes them; each checked against the spec's allowed values. */
export function readLinkTags(value: unknown): IDataObject[] | undefined {
	const tags = ((value as { tag?: IDataObject[] } | undefined)?.tag ?? []) as IDataObject[];
	if (tags.length === 0) return undefined;
	return tags.map((tag, index) => {
		const field = (name: string) => `${linkTagsField.displayName}[${index}].${VALUE_LABELS[name]}`;
		const text = (name: string) => (typeof tag[name] === 'string' ? (tag[name] as string).trim() : '');
		const [rel, href, type, sizes, color] = ['rel', 'href', 'type', 'sizes', 'color'].map(text);
		if (!RELS.includes(rel))
			throw new ItemInputError(
				field('rel'),
				`"${rel}" is not one of ${RELS.join(', ')}`,
				'Pick one of the listed values.',
			);
		if (href === '') throw new ItemInputError(field('href'), 'is required and was empty', 'Enter the URL of the icon.');
		if (type !== '' && !TYPES.includes(type)) {
			throw new ItemInputError(
				field('type'),
				`"${type}" is not one of ${TYPES.join(', ')}`,
				'Pick one of the listed values, or none.',
			);
		}
		if (color !== '' && type !== 'mask-icon') {
			throw new ItemInputError(
				field('color'),
				'applies only to link tags of type mask-icon',
				'Set Type to mask-icon, or remove the color.',
			);
		}
		const result: IDataObject = { rel, href };
		if (type) result.type = type;
		if (sizes) result.sizes = sizes;
		if (color) result.color = color;
		return result;
	});
}
