const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
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

/**
 * Not shown: the format of `lastSignInAt` ("string"). Braze's samples write it as
 * 'Thursday, January 1, 1970 12:00:00 AM'; we do the same, in UTC. Written out by hand, as ICU versions
 * differ ("at", narrow spaces) in what Intl would give.
 */
export function signInTimeText(epochMs: number): string {
	const at = new Date(epochMs);
	const hours = at.getUTCHours();
	const clock = [hours % 12 || 12, pad(at.getUTCMinutes()), pad(at.getUTCSeconds())].join(':');
	const date = `${DAYS[at.getUTCDay()]}, ${MONTHS[at.getUTCMonth()]} ${at.getUTCDate()}, ${at.getUTCFullYear()}`;
	return `${date} ${clock} ${hours < 12 ? 'AM' : 'PM'}`;
}

function pad(value: number): string {
	return String(value).padStart(2, '0');
}
