/** Generators of the values users get wrong, shared by every operation's cases. */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

/** Values that are not text: a text field refuses them (numbers and booleans are turned into text). */
export const notText = fc.oneof(
	fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.integer(), { minKeys: 1, maxKeys: 3 }),
	fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
);

/** Absent, empty or blank: a required field refuses them. */
export const blank = fc.constantFrom(undefined, null, '', '   ', '\t\n');

/** Text of more than `limit` characters, in characters of one, two (astral) or several UTF-16 units. */
export function longerThan(limit: number): fc.Arbitrary<string> {
	return fc
		.tuple(fc.constantFrom('x', 'é', '日', '😀'), fc.integer({ min: limit + 1, max: limit + 40 }))
		.map(([character, count]) => character.repeat(count));
}

/** Short text of any code points, astral ones and emoji included (no lone surrogates). */
export const unicodeText = fc
	.string({ unit: 'binary', minLength: 1, maxLength: 40 })
	.filter((text) => text.trim() !== '');

/** Text holding a lone surrogate, which JSON carries escaped but a URL cannot carry at all. */
export const withLoneSurrogate = fc
	.tuple(fc.string({ unit: 'grapheme-ascii', maxLength: 8 }), fc.constantFrom('\uD83D', '\uDE00', '\uDBFF'))
	.map(([text, surrogate]) => `${text}${surrogate}x`);

/** Dates the platform cannot read: impossible days and hours, no time, words, numbers. */
export const invalidDate = fc.constantFrom<unknown>(
	'2026-13-01T00:00:00Z',
	'2026-02-30T10:00:00Z',
	'2026-11-01T25:00:00Z',
	'2026-11-01T10:61:00Z',
	'01/11/2026 10:00',
	'yesterday',
	'2026-11-01T10:00:00Zjunk',
	1_700_000_000,
	true,
);

/** A key starting with `$` (operators, MongoDB-style keys). */
export const dollarKey = fc.string({ unit: 'grapheme-ascii', minLength: 0, maxLength: 10 }).map((name) => `$${name}`);

/** A key holding a dot, as paths are written. */
export const dottedKey = fc
	.tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.stringMatching(/^[a-z]{1,6}$/))
	.map(([a, b]) => `${a}.${b}`);

/** An object nested `depth` levels deep: depth 1 is `{ level: 'leaf' }`. */
export function nested(depth: number): IDataObject {
	let value: IDataObject = { level: 'leaf' };
	for (let level = 1; level < depth; level++) value = { level: value };
	return value;
}
