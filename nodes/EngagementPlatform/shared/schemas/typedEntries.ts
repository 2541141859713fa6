import type { FieldType, IDataObject } from 'n8n-workflow';
import { validateFieldType } from 'n8n-workflow';

import type { InputProblem } from '../engine/read/itemInputError';
import { isBlank } from './textValues';
import { shown } from './shown';
import type { RunClock } from './time';
import { notADate } from './time';

/** A typed entry's value: what is sent, nothing (not set), or the problem naming the entry (`field`). */
export type EntryValue = { value: IDataObject[string] } | { problem: InputProblem } | undefined;

/**
 * An entry of n8n's assignment list (the typed list), converted to the type picked for it by
 * n8n-workflow's validateFieldType, as Edit Fields converts: "59.90" as a number is 59.9. A Date is read
 * as the Time fields read one and sent as an ISO 8601 instant (time.ts, instantOf), where
 * validateFieldType would take "Dec 3, 2026" or "03/05/2026" and send the text as written. An empty
 * value, and a blank one of any type but text, is not set.
 */
export function typedEntryValue(
	field: string,
	key: string,
	value: unknown,
	type: string,
	clock: RunClock,
	/** The expression the entry was mapped with (`$json.signed_up`), which a date's error names. */
	mappedFrom?: string,
): EntryValue {
	if (value === undefined || value === null || value === '') return undefined;
	// A blank cell typed Number, Boolean or Date is "not set", so the value the platform holds stays:
	// validateFieldType would send " " as the number 0, and refuse it as a boolean or a date.
	if (type !== 'string' && isBlank(value)) return undefined;
	if (type === 'dateTime') {
		const instant = clock.instant(value);
		return instant === undefined ? { problem: notADate(field, value, undefined, mappedFrom) } : { value: instant };
	}
	// The editor offers no Date type to a dragged sheet column (it is String), and the platform stores
	// only an ISO 8601 string as a datetime: text written as a date or a date and time in the forms the
	// Time fields take (2026-03-01, 2026-03-01 10:00) is sent as the instant the Date type gives. Any
	// other text stays text, as does the date of birth, a calendar date. The list's hint says so.
	if (type === 'string' && typeof value === 'string' && !KEPT_AS_TEXT.has(key)) {
		const instant = clock.instantOfText(value);
		if (instant !== undefined) return { value: instant };
	}
	const converted = validateFieldType(key, value, type as FieldType);
	if (!converted.valid)
		return {
			problem: {
				field,
				rule: `expects ${article(type)} but got ${shown(value)}`,
				fix: `Give ${article(type)}, or pick the type the value has.`,
			},
		};
	// Text as text (as Edit Fields makes it), other types as converted.
	if (type === 'string' && typeof value !== 'string')
		return { value: typeof value === 'object' ? JSON.stringify(value) : String(value) };
	return { value: (converted.newValue ?? value) as IDataObject[string] };
}

/** Keys whose text stays text though written as a date: the date of birth (standardAttributes.ts). */
const KEPT_AS_TEXT: ReadonlySet<string> = new Set(['dob']);

function article(type: string): string {
	return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
