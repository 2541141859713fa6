import type { PreferenceCenterLinkRel, PreferenceCenterLinkTag, PreferenceCenterLinkType } from '../adminApiTypes';
import { unknownFieldsProblem } from '../badRequest';
import { isPlainObject } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';

const RELS: readonly PreferenceCenterLinkRel[] = ['icon', 'shortcut icon', 'apple-touch-icon'];
const TYPES: readonly PreferenceCenterLinkType[] = [
	'image/png',
	'image/svg',
	'image/gif',
	'image/x-icon',
	'image/svg+xml',
	'mask-icon',
];
const FIELDS = ['rel', 'type', 'sizes', 'color', 'href'];

/** `options.links-tags`: the spec's link tag rules, each tag checked whole. */
export function readLinkTags(value: unknown, path: string): Checked<PreferenceCenterLinkTag[]> {
	if (!Array.isArray(value)) return refuse(`${path} must be an array of { rel, type?, sizes?, color?, href }`);
	const tags: PreferenceCenterLinkTag[] = [];
	for (const [i, tag] of value.entries()) {
		const read = readLinkTag(tag, `${path}[${i}]`);
		if (!read.ok) return read;
		tags.push(read.value);
	}
	return accept(tags);
}

function readLinkTag(tag: unknown, path: string): Checked<PreferenceCenterLinkTag> {
	if (!isPlainObject(tag)) return refuse(`${path} must be an object { rel, type?, sizes?, color?, href }`);
	const unknown = unknownFieldsProblem(tag, FIELDS);
	if (unknown) return refuse(`${path}: ${unknown}`);
	const { rel, type, sizes, color, href } = tag;
	if (!RELS.includes(rel as PreferenceCenterLinkRel))
		return refuse(`${path}.rel is required: one of ${RELS.join(', ')}`);
	if (type !== undefined && !TYPES.includes(type as PreferenceCenterLinkType))
		return refuse(`${path}.type must be one of ${TYPES.join(', ')}`);
	if (sizes !== undefined && typeof sizes !== 'string') return refuse(`${path}.sizes must be a string`);
	if (color !== undefined && typeof color !== 'string') return refuse(`${path}.color must be a string`);
	if (color !== undefined && type !== 'mask-icon') return refuse(`${path}.color is only for type mask-icon`);
	if (typeof href !== 'string') return refuse(`${path}.href is required: a string`);
	const read: PreferenceCenterLinkTag = { rel: rel as PreferenceCenterLinkRel, href };
	if (type !== undefined) read.type = type as PreferenceCenterLinkType;
	if (sizes !== undefined) read.sizes = sizes;
	if (color !== undefined) read.color = color;
	return accept(read);
}
