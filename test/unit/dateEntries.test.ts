import fc from 'fast-check';
import { DateTime } from 'luxon';

import { instantOf, zoneClock } from '../../nodes/EngagementPlatform/shared/schemas/time';

/**
 * instantOf reads a typed date entry (and, through inTimezone, the Time fields): a date, or a
 * date and time with `T` or a space, with or without seconds and fraction, with a zone or in the
 * workflow's. The oracle is Luxon (what n8n's own date values are), reading the same wall time in the
 * same zone: both name the same instant, for zones with half-hour offsets and summer time.
 */
const RUNS = Number(process.env.DATE_ENTRY_RUNS ?? 5_000);
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'UTC'];
const clocks = new Map(ZONES.map((zone) => [zone, zoneClock(zone)]));
const pad = (value: number, width = 2) => String(value).padStart(width, '0');

describe('instantOf', () => {
	const berlin = clocks.get('Europe/Berlin')!;

	test.each([
		['2026-12-03 12:00', '2026-12-03T12:00:00+01:00'],
		['2026-12-03T12:00:00Z', '2026-12-03T12:00:00Z'],
		['2026-12-03', '2026-12-03T00:00:00+01:00'],
		['2026-07-01', '2026-07-01T00:00:00+02:00'],
		['2026-12-03 12:00:00.5-05:00', '2026-12-03T12:00:00.5-05:00'],
		['2026-12-03T12:00:00+0530', '2026-12-03T12:00:00+05:30'],
		['2026-11-22T10:15:00:000+0100', '2026-11-22T10:15:00.000+01:00'],
	])('%p is %p', (written, instant) => expect(instantOf(written, berlin)).toBe(instant));

	test.each([
		'Dec 3, 2026',
		'03/05/2026',
		'3.12.2026',
		'2026-12-3',
		'2026-02-29',
		'2026-12-03 24:00',
		'2026-12-03  12:00',
		'2026-12-03t12:00',
		'2026-12-03T12',
		'2026-12-03T12:00:00 Z',
		'20261203',
		'',
		' ',
	])('%p is no date', (written) => expect(instantOf(written, berlin)).toBeUndefined());

	test.each([1733230000000, true, null, undefined, {}, new Date(Number.NaN)])('%p is no date', (value) =>
		expect(instantOf(value, berlin)).toBeUndefined(),
	);

	test("a zoneless date and time names an instant whose wall time in the zone is the one written (Luxon's reading)", () => {
		const wallTime = fc.record({
			zone: fc.constantFrom(...ZONES),
			year: fc.integer({ min: 1970, max: 2100 }),
			month: fc.integer({ min: 1, max: 12 }),
			day: fc.integer({ min: 1, max: 28 }),
			hour: fc.integer({ min: 0, max: 23 }),
			minute: fc.integer({ min: 0, max: 59 }),
			second: fc.option(fc.integer({ min: 0, max: 59 })),
			millisecond: fc.option(fc.integer({ min: 0, max: 999 })),
			separator: fc.constantFrom('T', ' '),
			dateAlone: fc.boolean(),
		});
		fc.assert(
			fc.property(wallTime, ({ zone, year, month, day, separator, dateAlone, ...time }) => {
				const hour = dateAlone ? 0 : time.hour;
				const minute = dateAlone ? 0 : time.minute;
				const second = dateAlone ? null : time.second;
				const millisecond = second === null ? null : time.millisecond;
				let text = `${year}-${pad(month)}-${pad(day)}`;
				if (!dateAlone) text += `${separator}${pad(hour)}:${pad(minute)}`;
				if (second !== null) text += `:${pad(second)}`;
				if (millisecond !== null) text += `.${pad(millisecond, 3)}`;
				const wall = `${year}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second ?? 0)}.${pad(millisecond ?? 0, 3)}`;
				const written = DateTime.fromFormat(wall, 'yyyy-MM-dd HH:mm:ss.SSS', { zone });
				// A wall time summer time skips names no instant: Luxon moves it, and there is nothing to compare.
				if (written.toFormat('yyyy-MM-dd HH:mm:ss.SSS') !== wall) return;
				const instant = instantOf(text, clocks.get(zone)!);
				expect(instant).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{3})?)?[+-]\d{2}:\d{2}$/);
				// Read back in the zone, the instant is the wall time written (either one of an hour lived twice).
				expect(DateTime.fromISO(instant!, { zone }).toFormat('yyyy-MM-dd HH:mm:ss.SSS')).toBe(wall);
			}),
			{ numRuns: RUNS },
		);
	});
});
