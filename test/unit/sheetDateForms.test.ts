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
			fix: "Write it in one of those forms, or convert it with an expression such as {{ DateTime.fromFormat($json.date, 'MM/dd/yyyy') }}. Without a zone, it is in the workflow's timezone (Workflow Settings → Timezone).",
		});
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
