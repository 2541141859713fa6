import { onFirstUse } from '../objects/onFirstUse';
import { E164 } from './identifiers';
import { normalized } from './nearestValue';
import { shown } from './shown';

/**
 * Coded attributes as marketers write them. The platform wants codes (country ISO 3166-1 alpha-2,
 * language ISO 639-1, gender M or F and the other letters well-known platforms take, phones in E.164);
 * sheets, CRMs and shop exports hold words. A code in any case, or a name the runtime knows (Intl's
 * names of every code, in the languages of the platform's main markets and the language's own) reads
 * as the code. The tables are built the first time one is read (onFirstUse), read-only after.
 */
const LOCALES: readonly string[] = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'da', 'pl', 'ja'];

/** Not countries: the unknown region, outlying Oceania, the EU, the eurozone, the UN, and the private codes. */
const NOT_A_COUNTRY = /^(ZZ|QO|EU|EZ|UN|Q[M-Z]|X[A-JL-Z]|AA)$/;

function twoLetterCodes(upper: boolean): string[] {
	const codes: string[] = [];
	for (let first = 0; first < 26; first++)
		for (let second = 0; second < 26; second++) {
			const code = String.fromCharCode(97 + first, 97 + second);
			codes.push(upper ? code.toUpperCase() : code);
		}
	return codes;
}

function namesOf(type: 'region' | 'language', codes: readonly string[]): Map<string, string> {
	const names = new Map<string, string>();
	for (const locale of LOCALES) {
		const display = new Intl.DisplayNames([locale], { type, fallback: 'none' });
		for (const code of codes) {
			const name = display.of(code);
			if (name) names.set(normalized(name), code);
		}
	}
	return names;
}

const englishNames = onFirstUse(() => ({
	region: new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }),
	language: new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }),
}));

/** Forms Intl does not list: the ones sheets hold most. */
const COUNTRY_FORMS: ReadonlyArray<[string, string]> = [
	['usa', 'US'],
	['u s', 'US'],
	['u s a', 'US'],
	['united states of america', 'US'],
	['america', 'US'],
	['uk', 'GB'],
	['u k', 'GB'],
	['great britain', 'GB'],
	['britain', 'GB'],
	['england', 'GB'],
	['scotland', 'GB'],
	['wales', 'GB'],
	['northern ireland', 'GB'],
	['holland', 'NL'],
	['the netherlands', 'NL'],
	['czech republic', 'CZ'],
	['south korea', 'KR'],
	['korea', 'KR'],
	['russia', 'RU'],
	['turkey', 'TR'],
	['ivory coast', 'CI'],
	['uae', 'AE'],
];

interface CodeTable {
	codes: ReadonlySet<string>;
	names: ReadonlyMap<string, string>;
}

const countries = onFirstUse((): CodeTable => {
	// Intl also names the old and alias codes (UK, FX, YU): only the code itself is one, the others read as names.
	const codes = twoLetterCodes(true).filter(
		(code) =>
			!NOT_A_COUNTRY.test(code) &&
			englishNames().region.of(code) !== undefined &&
			Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`,
	);
	return { codes: new Set(codes), names: new Map([...namesOf('region', codes), ...COUNTRY_FORMS]) };
});

const languages = onFirstUse((): CodeTable => {
	const codes = twoLetterCodes(false).filter((code) => {
		const name = englishNames().language.of(code);
		return name !== undefined && name !== code;
	});
	// The main markets' languages by their own names too: Deutsch, español, français.
	const own = LOCALES.flatMap((code): Array<[string, string]> => {
		const name = new Intl.DisplayNames([code], { type: 'language', fallback: 'none' }).of(code);
		return name ? [[normalized(name), code]] : [];
	});
	return { codes: new Set(codes), names: new Map([...namesOf('language', codes), ...own]) };
});

/** The platform's gender letters, and the words forms and CRMs write for them. */
const GENDER_CODES: readonly string[] = ['M', 'F', 'O', 'N', 'P', 'U'];
const GENDER_WORDS: ReadonlyMap<string, string> = new Map(
	Object.entries({
		M: [
			'male',
			'man',
			'men',
			'masculine',
			'mann',
			'mannlich',
			'herr',
			'mr',
			'homme',
			'masculin',
			'hombre',
			'masculino',
			'maschio',
			'uomo',
			'homem',
			'man',
			'mand',
		],
		F: [
			'female',
			'woman',
			'women',
			'feminine',
			'frau',
			'weiblich',
			'w',
			'mrs',
			'ms',
			'femme',
			'feminin',
			'mujer',
			'femenino',
			'femmina',
			'donna',
			'feminino',
			'mulher',
			'vrouw',
			'kvinna',
			'kvinde',
		],
		O: ['other', 'divers', 'diverse', 'd', 'x', 'non binary', 'nonbinary', 'autre', 'otro', 'altro', 'outro', 'anders'],
		N: ['not applicable', 'n a', 'na'],
		P: ['prefer not to say', 'prefer not to answer', 'keine angabe', 'not disclosed'],
		U: ['unknown', 'unbekannt', 'inconnu', 'desconocido', 'sconosciuto'],
	}).flatMap(([code, words]) => words.map((word): [string, string] => [word, code])),
);

/**
 * The expression a fix writes for a value: the column path it was mapped from (`$json.Country`,
 * `$json["Phone Number"]`), else `fallback`. Any other expression (a constant, a computation) would make a
 * fix no one can paste, and n8n's engine and a dragged field would write it apart.
 */
function columnPathOr(expression: string | undefined, fallback: string): string {
	return expression !== undefined && /^\$json(\.[A-Za-z_$][\w$]*|\["[^"\\]*"\])+$/.test(expression)
		? expression
		: fallback;
}

/** A coded value: the code, or why the value is none (its rule naming the codes it could mean). */
export type CodeReading = { code: string } | { problem: { rule: string; fix: string } };

/** A country: its ISO 3166-1 alpha-2 code in any case, or a name of it (Germany, Deutschland, USA, UK). */
export function readCountry(value: string, mappedFrom?: string): CodeReading {
	return readCode(value, countries(), {
		asCode: value.trim().toUpperCase(),
		wordsOf: (code) => `${code} (${englishNames().region.of(code)})`,
		what: 'a two-letter ISO 3166-1 country code or a country name',
		example: 'DE',
		expression: columnPathOr(mappedFrom, '$json.country'),
	});
}

/** A language: its ISO 639-1 code in any case, or a name of it (German, Deutsch, allemand). */
export function readLanguage(value: string, mappedFrom?: string): CodeReading {
	return readCode(value, languages(), {
		asCode: value.trim().toLowerCase(),
		wordsOf: (code) => `${code} (${englishNames().language.of(code)})`,
		what: 'a two-letter ISO 639-1 language code or a language name',
		example: 'de',
		expression: columnPathOr(mappedFrom, '$json.language'),
	});
}

/** A value read against a table of codes: the code as written (in its case), a name of one, or why it is none. */
function readCode(
	value: string,
	{ codes, names }: CodeTable,
	how: { asCode: string; wordsOf: (code: string) => string; what: string; example: string; expression: string },
): CodeReading {
	if (codes.has(how.asCode)) return { code: how.asCode };
	const named = names.get(normalized(value));
	if (named !== undefined) return { code: named };
	return notACode(value, how.what, nearestNames(value, names, how.wordsOf), how.example, how.expression);
}

/** A gender: one of the letters in any case, or a word for one (female, Frau, man). */
export function readGender(value: string): CodeReading {
	const upper = value.trim().toUpperCase();
	if (GENDER_CODES.includes(upper)) return { code: upper };
	const named = GENDER_WORDS.get(normalized(value));
	if (named !== undefined) return { code: named };
	return {
		problem: {
			rule: `expects one of ${GENDER_CODES.join(', ')} or a word for one, not ${shown(value)}`,
			fix: 'Give M (male), F (female), O (other), N (not applicable), P (prefer not to say) or U (unknown).',
		},
	};
}

/**
 * A phone number as dialled: `+` (or the international `00`) and the country code, spaces, dashes, dots,
 * slashes and brackets dropped, sent in E.164. A number without its country code is refused: which
 * country it is in is not known here, and a number sent half-formed would reach nobody.
 */
export function readPhone(value: string, mappedFrom?: string): CodeReading {
	const expression = columnPathOr(mappedFrom, '$json.phone');
	const digits = value.trim().replace(/[\s\-.()/]/g, '');
	const phone = digits.startsWith('00') ? `+${digits.slice(2)}` : digits;
	if (E164.test(phone)) return { code: phone };
	if (/^\d+$/.test(phone))
		return {
			problem: {
				rule: `has no country code: ${shown(value)}`,
				fix: `Write it with + and its country code, e.g. +49 151 2345678, or add the code in the mapping, e.g. {{ '+49' + ${expression}.replace(/^0/, '') }}.`,
			},
		};
	return {
		problem: {
			rule: `is not a phone number in E.164 form (+, the country code and the number): ${shown(value)}`,
			fix: 'Write it as + country code and number, e.g. +14155552671; spaces, dashes and brackets may stay.',
		},
	};
}

/**
 * A value that reads as no code: the value, the codes it could mean ("DE (Germany)"), and the expression
 * that maps it, with the first of them or an example: {{ $json.Country === 'Bavaria' ? 'DE' : $json.Country }}.
 */
function notACode(
	value: string,
	what: string,
	nearest: Array<{ code: string; words: string }>,
	example: string,
	expression: string,
): CodeReading {
	const could = nearest.length > 0 ? ` (did you mean ${nearest.map(({ words }) => words).join(' or ')}?)` : '';
	const code = nearest[0]?.code ?? example;
	const quoted = `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
	return {
		problem: {
			rule: `expects ${what}, not ${shown(value)}${could}`,
			fix: `Give a code such as ${code}, or map the value to one: {{ ${expression} === ${quoted} ? '${code}' : ${expression} }}.`,
		},
	};
}

/** Up to three codes whose names start like the value or are a typo away, each with its words ("DE (Germany)"). */
function nearestNames(
	value: string,
	names: ReadonlyMap<string, string>,
	words: (code: string) => string,
): Array<{ code: string; words: string }> {
	const given = normalized(value);
	if (given.length < 3) return [];
	const codes = new Set<string>();
	for (const [name, code] of names) {
		if (codes.size >= 3) break;
		if (name.startsWith(given) || (name.length >= 3 && given.startsWith(name)) || typoAway(given, name))
			codes.add(code);
	}
	return [...codes].map((code) => ({ code, words: words(code) }));
}

/** One letter changed, added or dropped. */
function typoAway(left: string, right: string): boolean {
	if (Math.abs(left.length - right.length) > 1) return false;
	let index = 0;
	while (index < left.length && left[index] === right[index]) index++;
	const rest = (from: string, skip: number) => from.slice(index + skip);
	return rest(left, 1) === rest(right, 1) || rest(left, 1) === rest(right, 0) || rest(left, 0) === rest(right, 1);
}
