import {
	readCountry,
	readGender,
	readLanguage,
	readPhone,
} from '../../nodes/EngagementPlatform/shared/schemas/codedValues';

/**
 * Coded attributes as sheets write them (schemas/codedValues.ts): the code each form reads as, and the
 * forms that read as none. What the node sends is tested end to end in test/integration/codedAttributes.test.ts.
 */
const codeOf = (reading: ReturnType<typeof readCountry>) => ('code' in reading ? reading.code : undefined);

describe('countries', () => {
	test.each([
		['DE', 'DE'],
		['de', 'DE'],
		[' us ', 'US'],
		['UK', 'GB'],
		['U.K.', 'GB'],
		['England', 'GB'],
		['United States of America', 'US'],
		['Deutschland', 'DE'],
		['Österreich', 'AT'],
		['Schweiz', 'CH'],
		['Espagne', 'ES'],
		['Türkiye', 'TR'],
		['Turkey', 'TR'],
		['Niederlande', 'NL'],
	])('%p is %p', (written, code) => expect(codeOf(readCountry(written))).toBe(code));

	test.each(['FX', 'EU', 'ZZ', 'XX', 'Bavaria', 'Europe', ''])('%p is no country', (written) =>
		expect(codeOf(readCountry(written))).toBeUndefined(),
	);

	test('a near miss names the codes it could mean, and the fix maps the value', () => {
		const reading = readCountry('Germny', '$json.Country');
		expect(reading).toEqual({
			problem: {
				rule: "expects a two-letter ISO 3166-1 country code or a country name, not 'Germny' (did you mean DE (Germany)?)",
				fix: "Give a code such as DE, or map the value to one: {{ $json.Country === 'Germny' ? 'DE' : $json.Country }}.",
			},
		});
	});
});

describe('languages and genders', () => {
	test.each([
		['EN', 'en'],
		['English', 'en'],
		['Englisch', 'en'],
		['Deutsch', 'de'],
		['español', 'es'],
		['Portuguese', 'pt'],
	])('language %p is %p', (written, code) => expect(codeOf(readLanguage(written))).toBe(code));

	test.each([
		['f', 'F'],
		['Female', 'F'],
		['FRAU', 'F'],
		['weiblich', 'F'],
		['Male', 'M'],
		['Herr', 'M'],
		['divers', 'O'],
		['Prefer not to say', 'P'],
		['unknown', 'U'],
	])('gender %p is %p', (written, code) => expect(codeOf(readGender(written))).toBe(code));
});

describe('phones as dialled', () => {
	test.each([
		['+14155552671', '+14155552671'],
		['+1 (415) 555-2671', '+14155552671'],
		['+49 151 2345 678', '+491512345678'],
		['+49/151.2345.678', '+491512345678'],
		['0049 151 2345678', '+491512345678'],
	])('%p is %p', (written, phone) => expect(codeOf(readPhone(written))).toBe(phone));

	test.each(['0151 2345678', '(415) 555-0100', '+49 abc', '+0 151', '+1 2'])('%p is refused', (written) =>
		expect(codeOf(readPhone(written))).toBeUndefined(),
	);
});
