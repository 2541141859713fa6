import type { NodeExecutionHint } from 'n8n-workflow';
import { z } from 'zod/v4';

import type { InputProblem } from '../engine/read/itemInputError';
import { shown } from './shown';

/** The platform's other accepted format for events, yyyy-MM-dd'T'HH:mm:ss:SSSZ, e.g. 2026-11-22T10:15:00:000+0100. */
const COLON_MILLIS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2}):(\d{3})(Z|[+-]\d{2}:?\d{2})$/;
/** A numeric offset written without its colon (+0100) or without minutes (+01). */
const BASIC_OFFSET = /([+-])(\d{2})(\d{2})?$/;

/** Whether a string is a datetime the platform recognises (and so, for example, may not sit inside an array). */
export function isPlatformDatetime(value: string): boolean {
	const iso = isoDatetimeFields(value);
	if (iso !== NOT_ISO) return iso === VALID;
	const match = COLON_MILLIS.exec(value);
	return match !== null && isCalendarTime(+match[1], +match[2], +match[3], +match[4], +match[5], +match[6]);
}

function isCalendarTime(year: number, month: number, day: number, hour: number, minute: number, second: number) {
	return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour < 24 && minute < 60 && second < 60;
}

const NOT_ISO = 0;
const VALID = 1;
const OUT_OF_RANGE = 2;
const COLON = ':'.charCodeAt(0);

/** ISO 8601 with a date and a time: 2026-11-22T10:15:00Z, 2026-11-22T10:15:00.123+01:00, 2026-11-22T10:15. */
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * NOT_ISO when the text is not ISO 8601 with a date and a time; otherwise whether that date and
 * time exist. Every event's and purchase's time passes here, so the form is tested without a match
 * array (a regular expression's captures were most of what a tracked item allocated) and the
 * numbers are read from their fixed places.
 */
function isoDatetimeFields(text: string): number {
	if (!ISO_DATETIME.test(text)) return NOT_ISO;
	const second = text.charCodeAt(16) === COLON ? twoDigits(text, 17) : 0;
	const valid = isCalendarTime(
		twoDigits(text, 0) * 100 + twoDigits(text, 2),
		twoDigits(text, 5),
		twoDigits(text, 8),
		twoDigits(text, 11),
		twoDigits(text, 14),
		second,
	);
	return valid ? VALID : OUT_OF_RANGE;
}

/** The number of the two ASCII digits at `at` (the form was tested already). */
function twoDigits(text: string, at: number): number {
	return (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
}

/** The days of a month of the Gregorian calendar (February 29 in leap years). */
function daysIn(year: number, month: number): number {
	if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
	return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/**
 * A recognised datetime in ISO 8601's extended form: the alternate format's milliseconds follow a
 * dot, and a numeric offset is written +01:00. The instant is unchanged.
 */
export function toIso8601(value: string): string {
	const colon = COLON_MILLIS.exec(value);
	const text = colon
		? `${colon[1]}-${colon[2]}-${colon[3]}T${colon[4]}:${colon[5]}:${colon[6]}.${colon[7]}${colon[8]}`
		: value;
	if (text.endsWith('Z') || !/T.*[+-]\d{2}:?\d{0,2}$/.test(text)) return text;
	return text.replace(BASIC_OFFSET, (_, sign: string, hours: string, minutes = '00') => `${sign}${hours}:${minutes}`);
}

/** A Date or a Luxon DateTime (what n8n expressions such as {{ $now }} give) becomes an ISO string. */
function toTimeText(value: unknown): unknown {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
	if (value && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		return (value as { toISO: () => string | null }).toISO() ?? 'Invalid DateTime';
	}
	return value;
}

const requiredText = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : undefined) });
const recognised = {
	message: "is not a datetime in ISO 8601 (2026-11-22T10:15:00Z) or yyyy-MM-dd'T'HH:mm:ss:SSSZ",
	params: { fix: 'Give a date and time such as 2026-11-22T10:15:00Z, or an expression such as {{ $now }}.' },
};

/** An event time: the spec takes ISO 8601 or yyyy-MM-dd'T'HH:mm:ss:SSSZ, and it is sent as given. */
export const platformTime = z.preprocess(toTimeText, requiredText.refine(isPlatformDatetime, recognised));

/**
 * A time where the spec allows ISO 8601 only (purchases, canvas schedules): every recognised
 * datetime is accepted and sent in ISO 8601.
 */
export const isoTime = z.preprocess(
	toTimeText,
	requiredText.refine(isPlatformDatetime, recognised).transform(toIso8601),
);

/** A date and time without a zone, 2026-12-01T10:00 or 2026-12-01T10:00:00(.000), or a date alone: 2026-12-01. */
const ZONELESS = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;
const SPACE = ' '.charCodeAt(0);

/**
 * Where a run notes that it read a time without a zone in the workflow's timezone (the node then names
 * the zone in the run's hints): ParameterReader, one per run, so that noting it costs an item nothing.
 */
export interface ZonelessNote {
	zonelessRead: boolean;
}

/**
 * A date and time as the nodes read one, as n8n's own date fields do: a space may stand for the `T`
 * (2026-12-01 10:00, as sheets write it); one without a zone is a time in the workflow's timezone, the
 * zone's offset at that moment added (2026-12-01T10:00:00 in Europe/Berlin becomes
 * 2026-12-01T10:00:00+01:00), and `note` is told; a date alone is that day's midnight there
 * (2026-12-01T00:00:00+01:00). Any other value is returned as it came, for the schema to judge and name.
 */
export function inTimezone(value: unknown, clock: Intl.DateTimeFormat, note?: ZonelessNote): unknown {
	if (typeof value !== 'string') return value;
	const text = withT(value);
	// A zone (Z) is the common case; it ends in no digit, so it cannot be zoneless.
	const last = text.charCodeAt(text.length - 1) - 48;
	const match = last >= 0 && last <= 9 ? ZONELESS.exec(text) : null;
	if (!match) return text === value || !isPlatformDatetime(text) ? value : text;
	const [, year, month, day, hour, minute = '0', second = '0'] = match;
	if (!isCalendarTime(+year, +month, +day, +(hour ?? 0), +minute, +second)) return value;
	const wall = Date.UTC(+year, +month - 1, +day, +(hour ?? 0), +minute, +second);
	// The offset at the instant the wall time names: found from a first guess, then checked there (DST).
	const offset = offsetMinutes(clock, wall - offsetMinutes(clock, wall) * 60_000);
	if (note) note.zonelessRead = true;
	return `${withSeconds(text, match)}${formatOffset(offset)}`;
}

/** A date and time trimmed, a space written as a sheet writes it for the `T` made the `T` (2026-12-01 10:00). */
function withT(value: string): string {
	const trimmed = value.trim();
	return trimmed.charCodeAt(10) === SPACE ? `${trimmed.slice(0, 10)}T${trimmed.slice(11)}` : trimmed;
}

/**
 * A zoneless date and time with its seconds written out (2026-12-01T10:00 → 2026-12-01T10:00:00), a
 * date alone as its midnight. ISO 8601 lets seconds out, but not every reader does (XML Schema's
 * dateTime, which many platforms parse by, requires them): this is the reading none refuses.
 */
function withSeconds(text: string, match: RegExpExecArray): string {
	if (match[4] === undefined) return `${text}T00:00:00`;
	return match[6] === undefined ? `${text}:00` : text;
}

/**
 * A date and time as the nodes read one where a time without a zone is each user's own (a canvas
 * schedule In Local Time): the forms `inTimezone` reads, no zone added: 2026-12-01 10:00 is sent as
 * 2026-12-01T10:00:00, a date alone as its midnight, 2026-12-01T00:00:00. Any other value as it came.
 */
export function asWallTime(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const text = withT(value);
	const match = ZONELESS.exec(text);
	const read = match ? withSeconds(text, match) : text;
	return read !== value && isPlatformDatetime(read) ? read : value;
}

/** How a typed date entry or a time field may be written, for its error. */
const DATE_FORMS = 'a date (2026-12-03) or a date and time (2026-12-03 12:00, 2026-12-03T12:00:00Z)';

/** Where a time without a zone is, in an error's fix; a canvas schedule In Local Time says each user's. */
const WORKFLOW_ZONE = "the workflow's timezone (Workflow Settings → Timezone)";
export const EACH_USERS_ZONE = "each user's own time";

/**
 * A typed date entry's or a time field's value that is no date: the problem names the field, the value
 * and the forms taken, and how to convert it with the expression it was mapped with (`mappedFrom`, e.g.
 * `$json.purchased_at`; the value itself where it was typed in). A day and a month that could be either
 * (03/05/2026) are not guessed: both readings are shown, each with its expression.
 */
export function notADate(field: string, value: unknown, zoneless = WORKFLOW_ZONE, mappedFrom?: string): InputProblem {
	const source = mappedFrom ?? (typeof value === 'string' ? `'${value.replace(/'/g, "\\'")}'` : undefined);
	const zone = `Without a zone, it is in ${zoneless}.`;
	const from = mappedFrom ? ` (mapped from {{ ${mappedFrom} }})` : '';
	const readings = typeof value === 'string' && source ? dateReadings(value.trim()) : [];
	const convert = (format: string) => `{{ DateTime.fromFormat(${source}, '${format}') }}`;
	let fix: string;
	if (readings.length > 1)
		fix = `${shown(value)}${from} is ambiguous: the day and the month could be either. Convert it with the reading your source uses: for ${readings.map(({ means, format }) => `${means}: ${convert(format)}`).join('; for ')}. Or write it as ${DATE_FORMS}. ${zone}`;
	else if (readings.length === 1)
		fix = `Convert the value${from} with ${convert(readings[0].format)} (${readings[0].means}), or write it as ${DATE_FORMS}. ${zone}`;
	else
		fix = `Write it in one of those forms${from ? `, or convert the value${from} with an expression such as {{ DateTime.fromFormat(${source}, '<its form>') }}` : ''}. ${zone}`;
	return { field, rule: `expects ${DATE_FORMS} but got ${shown(value)}`, fix };
}

const MONTHS = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December',
];
/** 03/05/2026, 3.5.2026, 03-05-2026 14:30: two numbers, then the year, then maybe a time. */
const NUMERIC_DATE = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?:[ T](\d{1,2}):(\d{2})(:\d{2})?)?$/;
/** Dec 3, 2026 */
const NAMED_MONTH = /^([A-Za-z]{3}) (\d{1,2}), (\d{4})$/;

/** The dates a text written day and month in numbers may mean, each with its Luxon format; none for other forms. */
function dateReadings(text: string): Array<{ means: string; format: string }> {
	if (NAMED_MONTH.test(text)) {
		const [, month, day, year] = NAMED_MONTH.exec(text)!;
		const index = MONTHS.findIndex((name) => name.slice(0, 3).toLowerCase() === month.toLowerCase());
		return index < 0
			? []
			: [{ means: `${MONTHS[index]} ${Number(day)}, ${year}`, format: `MMM ${day.length === 2 ? 'dd' : 'd'}, yyyy` }];
	}
	const match = NUMERIC_DATE.exec(text);
	if (!match) return [];
	const [, first, separator, second, year, hour, , seconds] = match;
	const token = (digits: string, letter: string) => (digits.length === 2 ? letter + letter : letter);
	const time = hour === undefined ? '' : ` ${token(hour, 'H')}:mm${seconds ? ':ss' : ''}`;
	const reading = (day: string, month: string, dayFirst: boolean) => {
		const format = dayFirst
			? `${token(day, 'd')}${separator}${token(month, 'M')}${separator}yyyy${time}`
			: `${token(month, 'M')}${separator}${token(day, 'd')}${separator}yyyy${time}`;
		const means = dayFirst
			? `${Number(day)} ${MONTHS[Number(month) - 1]} ${year}`
			: `${MONTHS[Number(month) - 1]} ${Number(day)}, ${year}`;
		return { means, format };
	};
	const valid = (day: string, month: string) =>
		Number(day) >= 1 && Number(day) <= 31 && Number(month) >= 1 && Number(month) <= 12;
	const readings = [];
	if (valid(first, second)) readings.push(reading(first, second, true));
	if (valid(second, first) && first !== second) readings.push(reading(second, first, false));
	return readings;
}

/**
 * Whether a time field's value, as its reading left it, is no date: neither empty (the field's
 * own rule: required, or the time of the run), a datetime the platform recognises, nor a date from an
 * expression ({{ $now }}, a Date), which the schema reads. 03/05/2026, 5.3.2026, Dec 3, 2026 are none.
 */
export function isNoTime(read: unknown): boolean {
	if (read === undefined || read === null) return false;
	if (typeof read === 'string') return read.trim() !== '' && !isPlatformDatetime(read);
	const text = toTimeText(read);
	return typeof text !== 'string' || !isPlatformDatetime(text);
}

/**
 * A typed date entry (a typed list's Date entry, a standard attribute's session date) as the ISO 8601
 * instant with offset the platform stores as a datetime: text as `inTimezone` reads it, a date from an
 * expression ({{ $now }}, a Date) by its own instant. Undefined for anything else (Dec 3, 2026,
 * 03/05/2026, a number), which its reader refuses naming the value and DATE_FORMS.
 */
export function instantOf(value: unknown, clock: Intl.DateTimeFormat, note?: ZonelessNote): string | undefined {
	const read = inTimezone(toTimeText(value), clock, note);
	return typeof read === 'string' && isPlatformDatetime(read) ? toIso8601(read) : undefined;
}

/** Text that starts as a date (2026-03-01…), perhaps after spaces: the only text `instantOf` may read as one. */
const DATE_START = /^\s*\d{4}-\d{2}-\d{2}/;

/**
 * A typed list's text entry written as a date or a date and time: its instant as `instantOf`
 * gives it; undefined for any other text, which stays text.
 */
export function instantOfText(text: string, clock: Intl.DateTimeFormat, note?: ZonelessNote): string | undefined {
	return DATE_START.test(text) ? instantOf(text, clock, note) : undefined;
}

/** Reads wall-clock parts of an instant in a zone; made once per run (ParameterReader.clock), it is not cheap. */
export function zoneClock(timezone: string): Intl.DateTimeFormat {
	return new Intl.DateTimeFormat('en-US', {
		timeZone: timezone,
		hourCycle: 'h23',
		year: 'numeric',
		month: 'numeric',
		day: 'numeric',
		hour: 'numeric',
		minute: 'numeric',
		second: 'numeric',
	});
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(clock: Intl.DateTimeFormat, instant: number): number {
	const parts = Object.fromEntries(clock.formatToParts(new Date(instant)).map(({ type, value }) => [type, +value]));
	const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
	return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

function formatOffset(minutes: number): string {
	const sign = minutes < 0 ? '-' : '+';
	const absolute = Math.abs(minutes);
	const pad = (n: number) => String(n).padStart(2, '0');
	return `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/**
 * A run's reading of times, made once per run: one without a zone is read in the workflow's timezone
 * (inTimezone), noting that it was, for the run's hint.
 */
export class RunClock implements ZonelessNote {
	zonelessRead = false;
	/** The wall clock of the workflow's timezone, where n8n's own date fields read zoneless times. */
	private readonly clock: Intl.DateTimeFormat;

	/**
	 * `runTime`: the time the run began reading its items, in ISO 8601, one for every item, as {{ $now }}
	 * is; a try n8n runs again gives the first try's, so that one event has one time.
	 */
	constructor(
		private readonly timezone: string,
		readonly runTime = new Date().toISOString(),
	) {
		this.clock = zoneClock(timezone);
	}

	zoned(value: unknown): unknown {
		return inTimezone(value, this.clock, this);
	}

	/** A time where an empty value is the time of the run (an event's Time). */
	timeOrNow(value: unknown): unknown {
		const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
		return empty ? this.runTime : this.zoned(value);
	}

	/** A typed date entry's ISO 8601 instant with offset (instantOf); undefined when the value is no date. */
	instant(value: unknown): string | undefined {
		return instantOf(value, this.clock, this);
	}

	/** A typed list's text entry written as a date or a date and time, as its instant (instantOfText). */
	instantOfText(text: string): string | undefined {
		return instantOfText(text, this.clock, this);
	}

	/** The run's hint once it read a time without a zone: static hints cannot show the workflow's timezone. */
	zonelessHint(): NodeExecutionHint {
		return {
			message: `Times without a zone were read in ${this.timezone}, this workflow's timezone (Workflow Settings → Timezone).`,
			type: 'info',
			location: 'outputPane',
		};
	}
}
