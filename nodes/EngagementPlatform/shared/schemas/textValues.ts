import type { InputProblem } from '../engine/read/itemInputError';
import { ItemInputError } from '../engine/read/itemInputError';

/**
 * Values as marketers' data brings them: spreadsheets, CSV files and shops give text. From node
 * version 2, a text that is exactly a number, a boolean or a time means that value; anything else
 * is refused naming the value. An empty text is "not set".
 */

/** A number as written by people and spreadsheets: 59.90, " 3 ", -2, 1e3, .5. No thousands separators. */
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/** Shows a received value in an error, shortened. */
export function shown(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;
}

/** The number a value means (undefined for "not set": nothing, or empty text), or the problem naming the value. */
export function numberFromText(
	value: unknown,
	label: string,
	example: string,
): { value: number | undefined } | { problem: InputProblem } {
	if (value === undefined || value === null) return { value: undefined };
	if (typeof value === 'number') {
		if (Number.isFinite(value)) return { value };
	} else if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return { value: undefined };
		if (NUMBER_TEXT.test(text)) return { value: Number(text) };
	}
	return {
		problem: {
			field: label,
			rule: `expects a number but got ${shown(value)}`,
			fix: `Give a number such as ${example}.`,
		},
	};
}

/** true, false, or their text ("true", "FALSE"); undefined for nothing or empty text. */
export function booleanFromText(value: unknown, label: string): boolean | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string') {
		const text = value.trim().toLowerCase();
		if (text === '') return undefined;
		if (text === 'true') return true;
		if (text === 'false') return false;
	}
	throw new ItemInputError(label, `expects true or false but got ${shown(value)}`, 'Give true or false.');
}

/** A date and time without a zone: 2026-12-01T10:00 or 2026-12-01T10:00:00(.000). */
const ZONELESS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;

/**
 * A date and time written without a zone is a time in the workflow's timezone, as n8n's own date
 * fields read it: the zone's offset at that moment is added (2026-12-01T10:00:00 in Europe/Berlin
 * becomes 2026-12-01T10:00:00+01:00). Any other value is returned as it came, for the schema to judge.
 */
export function inTimezone(value: unknown, clock: Intl.DateTimeFormat): unknown {
	if (typeof value !== 'string') return value;
	const text = value.trim();
	const match = ZONELESS.exec(text);
	if (!match) return value;
	const [, year, month, day, hour, minute, second = '0'] = match;
	const wall = Date.UTC(+year, +month - 1, +day, +hour, +minute, +second);
	if (Number.isNaN(wall)) return value;
	// The offset at the instant the wall time names: found from a first guess, then checked there (DST).
	const offset = offsetMinutes(clock, wall - offsetMinutes(clock, wall) * 60_000);
	return `${text}${formatOffset(offset)}`;
}

/** Reads wall-clock parts of an instant in a zone; made once per run (ParameterReader), it is not cheap. */
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
