/**
 * Where a dragged field's braces stand in its parameter, for the generated equivalence properties
 * (test/integration/draggedFields.test.ts, test/conservation/compiledReading.test.ts): whitespace inside
 * the braces (`{{$json.a}}`, `{{\n $json.a\t}}`), which leaves it a dragged field, and whitespace before
 * or after them (`{{ $json.a }} `, `= {{ $json.a }}`), which makes n8n's value text.
 */
import fc from 'fast-check';

export interface Layout {
	/** between the `=` and the opening braces */
	before: string;
	/** inside the braces, before the field */
	open: string;
	/** inside the braces, after the field */
	close: string;
	/** after the closing braces */
	after: string;
}

/** As n8n's editor writes a dragged field: `={{ $json.a }}`. */
export const AS_DRAGGED: Layout = { before: '', open: ' ', close: ' ', after: '' };

/**
 * Spaces, tabs, line breaks (LF and CRLF) and a pasted no-break space, inside the braces and outside them.
 * A few layouts rather than any string of whitespace: n8n's engine compiles each expression text it has
 * not seen (about 4 ms, 11 on a busy machine), and a text new to it in every run would add that to
 * every field of every run.
 */
const INSIDE: Layout[] = [
	AS_DRAGGED,
	{ before: '', open: '', close: '', after: '' },
	{ before: '', open: '\n\t', close: '\r\n', after: '' },
	{ before: '', open: '\u00a0', close: ' \t', after: '' },
];
const OUTSIDE: Layout[] = [
	{ before: '', open: ' ', close: ' ', after: ' ' },
	{ before: '', open: ' ', close: ' ', after: '\n' },
	{ before: '', open: '', close: '\n', after: '\t\r\n' },
	{ before: ' ', open: ' ', close: ' ', after: '' },
	{ before: '\n', open: '\u00a0', close: '\n', after: ' \n' },
];

/** Mostly a dragged field (whitespace inside the braces at most), now and then text around it. */
export const layout: fc.Arbitrary<Layout> = fc.oneof(
	{ arbitrary: fc.constantFrom(...INSIDE), weight: 2 },
	{ arbitrary: fc.constantFrom(...OUTSIDE), weight: 1 },
);

/** The parameter's value with `code` (`$json.a`, or `($json.a)` for n8n's engine alone) laid out. */
export const laidOut = (code: string, { before, open, close, after }: Layout) =>
	`=${before}{{${open}${code}${close}}}${after}`;
