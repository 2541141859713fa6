import type { CodeReading } from './codedValues';
import { readCountry, readGender, readLanguage, readPhone } from './codedValues';
import { EMAIL } from './identifiers';
import { exceedsCharacters } from './textValues';
import { isPlatformDatetime } from './time';

/** Why a value does not fit a standard attribute, and how to fix it. */
type StandardRule = (value: unknown) => { rule: string; fix: string } | undefined;

/** Email and push subscription states, shared with the attribute object's email_subscribe. */
export const SUBSCRIBE_STATES = ['opted_in', 'subscribed', 'unsubscribed'] as const;
/** A subscription group's states: an attribute object's subscription_groups and the Subscription node. */
export const GROUP_STATES = ['subscribed', 'unsubscribed'] as const;
export type GroupState = (typeof GROUP_STATES)[number];

const check =
	(holds: (value: unknown) => boolean, rule: string, fix: string): StandardRule =>
	(value) =>
		holds(value) ? undefined : { rule, fix };

/** Text of at most 255 characters, counted as the spec counts property values' (code points). */
const text = check(
	(value) => typeof value === 'string' && !exceedsCharacters(value, 255),
	'must be text of at most 255 characters',
	'Map a short text value.',
);
const flag = check((value) => typeof value === 'boolean', 'must be true or false', 'Map a boolean.');
const datetime = check(
	(value) => typeof value === 'string' && isPlatformDatetime(value),
	'must be an ISO 8601 datetime',
	'Give a date and time such as 2026-11-22T10:15:00Z.',
);

function isCalendarDate(value: unknown): boolean {
	const match = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
	if (!match) return false;
	const [year, month, day] = match.slice(1).map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isTimeZone(value: unknown): boolean {
	if (typeof value !== 'string' || value === '') return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: value });
		return true;
	} catch {
		return false;
	}
}

/**
 * The attributes sent as codes, each read from the words a sheet holds (codedValues.ts): the code a text
 * is sent as, or why it reads as none; `expression`, what the value was mapped with, goes into the fix.
 */
export const CODED_ATTRIBUTES: Readonly<Record<string, (value: string, expression?: string) => CodeReading>> = {
	country: readCountry,
	language: readLanguage,
	gender: readGender,
	phone: readPhone,
};

/** The code a coded attribute's value is sent as; the value itself for any other attribute, or a value that reads as none. */
export function asCode(name: string, value: unknown): unknown {
	const read =
		typeof value === 'string' && Object.hasOwn(CODED_ATTRIBUTES, name) ? CODED_ATTRIBUTES[name](value) : undefined;
	return read && 'code' in read ? read.code : value;
}

/** A coded attribute's rule: text that reads as a code. */
function coded(read: (value: string) => CodeReading): StandardRule {
	return (value) => {
		if (typeof value !== 'string') return { rule: 'must be text', fix: 'Map a text value.' };
		const reading = read(value);
		return 'problem' in reading ? { rule: reading.problem.rule, fix: reading.problem.fix } : undefined;
	};
}

/**
 * The profile's built-in attributes. The spec does not list them; these are the ones a
 * well-known engagement platform has, with its rules, so a value the platform would refuse is
 * refused on its item before anything is sent. `null` unsets any of them. Other keys are custom
 * attributes, under the custom rules.
 */
export const STANDARD_ATTRIBUTE_RULES: Readonly<Record<string, StandardRule>> = {
	first_name: text,
	last_name: text,
	phone: coded(readPhone),
	home_city: text,
	image_url: text,
	email: check(
		(value) => typeof value === 'string' && !exceedsCharacters(value, 255) && EMAIL.test(value),
		'must be an email address',
		'Map an address such as name@example.com.',
	),
	country: coded(readCountry),
	language: coded(readLanguage),
	gender: coded(readGender),
	dob: check(isCalendarDate, 'must be a date in the form YYYY-MM-DD', 'Give the date of birth such as 1990-04-21.'),
	time_zone: check(isTimeZone, 'must be an IANA time zone name', 'Give a name such as Europe/Berlin.'),
	push_subscribe: check(
		(value) => typeof value === 'string' && (SUBSCRIBE_STATES as readonly string[]).includes(value),
		`must be one of ${SUBSCRIBE_STATES.join(', ')}`,
		'Give one of those states.',
	),
	email_open_tracking_disabled: flag,
	email_click_tracking_disabled: flag,
	date_of_first_session: datetime,
	date_of_last_session: datetime,
	marked_email_as_spam_at: datetime,
	current_location: check(
		(value) => {
			const location = value as { latitude?: unknown; longitude?: unknown } | null;
			return (
				typeof value === 'object' &&
				location !== null &&
				!Array.isArray(value) &&
				typeof location.latitude === 'number' &&
				typeof location.longitude === 'number'
			);
		},
		'must be an object with numbers "latitude" and "longitude"',
		'Give {"latitude": 52.52, "longitude": 13.4}.',
	),
};
