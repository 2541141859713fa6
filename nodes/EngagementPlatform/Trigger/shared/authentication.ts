import { createHash, timingSafeEqual } from 'node:crypto';

import { normalisedSecret, secretProblem } from '../../shared/engine';

/** Request headers as Node gives them (lower-case names). */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export type PostbackAuthentication = 'none' | 'headerAuth' | 'basicAuth';

/** The fields of the engagementPlatformPostbackAuthApi credential. */
export interface PostbackAuthCredential {
	headerName?: string;
	headerToken?: string;
	user?: string;
	password?: string;
}

const MIN_TOKEN_LENGTH = 16;

/** RFC 9110 token characters: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Headers that n8n, proxies or HTTP itself set or rewrite: a secret in them would not arrive intact. */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
	'content-type',
	'content-length',
	'content-encoding',
	'transfer-encoding',
	'host',
	'connection',
	'cookie',
	'expect',
	'upgrade',
]);

const filled = (value: string | undefined): value is string => typeof value === 'string' && value !== '';

/**
 * A postback secret as the trigger compares it, the credential's and the postback's alike: without
 * the spaces, tabs and line breaks around it (normalisedSecret, as the API key and the SCIM token are
 * sent). Per field, what the platform can deliver:
 * - Header Token: a header value reaches n8n without the spaces and tabs around it (RFC 9110's OWS)
 *   and cannot carry a line break at all, so a token saved with them could never match: what it is
 *   compared as is the token a header can bring.
 * - Basic Auth's user and password: base64 carries them whole, padding included, so the platform
 *   could bring a padded one. But what pads them is what a paste brought, into the credential or into
 *   the platform's form, not part of the secret: both sides are compared trimmed, so a padded paste on
 *   either side still matches, and a space or line break inside still counts.
 * The 16-character minimum counts the token as compared.
 */
const comparedSecret = (value: string | undefined): string => normalisedSecret(value);

/** What keeps the header pair from being used, or undefined when it is usable. */
export function headerPairProblem(credential: PostbackAuthCredential): string | undefined {
	const name = (credential.headerName ?? '').trim();
	const token = comparedSecret(credential.headerToken);
	if (!filled(name) || !filled(token)) return 'Header Token authentication needs a header name and a token';
	if (!HEADER_NAME.test(name))
		return `"${name}" is not a valid header name: use letters, digits and hyphens, e.g. X-Postback-Token`;
	if (RESERVED_HEADERS.has(name.toLowerCase()))
		return `"${name}" is set by HTTP itself and cannot carry a token: use e.g. X-Postback-Token`;
	const uncarried = secretProblem(
		token,
		'Header Token',
		'no postback can bring it: use a token of letters, digits and signs such as - and _',
	);
	if (uncarried !== undefined) return uncarried;
	if (token.length < MIN_TOKEN_LENGTH)
		return `The Header Token is shorter than ${MIN_TOKEN_LENGTH} characters (the spaces, tabs and line breaks around it, which HTTP does not carry, not counted): use a long random value, e.g. 32 letters and digits`;
	return undefined;
}

/** What keeps the user/password pair from being used, or undefined when it is usable. */
export function basicPairProblem(credential: PostbackAuthCredential): string | undefined {
	const user = comparedSecret(credential.user);
	const password = comparedSecret(credential.password);
	if (!filled(user) || !filled(password)) return 'Basic Auth authentication needs a user and a password';
	if (user.includes(':')) return 'The user must not contain ":" (Basic Auth separates user and password with it)';
	return undefined;
}

export function credentialProblem(
	authentication: Exclude<PostbackAuthentication, 'none'>,
	credential: PostbackAuthCredential,
): string | undefined {
	return authentication === 'headerAuth' ? headerPairProblem(credential) : basicPairProblem(credential);
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Compares a presented secret with the expected one in constant time: both are hashed first, so the
 * buffers compared are always of equal length and the time taken says nothing about either.
 */
function sameSecret(presented: string | undefined, expected: string): boolean {
	const equal = timingSafeEqual(digest(presented ?? ''), digest(expected));
	return equal && presented !== undefined;
}

function singleHeader(headers: RequestHeaders, name: string): string | undefined {
	const value = headers[name.toLowerCase()];
	return typeof value === 'string' ? value : undefined;
}

/**
 * The ways a postback's bytes may spell its secret. n8n (Node) reads a header one byte per character
 * (latin1), while a platform's HTTP client may write a letter such as "é" as its UTF-8 bytes (Node's
 * own does when it writes a header with a text body): a secret is read both ways, so the token saved
 * in n8n matches whichever the platform used. ASCII reads the same both ways.
 */
const readings = (bytes: Buffer): string[] => [bytes.toString('latin1'), bytes.toString('utf8')];

/** `Authorization: Basic base64(user:password)` → its two parts, in each reading of the bytes. */
function basicCredentials(headers: RequestHeaders): Array<{ user: string; password: string }> {
	const match = /^Basic[ \t]+([A-Za-z0-9+/=._~-]+)[ \t]*$/i.exec(singleHeader(headers, 'authorization') ?? '');
	if (!match) return [];
	return readings(Buffer.from(match[1], 'base64')).flatMap((decoded) => {
		const separator = decoded.indexOf(':');
		return separator < 0 ? [] : [{ user: decoded.slice(0, separator), password: decoded.slice(separator + 1) }];
	});
}

/**
 * Whether the request carries the credential's secret, each side as comparedSecret has it and the
 * request's in each of its readings. Call only with a usable credential (see credentialProblem). Every
 * reading and both parts of a Basic pair are always compared, so the time taken says nothing.
 */
export function isAuthorized(
	authentication: Exclude<PostbackAuthentication, 'none'>,
	credential: PostbackAuthCredential,
	headers: RequestHeaders,
): boolean {
	const anyOf = (matches: boolean[]) => matches.reduce((some, match) => some || match, false);
	if (authentication === 'headerAuth') {
		const presented = singleHeader(headers, (credential.headerName ?? '').trim());
		if (presented === undefined) return false;
		const expected = comparedSecret(credential.headerToken);
		return anyOf(
			readings(Buffer.from(presented, 'latin1')).map((reading) => sameSecret(comparedSecret(reading), expected)),
		);
	}
	const pairs = basicCredentials(headers);
	const [user, password] = [comparedSecret(credential.user), comparedSecret(credential.password)];
	return anyOf(
		pairs.map((pair) => {
			const userMatches = sameSecret(comparedSecret(pair.user), user);
			const passwordMatches = sameSecret(comparedSecret(pair.password), password);
			return userMatches && passwordMatches;
		}),
	);
}
