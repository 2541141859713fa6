import fc from 'fast-check';

import { currencyCodes, nearestValue } from '../../nodes/EngagementPlatform/shared/schemas/nearestValue';

/**
 * The valid value an error offers for a refused one (schemas/nearestValue.ts): one that stands out, or
 * none, so that an error never offers a guess among equals.
 */
const { codes, names } = currencyCodes();
const STATES = ['opted_in', 'subscribed', 'unsubscribed'];
const GENDERS = ['M', 'F', 'O', 'N', 'P', 'U'];
const GENDER_LABELS = new Map([
	['male', 'M'],
	['female', 'F'],
	['other', 'O'],
]);

describe('nearestValue', () => {
	test.each([
		['EURO', 'EUR', codes],
		['eur', 'EUR', codes],
		['euro', 'EUR', codes],
		['Euro', 'EUR', codes],
		['US Dollar', 'USD', codes],
		['us-dollar', 'USD', codes],
		['EUT', 'EUR', codes],
		['Subscribed ', 'subscribed', STATES],
		['unsubscribe', 'unsubscribed', STATES],
		['subscirbed', 'subscribed', STATES],
		['opted-in', 'opted_in', STATES],
	])('%p means %p', (given, nearest, candidates) =>
		expect(nearestValue(given, candidates as readonly string[], names)).toBe(nearest),
	);

	test.each([
		['dollar', codes],
		['ABC', codes],
		['', codes],
		['maybe', STATES],
		['sub', ['subscribed', 'subscription']],
	])('%p stands near no one value', (given, candidates) =>
		expect(nearestValue(given, candidates, names)).toBeUndefined(),
	);

	test('a label names its option', () => {
		expect(nearestValue('female', GENDERS, GENDER_LABELS)).toBe('F');
		expect(nearestValue('FEMALE', GENDERS, GENDER_LABELS)).toBe('F');
	});

	test('objects, booleans and nothing have no nearest value', () => {
		for (const value of [undefined, null, true, { code: 'EUR' }, ['EUR']])
			expect(nearestValue(value, codes, names)).toBeUndefined();
	});

	test('a valid value is its own nearest, in any case; what is offered is always a valid value', () => {
		fc.assert(
			fc.property(fc.constantFrom(...codes), fc.string({ maxLength: 8 }), (code, other) => {
				expect(nearestValue(code.toLowerCase(), codes, names)).toBe(code);
				const offered = nearestValue(other, codes, names);
				if (offered !== undefined) expect(codes).toContain(offered);
			}),
		);
	});
});
