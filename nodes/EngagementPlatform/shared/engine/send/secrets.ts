import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * A credential's secrets (the API key, the SCIM token) as the package handles them. Each is
 * normalised once, the same way for every request, the credential Test's and the memory of Send Only
 * Changes included; and each is taken out of every answer in every form an echo can give it back in.
 * The Trigger compares the postback secrets normalised the same way (Trigger/shared/authentication.ts).
 */

/** Shorter values could match ordinary text; a key this short is refused by the platform anyway. */
const MIN_SECRET_LENGTH = 6;

/** What stands in for a secret taken out of an answer. */
const REDACTED = '[redacted]';

/**
 * The secret as a header sends it: without the spaces, tabs and line breaks a paste brings around
 * it. A header cannot carry a line break, and the platform does not count what surrounds the key.
 */
export function normalisedSecret(value: unknown): string {
	if (value === undefined || value === null) return '';
	return String(value).trim();
}

/**
 * Why a request header cannot carry this normalised secret, or undefined when it can. Inside a key, a
 * line break or another control character, or a character beyond latin1, is not sent as typed (n8n's
 * HTTP client drops it without a word): the key is refused before anything leaves, and the message
 * does not show it. `consequence` says what follows for the secret at hand: a key the nodes send "was
 * not sent"; a token the Trigger expects in a header is one no postback can bring.
 */
export function secretProblem(secret: string, label: string, consequence = 'it was not sent'): string | undefined {
	if (hasControlCharacter(secret))
		return `The ${label} has a line break or another control character inside it, which a request header cannot carry: ${consequence}`;
	if (hasBeyondLatin1(secret))
		return `The ${label} has a character a request header cannot carry (such as "€" or a letter outside Latin-1): ${consequence}`;
	return undefined;
}

/** A line break or another control character: C0 but the tab, and DEL. */
function hasControlCharacter(text: string): boolean {
	return [...text].some((character) => {
		const code = character.codePointAt(0)!;
		return (code < 0x20 && code !== 0x09) || code === 0x7f;
	});
}

function hasBeyondLatin1(text: string): boolean {
	return [...text].some((character) => character.codePointAt(0)! > 0xff);
}

/** The headers of the REST credential (engagementPlatformApi), from its stored values. */
export function apiKeyHeaders(credentials: ICredentialDataDecryptedObject): Record<string, string> {
	return { Authorization: `Bearer ${normalisedSecret(credentials.apiKey)}` };
}

/** The headers of the SCIM credential (engagementPlatformScimApi), from its stored values. */
export function scimHeaders(credentials: ICredentialDataDecryptedObject): Record<string, string> {
	return {
		Authorization: `Bearer ${normalisedSecret(credentials.scimToken)}`,
		'X-Request-Origin': normalisedSecret(credentials.requestOrigin),
	};
}

/** The secret fields of the package's credentials, each with what a message calls it. */
const SECRET_FIELDS = [
	['apiKey', 'API key'],
	['scimToken', 'SCIM token'],
] as const;

/** The credential's secrets, normalised: what a request carries and an answer must not. */
export function secretsOf(credentials: ICredentialDataDecryptedObject): string[] {
	return SECRET_FIELDS.filter(([field]) => credentials[field] !== undefined).map(([field]) =>
		normalisedSecret(credentials[field]),
	);
}

/** Why the credential's secrets cannot be sent, or undefined when they can. */
export function credentialSecretProblem(credentials: ICredentialDataDecryptedObject): string | undefined {
	for (const [field, label] of SECRET_FIELDS) {
		const problem = secretProblem(normalisedSecret(credentials[field]), label);
		if (problem) return problem;
	}
	return undefined;
}

/**
 * Takes a credential's secrets out of answers. An error page may echo the request's headers
 * (`Authorization: Bearer …`), and what an answer says reaches items, errors, n8n's saved executions
 * and logs: no form of the key may ride along. Built once per run: one regular expression matches
 * every form of every secret.
 *
 * The forms: the key as the header carried it (trimmed: the untrimmed key holds it), and those bytes
 * read as UTF-8 by the server; each written as it is or with any of its characters escaped, once or
 * twice over (an escaped page inside JSON), as URL encoding (either case of hex, `+` for a space, a
 * latin1 byte per %XX), JSON (`\"`, `\/`, `\u00e9`), HTML (`&quot;`, `&#39;`, `&#x2F;`) or a
 * backslash byte (`\xe9`) write it; and inside base64 at any of its three alignments, as in a Basic
 * header's `user:key` or the key's own base64, in either alphabet. An escape works a character at a
 * time, so each character of a form is matched by any of its escapes, in any mixture.
 */
export class SecretRedactor {
	private readonly pattern: RegExp | undefined;

	constructor(secrets: readonly unknown[]) {
		const targets = new Set<string>();
		for (const value of secrets) {
			const secret = normalisedSecret(value);
			if (secret.length < MIN_SECRET_LENGTH) continue;
			targets.add(secret);
			const readAsUtf8 = Buffer.from(secret, 'latin1').toString('utf8');
			if (readAsUtf8.length >= MIN_SECRET_LENGTH) targets.add(readAsUtf8);
			for (const bytes of [Buffer.from(secret, 'latin1'), Buffer.from(secret, 'utf8')])
				for (const core of base64Cores(bytes)) if (core.length >= MIN_SECRET_LENGTH) targets.add(core);
		}
		if (targets.size === 0) return;
		// Each character's source is worked out once for the run (base64 repeats its few signs).
		const characterSources = new Map<string, string>();
		const sources = [...targets]
			.sort((a, b) => b.length - a.length)
			.map((target) => anyEscapeOf(target, characterSources));
		this.pattern = new RegExp(sources.join('|'), 'g');
	}

	/** The text with every form of every secret replaced by [redacted]. */
	text(text: string): string {
		if (!this.pattern) return text;
		return text.replace(this.pattern, REDACTED);
	}

	/** The value (an answer's body or headers) with every string in it, keys included, redacted. */
	value(value: unknown): unknown {
		if (!this.pattern) return value;
		if (typeof value === 'string') return this.text(value);
		if (Array.isArray(value)) return value.map((entry) => this.value(entry));
		if (value !== null && typeof value === 'object')
			return Object.fromEntries(
				Object.entries(value as Record<string, unknown>).map(([key, entry]) => [this.text(key), this.value(entry)]),
			);
		return value;
	}
}

/**
 * A run's secrets, carrying the redactor built for them: resolveEndpoint builds it once per run, and
 * every request of the run passes the list on (ApiRequest.secrets).
 */
export type RunSecrets = string[] & { readonly redactor: SecretRedactor };

export function runSecrets(secrets: string[]): RunSecrets {
	return Object.defineProperty(secrets, 'redactor', { value: new SecretRedactor(secrets) }) as RunSecrets;
}

/** The redactor of a run's secrets, or one built for a list that has none. */
export function redactorFor(secrets: readonly string[]): SecretRedactor {
	return (secrets as Partial<RunSecrets>).redactor ?? new SecretRedactor(secrets);
}

/**
 * The part of the base64 of `bytes` that does not depend on what comes before or after them, for each
 * of the three alignments they can have inside a longer base64 text (`user:` before them, `:` after).
 */
function base64Cores(bytes: Buffer): string[] {
	const cores: string[] = [];
	for (let offset = 0; offset < 3; offset++) {
		const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
		const whole = Math.floor((offset + bytes.length) / 3) * 4;
		const core = encoded.slice([0, 2, 3][offset], whole);
		cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return cores;
}

/** A regular expression source matching the text with each of its characters in any of its escapes. */
function anyEscapeOf(text: string, sources: Map<string, string>): string {
	return [...text]
		.map((char) => {
			let source = sources.get(char);
			if (source === undefined) {
				const forms = escapesOf(char);
				source = forms.length === 1 ? escapeRegExp(char) : `(?:${forms.map(escapeRegExp).join('|')})`;
				sources.set(char, source);
			}
			return source;
		})
		.join('');
}

/**
 * A character as itself and as every encoder below writes it, once or twice over (an encoder's
 * output encoded again). Letters and digits no encoder changes.
 */
function escapesOf(char: string): string[] {
	const forms = new Set([char]);
	if (!ALPHANUMERIC.test(char))
		for (const first of ENCODERS) {
			const once = first(char);
			forms.add(once);
			for (const second of ENCODERS) forms.add([...once].map((inner) => encode(second, inner)).join(''));
		}
	return [...forms].sort((a, b) => b.length - a.length);
}

/** No encoder escapes a letter or a digit. */
const ALPHANUMERIC = /^[A-Za-z0-9]$/;
const encode = (encoder: (char: string) => string, char: string) => (ALPHANUMERIC.test(char) ? char : encoder(char));
const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');
const utf16 = (char: string) => Array.from({ length: char.length }, (_, index) => char.charCodeAt(index));
const codeOf = (char: string) => char.codePointAt(0) ?? 0;
/** The character's one byte in a header (latin1), when it has one. */
const byteOf = (char: string) => (char.length === 1 && char.charCodeAt(0) <= 0xff ? char.charCodeAt(0) : undefined);
const PRINTABLE_ASCII = /^[\x20-\x7e]$/;
const jsonOf = (char: string) => JSON.stringify(char).slice(1, -1);
const asciiJsonOf = (char: string, upper: boolean) =>
	PRINTABLE_ASCII.test(char)
		? jsonOf(char)
		: utf16(char)
				.map((code) => `\\u${upper ? hex(code, 4).toUpperCase() : hex(code, 4)}`)
				.join('');
const bytePercentOf = (char: string, upper: boolean) => {
	const byte = byteOf(char);
	if (byte === undefined || UNRESERVED.test(char)) return char;
	return `%${upper ? hex(byte, 2).toUpperCase() : hex(byte, 2)}`;
};
const byteDumpOf = (char: string) => {
	const byte = byteOf(char);
	if (char === '\\') return '\\\\';
	return byte === undefined || PRINTABLE_ASCII.test(char) ? char : `\\x${hex(byte, 2)}`;
};
/** HTML's five signs, as the HTML escapers in use write them (Python's `&#x27;`, Go's `&#34;`, PHP's `&#039;`, ...). */
const HTML_SIGNS = ['&', '<', '>', '"', "'"];
const HTML_NAMED: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const HTML_ESCAPERS: ReadonlyArray<Readonly<Record<string, string>>> = [
	{ ...HTML_NAMED, '"': '&quot;', "'": '&#39;' },
	{ ...HTML_NAMED, '"': '&#34;', "'": '&#39;' },
	{ ...HTML_NAMED, '"': '&quot;', "'": '&#x27;' },
	{ ...HTML_NAMED, '"': '&quot;', "'": '&#039;' },
	{ ...HTML_NAMED, '"': '&quot;', "'": '&apos;' },
	Object.fromEntries(HTML_SIGNS.map((sign) => [sign, `&#x${hex(codeOf(sign), 2)};`])),
	Object.fromEntries(HTML_SIGNS.map((sign) => [sign, `&#${codeOf(sign)};`])),
];

/**
 * How an echo may write a character of what it got, one function per encoder, each as it writes a
 * whole text: URL encoding of the UTF-8 bytes (either case of hex) and a form's; one latin1 byte per
 * %XX (a server that read the header's bytes); JSON as JSON.stringify writes it, with `\/`, and ASCII
 * only (`\u00e9`, either case); HTML's escapers of its five signs, and numeric references for every
 * sign; and a dump of bytes (`\xe9`).
 */
const ENCODERS: ReadonlyArray<(char: string) => string> = [
	encodeURIComponent,
	(char) => encodeURIComponent(char).toLowerCase(),
	(char) => new URLSearchParams({ v: char }).toString().slice(2),
	(char) => bytePercentOf(char, true),
	(char) => bytePercentOf(char, false),
	jsonOf,
	(char) => (char === '/' ? '\\/' : jsonOf(char)),
	(char) => asciiJsonOf(char, false),
	(char) => asciiJsonOf(char, true),
	...HTML_ESCAPERS.map((escaper) => (char: string) => escaper[char] ?? char),
	(char) => `&#x${hex(codeOf(char), 2)};`,
	(char) => `&#${codeOf(char)};`,
	byteDumpOf,
];

/** What URL encoders leave as it is. */
const UNRESERVED = /^[A-Za-z0-9\-_.~]$/;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
