import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

import type { RunResult } from '../harness';

/** A secret made up for one run: wherever it turns up, it cannot be there by chance. */
export const freshSecret = (prefix: string) => `${prefix}-${randomBytes(18).toString('hex')}`;

/**
 * Everything a run leaves behind that a user, a log collector or an execution viewer could see:
 * n8n's whole run record (output items, stored errors, hints), the thrown error with its
 * description and stack, and every line logged through n8n's logger.
 */
export function visibleTraces(result: RunResult): string {
	const error = result.error as (Error & { description?: string }) | undefined;
	return [
		traceOf(result.run),
		error ? `${error.message}\n${error.description ?? ''}\n${traceOf(error)}` : '',
		traceOf(result.logs),
	].join('\n');
}

/**
 * All of a value, however deep, long or circular, its errors' own fields and causes included: as
 * util.inspect shows it, and every string in it as it is (inspect escapes quotes and backslashes,
 * which would hide a secret holding them).
 */
export const traceOf = (value: unknown) =>
	[
		inspect(value, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity, breakLength: Infinity }),
		...stringsOf(value, new Set()),
	].join('\n');

function stringsOf(value: unknown, seen: Set<object>): string[] {
	if (typeof value === 'string') return [value];
	if (value === null || typeof value !== 'object' || seen.has(value)) return [];
	seen.add(value);
	const entries = value instanceof Map ? [...value.entries()].flat() : value instanceof Set ? [...value] : undefined;
	if (entries) return entries.flatMap((entry) => stringsOf(entry, seen));
	return Object.getOwnPropertyNames(value).flatMap((key) => [key, ...stringsOf(read(value, key), seen)]);
}

function read(value: object, key: string): unknown {
	try {
		return (value as Record<string, unknown>)[key];
	} catch {
		return undefined;
	}
}

/**
 * The forms in which a secret can come back in an answer, each named. Written here on their own
 * (not taken from the transport), so that a form the transport forgets is found.
 *
 * A secret leaves as the credential holds it, or trimmed (what the Authorization header can carry);
 * the header's bytes are latin1, and a server may read them as UTF-8. An echo then writes what it
 * got as it is, URL-encoded (either case of hex, `+` for a space, or one byte per %XX), JSON-escaped
 * (with `\/`, or with every non-ASCII character as `\uXXXX`), HTML-escaped, and any of those twice.
 * Base64 (a Basic header's `user:secret`, the secret's own) is found by decoding: see base64Leaks.
 */
function secretForms(secret: string): Map<string, string> {
	const trimmed = secret.trim();
	const bases: Array<[string, string]> = [
		['as held', secret],
		['trimmed', trimmed],
		['header bytes read as UTF-8', Buffer.from(trimmed, 'latin1').toString('utf8')],
	];
	const forms = new Map<string, string>();
	for (const [baseName, base] of bases) {
		for (const [firstName, first] of ESCAPES) {
			for (const [secondName, second] of ESCAPES) {
				const form = second(first(base));
				const name = [baseName, firstName, secondName].filter((part) => part !== 'as is').join(', ');
				if (form.length > 0 && ![...forms.values()].includes(form)) forms.set(name, form);
			}
		}
	}
	return forms;
}

const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');
const jsonInner = (text: string) => JSON.stringify(text).slice(1, -1);
const ESCAPES: Array<[string, (text: string) => string]> = [
	['as is', (text) => text],
	['URL-encoded', encodeURIComponent],
	['URL-encoded, lower-case hex', (text) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
	['form-encoded', (text) => new URLSearchParams({ v: text }).toString().slice(2)],
	[
		'URL-encoded by latin1 byte',
		(text) =>
			[...text]
				.map((char) =>
					/[A-Za-z0-9\-_.~]/.test(char) || char.charCodeAt(0) > 0xff
						? char
						: `%${hex(char.charCodeAt(0), 2).toUpperCase()}`,
				)
				.join(''),
	],
	['JSON-escaped', jsonInner],
	['JSON-escaped with \\/', (text) => jsonInner(text).replace(/\//g, '\\/')],
	[
		'JSON-escaped, ASCII only',
		(text) => jsonInner(text).replace(/[\u007f-\uffff]/g, (char) => `\\u${hex(char.charCodeAt(0), 4)}`),
	],
	[
		'HTML-escaped',
		(text) =>
			text
				.replace(/&/g, '&amp;')
				.replace(/</g, '&lt;')
				.replace(/>/g, '&gt;')
				.replace(/"/g, '&quot;')
				.replace(/'/g, '&#39;'),
	],
	['HTML-escaped by number', (text) => text.replace(/[&<>"']/g, (char) => `&#x${hex(char.charCodeAt(0), 2)};`)],
];

/** Shorter secrets are not looked for: the transport leaves them alone (they could match ordinary text). */
const MIN_LENGTH = 6;

/**
 * The secret, trimmed, inside base64 anywhere in the text: every run of base64 characters (either
 * alphabet) is decoded from each of its first four offsets, and the bytes read as latin1 and as UTF-8.
 */
function base64Leaks(text: string, secret: string): string[] {
	const trimmed = secret.trim();
	const leaks: string[] = [];
	for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{8,}={0,2}/g)) {
		for (let offset = 0; offset < 4; offset++) {
			const bytes = Buffer.from(run.slice(offset).replace(/-/g, '+').replace(/_/g, '/'), 'base64');
			if (bytes.toString('latin1').includes(trimmed) || bytes.toString('utf8').includes(trimmed))
				leaks.push(`base64 in "${run}"`);
		}
	}
	return leaks;
}

/** Where each secret turns up in the text, in any form (none, when all is well). */
export function leaksIn(text: string, secrets: readonly string[]): string[] {
	return secrets
		.filter((secret) => secret.trim().length >= MIN_LENGTH)
		.flatMap((secret) => [
			...[...secretForms(secret)]
				.filter(([, form]) => text.includes(form))
				.map(([name, form]) => `${name}: ${JSON.stringify(form)}`),
			...base64Leaks(text, secret),
		]);
}

/** The secrets found in a run's traces, in any form they can come back in (none, when all is well). */
export function leakedSecrets(result: RunResult, secrets: string[]): string[] {
	return leaksIn(visibleTraces(result), secrets);
}
