import fc from 'fast-check';

import { isPlatformDatetime } from '../../nodes/EngagementPlatform/shared/schemas/time';

/**
 * isPlatformDatetime tests ISO 8601's form without captures and reads the numbers from their fixed
 * places (it runs for every tracked event and purchase). The oracle here is the spec's two formats as regular expressions, with the calendar
 * check: for every generated text, near the formats and far from them, both readings agree.
 */
const RUNS = Number(process.env.DATETIME_READING_RUNS ?? 20_000);

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;
const COLON_MILLIS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2}):(\d{3})(Z|[+-]\d{2}:?\d{2})$/;

function oracle(value: string): boolean {
	const match = ISO.exec(value) ?? COLON_MILLIS.exec(value);
	if (!match) return false;
	const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
	const second = match[6] === undefined ? 0 : Number(match[6]);
	const days =
		month === 2
			? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
				? 29
				: 28
			: [4, 6, 9, 11].includes(month)
				? 30
				: 31;
	return month >= 1 && month <= 12 && day >= 1 && day <= days && hour < 24 && minute < 60 && second < 60;
}

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const piece = (...options: Array<fc.Arbitrary<string>>) => fc.oneof(...options);
const near = fc
	.tuple(
		piece(digits(4, 4), digits(3, 5)),
		fc.constantFrom('-', '-', '/'),
		piece(digits(2, 2), fc.constantFrom('00', '01', '02', '12', '13', '1')),
		fc.constantFrom('-', '-', '.'),
		piece(digits(2, 2), fc.constantFrom('00', '28', '29', '30', '31', '32')),
		fc.constantFrom('T', 'T', 't', ' '),
		piece(digits(2, 2), fc.constantFrom('23', '24', '1')),
		fc.constantFrom(':', ':', '.'),
		piece(digits(2, 2), fc.constantFrom('59', '60')),
		fc.constantFrom('', ':00', ':59', ':60', ':5', ':000', ':00:000', ':00:12'),
		fc.constantFrom('', '', '.1', '.123', '.123456789', '.1234567890', '.', '.12a'),
		fc.constantFrom(
			'',
			'Z',
			'z',
			'ZZ',
			'+01',
			'+0100',
			'+01:00',
			'-05:30',
			'+1',
			'+01:0',
			'+010',
			'+01:000',
			'+01:',
			'+',
		),
	)
	.map((parts) => parts.join(''));
const mutated = fc
	.tuple(near, fc.nat(40), fc.constantFrom('', '0', 'Z', ':', '-', ' ', '٣', '\u0000'), fc.nat(2))
	.map(([text, at, insert, cut]) => text.slice(0, at) + insert + text.slice(at + cut));
const matching = piece(fc.stringMatching(ISO), fc.stringMatching(COLON_MILLIS));

describe('isPlatformDatetime', () => {
	test.each([
		['2026-11-22T10:15:00Z', true],
		['2026-11-22T10:15', true],
		['2026-11-22T10:15:00.123456789+01:00', true],
		['2026-11-22T10:15:00.1234567890Z', false],
		['2026-11-22T10:15:00+0100', true],
		['2026-11-22T10:15:00+010', false],
		['2026-11-22T10:15:00:000+0100', true],
		['2024-02-29T00:00:00Z', true],
		['2026-02-29T00:00:00Z', false],
		['2026-11-22T24:00:00Z', false],
		['2026-11-22 10:15:00Z', false],
		['', false],
	])('%s → %s', (text, expected) => {
		expect(isPlatformDatetime(text)).toBe(expected);
		expect(oracle(text)).toBe(expected);
	});

	test('agrees with the formats as regular expressions, on texts near them and far from them', () => {
		fc.assert(
			fc.property(fc.oneof(near, mutated, matching, fc.string({ maxLength: 40 })), (text) => {
				expect(isPlatformDatetime(text)).toBe(oracle(text));
			}),
			{ numRuns: RUNS },
		);
	});
});
