/** What valid identifiers and datetimes look like, wherever the spec asks for them. */

// ISO 8601 with a time part: 2024-05-01T10:00, 2024-05-01T10:00:00.123Z, 2024-05-01T10:00:00+02:00.
// A date alone is not a datetime: as a property value it stays a plain string.
const ISO_DATETIME =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
// The platform's own format yyyy-MM-dd'T'HH:mm:ss:SSSZ, e.g. 2024-05-01T10:00:00:000-0700.
const PLATFORM_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2}):(\d{3})(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Epoch milliseconds of a datetime in either format (no zone means UTC), or undefined. Only events (and
 * event properties) take the platform's own format; elsewhere the spec says "ISO 8601 datetime".
 */
export function parseDatetime(value: string): number | undefined {
	return fromMatch(ISO_DATETIME.exec(value) ?? PLATFORM_DATETIME.exec(value));
}

/** Epoch milliseconds of an ISO 8601 datetime (no zone means UTC), or undefined. */
function parseIsoDatetime(value: string): number | undefined {
	return fromMatch(ISO_DATETIME.exec(value));
}

/** An ISO 8601 datetime or yyyy-MM-dd'T'HH:mm:ss:SSSZ. */
export function isDatetimeString(value: unknown): value is string {
	return typeof value === 'string' && parseDatetime(value) !== undefined;
}

function isIsoDatetimeString(value: unknown): value is string {
	return typeof value === 'string' && parseIsoDatetime(value) !== undefined;
}

/**
 * Why `value` is not the ISO 8601 datetime `field` must be, or undefined. Where the spec says "ISO 8601
 * datetime" the platform's own format is refused too (only events take it), with a message of its own.
 */
export function isoDatetimeProblem(field: string, value: unknown): string | undefined {
	if (isIsoDatetimeString(value)) return undefined;
	if (isDatetimeString(value)) {
		return `${field} ${JSON.stringify(value)} is in the format yyyy-MM-dd'T'HH:mm:ss:SSSZ, which only event times take; send an ISO 8601 datetime (e.g. 2024-05-01T10:00:00Z)`;
	}
	return `${field} is required: an ISO 8601 datetime (e.g. 2024-05-01T10:00:00Z), got ${JSON.stringify(value)}`;
}

function fromMatch(match: RegExpExecArray | null): number | undefined {
	if (!match) return undefined;
	const [, y, mo, d, h, mi, s = '0', fraction = '0', zone] = match;
	const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
	if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
	if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
	const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
	return Date.UTC(year, month - 1, day, hour, minute, second, millis) - zoneOffsetMinutes(zone) * 60_000;
}

function zoneOffsetMinutes(zone: string | undefined): number {
	if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
	const digits = zone.slice(1).replace(':', '');
	const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
	return zone.startsWith('-') ? -minutes : minutes;
}

/** yyyy-MM-dd, a real calendar date. */
export function isDateString(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
	if (!match) return false;
	const [year, month, day] = match.slice(1).map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** E.164: a plus sign and up to 15 digits, the first not 0. */
export function isE164Phone(value: unknown): value is string {
	return typeof value === 'string' && /^\+[1-9]\d{1,14}$/.test(value);
}

/** Deliberately loose (something@domain.tld): the platform's own check is not in the spec. */
export function isEmailAddress(value: unknown): value is string {
	return typeof value === 'string' && characters(value) <= 255 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

export function isNonEmptyString(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** 8-4-4-4-12 hex digits, any version, either case. */
export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** UUIDs compare without regard to case (RFC 9562). */
export function sameUuid(a: string, b: string): boolean {
	return a.toLowerCase() === b.toLowerCase();
}

/** Characters as the spec counts them: code points (an emoji is one; JavaScript's length says two). */
export function characters(text: string): number {
	let count = 0;
	for (const _ of text) count++;
	return count;
}
