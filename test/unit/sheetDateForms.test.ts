import {
	asWallTime,
	inTimezone,
	instantOfText,
	isNoTime,
	notADate,
	zoneClock,
} from '../../nodes/EngagementPlatform/shared/schemas/time';

/**
 * Issue 34's readings of what a sheet writes (schemas/time.ts): a canvas schedule In Local Time keeps
 * a zoneless time each user's (no zone added), a time field refuses a value in no form it
 * takes, a typed list's text is a date only when written as one, and a run notes a zoneless reading.
 */
const berlin = zoneClock('Europe/Berlin');

describe('asWallTime (In Local Time): the forms Time takes, no zone added', () => {
	test.each([
		['2026-03-05 14:30', '2026-03-05T14:30:00'],
		['2026-03-05 14:30:00', '2026-03-05T14:30:00'],
		['2026-03-05', '2026-03-05T00:00:00'],
		[' 2026-03-05T14:30 ', '2026-03-05T14:30:00'],
		['2026-03-05T14:30:00Z', '2026-03-05T14:30:00Z'],
		['2026-03-05 14:30+01:00', '2026-03-05T14:30+01:00'],
	])('%p is %p', (written, read) => expect(asWallTime(written)).toBe(read));

	test.each(['03/05/2026', '5.3.2026', 'Dec 3, 2026', '2026-02-30', '2026-03-05 25:00', '', 42])(
		'%p is left as it came, for the refusal to name it',
		(written) => expect(asWallTime(written)).toBe(written),
	);
});

describe('isNoTime: what a time field refuses', () => {
	test.each(['03/05/2026', '5.3.2026', 'Dec 3, 2026', '2026-13-01T00:00:00Z', 1733230000000, true, {}])(
		'%p is no time',
		(value) => expect(isNoTime(value)).toBe(true),
	);

	test.each([
		undefined,
		null,
		'',
		' ',
		'2026-03-05T14:30+01:00',
		'2026-11-22T10:15:00:000+0100',
		new Date('2026-03-05T14:30:00Z'),
	])('%p is left to the field’s own rules', (value) => expect(isNoTime(value)).toBe(false));

	test("the refusal names the value and the forms; its fix says where the workflow's timezone is set", () => {
		expect(notADate('Time', '03/05/2026')).toEqual({
			field: 'Time',
			rule: "expects a date (2026-12-03) or a date and time (2026-12-03 12:00, 2026-12-03T12:00:00Z) but got '03/05/2026'",
			// Typed in, not mapped: the expressions convert the value itself, and show both readings of 03/05.
			fix: "'03/05/2026' is ambiguous: the day and the month could be either. Convert it with the reading your source uses: for 3 May 2026: {{ DateTime.fromFormat('03/05/2026', 'dd/MM/yyyy') }}; for March 5, 2026: {{ DateTime.fromFormat('03/05/2026', 'MM/dd/yyyy') }}. Or write it as a date (2026-12-03) or a date and time (2026-12-03 12:00, 2026-12-03T12:00:00Z). Without a zone, it is in the workflow's timezone (Workflow Settings → Timezone).",
		});
	});
});

describe("a refusal's fix converts the value with the expression it was mapped with", () => {
	const fixOf = (value: string) => notADate('Time', value, undefined, '$json.purchased_at').fix;

	test.each([
		['13/05/2026', "{{ DateTime.fromFormat($json.purchased_at, 'dd/MM/yyyy') }} (13 May 2026)"],
		['5.3.2026 14:30', "for 5 March 2026: {{ DateTime.fromFormat($json.purchased_at, 'd.M.yyyy HH:mm') }}"],
		['5.3.2026 14:30', "for May 3, 2026: {{ DateTime.fromFormat($json.purchased_at, 'M.d.yyyy HH:mm') }}"],
		['Dec 3, 2026', "{{ DateTime.fromFormat($json.purchased_at, 'MMM d, yyyy') }} (December 3, 2026)"],
		['05/05/2026', "{{ DateTime.fromFormat($json.purchased_at, 'dd/MM/yyyy') }} (5 May 2026)"],
	])('%p: %s', (value, expression) => {
		expect(fixOf(value)).toContain(expression);
		expect(fixOf(value)).toContain('(mapped from {{ $json.purchased_at }})');
	});

	test('a form with no reading to offer names the expression and no invented column', () => {
		expect(fixOf('next Tuesday')).toContain("{{ DateTime.fromFormat($json.purchased_at, '<its form>') }}");
		expect(notADate('Time', 'next Tuesday').fix).not.toContain('$json');
	});
});

describe('instantOfText: a typed list entry of type String', () => {
	test.each([
		['2026-03-01 10:00', '2026-03-01T10:00:00+01:00'],
		['2026-03-01', '2026-03-01T00:00:00+01:00'],
		['2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z'],
		['abc 2026', undefined],
		['2026', undefined],
		['03/01/2026', undefined],
		['2026-03-01 and more', undefined],
	])('%p is %p', (text, instant) => expect(instantOfText(text, berlin)).toBe(instant));
});

describe('a zoneless reading is noted', () => {
	test.each([
		['2026-03-05 14:30', true],
		['2026-03-05', true],
		['2026-03-05T14:30:00Z', false],
		['2026-03-05 14:30-05:00', false],
		['Dec 3, 2026', false],
		['2026-02-30', false],
	])('%p: %p', (value, noted) => {
		const note = { zonelessRead: false };
		inTimezone(value, berlin, note);
		expect(note.zonelessRead).toBe(noted);
	});
});
