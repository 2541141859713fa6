import { isDateString, isDatetimeString, isEmailAddress, isPlainObject, characters } from '../formats';

/** Why a (non-null) value is wrong for the attribute, or undefined. */
type ValueCheck = (value: unknown) => string | undefined;

const SUBSCRIBE_STATES = ['opted_in', 'subscribed', 'unsubscribed'];

const text: ValueCheck = (value) =>
	typeof value === 'string' && characters(value) <= 255 ? undefined : 'must be a string of at most 255 characters';
const boolean: ValueCheck = (value) => (typeof value === 'boolean' ? undefined : 'must be a boolean');
const datetime: ValueCheck = (value) => (isDatetimeString(value) ? undefined : 'must be an ISO 8601 datetime');
const oneOf =
	(allowed: string[], caseInsensitive = false): ValueCheck =>
	(value) =>
		typeof value === 'string' && allowed.includes(caseInsensitive ? value.toUpperCase() : value)
			? undefined
			: `must be one of ${allowed.join(', ')}`;

/**
 * Built-in attributes (the spec does not list them: these are Braze's). An attribute object key found
 * here is checked and stored as a standard attribute; any other key is a custom attribute. `null`
 * unsets any of them.
 */
export const STANDARD_ATTRIBUTES: Readonly<Record<string, ValueCheck>> = {
	first_name: text,
	last_name: text,
	email: (value) => (isEmailAddress(value) ? undefined : 'must be a valid email address'),
	// Stored as given, like Braze; only phone *addressing* needs E.164.
	phone: text,
	home_city: text,
	image_url: text,
	country: (value) =>
		typeof value === 'string' && /^[A-Za-z]{2}$/.test(value) ? undefined : 'must be an ISO-3166-1 alpha-2 country code',
	language: (value) =>
		typeof value === 'string' && /^[A-Za-z]{2}$/.test(value) ? undefined : 'must be an ISO-639-1 language code',
	// The export object shows M and F; Braze also accepts O (other), N (not applicable), P (prefer not to say), U (unknown).
	gender: oneOf(['M', 'F', 'O', 'N', 'P', 'U'], true),
	dob: (value) => (isDateString(value) ? undefined : 'must be a date in the form YYYY-MM-DD'),
	time_zone: (value) =>
		typeof value === 'string' && isTimeZone(value)
			? undefined
			: 'must be an IANA time zone name, e.g. America/New_York',
	push_subscribe: oneOf(SUBSCRIBE_STATES),
	email_open_tracking_disabled: boolean,
	email_click_tracking_disabled: boolean,
	date_of_first_session: datetime,
	date_of_last_session: datetime,
	marked_email_as_spam_at: datetime,
	current_location: (value) =>
		isPlainObject(value) && typeof value.latitude === 'number' && typeof value.longitude === 'number'
			? undefined
			: 'must be an object with numbers latitude and longitude',
};

export function isSubscribeState(value: unknown): boolean {
	return typeof value === 'string' && SUBSCRIBE_STATES.includes(value);
}

function isTimeZone(name: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: name });
		return true;
	} catch {
		return false;
	}
}
