/**
 * Keys as users paste them, and answers that echo them back: what the secret tests and the
 * credential-forms property (test/sequences/credentialForms.test.ts) are made of.
 */
import { randomBytes } from 'node:crypto';

import type { FaultRule } from '../../sandbox/adminApiTypes';

/** What a paste can bring around a key: spaces, tabs and line breaks, before, after or both. */
export const PADS = ['', ' ', '\t', '\n', '\r\n', ' \t', '\n\n', '\t \r\n'] as const;

/**
 * Characters an API key may hold that an echo writes differently: quotes, `+ / = %`, a backslash,
 * HTML's `& < >`, latin1 letters (one byte each in a header) and characters beyond latin1, which
 * no header can carry.
 */
export const ODD_CHARACTERS = ['"', "'", '+', '/', '=', '%', '\\', '&', '<', '>', 'é', 'ü', 'ß', '€', 'ключ', '🔑'];

/** A character an HTTP header cannot carry (beyond latin1, or a control character other than a tab). */
export const headerCannotCarry = (text: string) => /[^\t\x20-\x7e\x80-\xff]/.test(text);

/** A fresh key with these odd characters in it and this padding around it. */
export function pastedKey(odd: readonly string[], before: string, after: string, prefix = 'key'): PastedKey {
	const body = randomBytes(12).toString('hex');
	const core = `${prefix}-${body.slice(0, 8)}${odd.join('')}${body.slice(8)}`;
	return { core, pasted: `${before}${core}${after}` };
}

export interface PastedKey {
	/** The key itself, what the platform knows. */
	core: string;
	/** What the credential holds. */
	pasted: string;
}

const base64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
const html = (text: string) =>
	text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
const jsonAsciiInner = (text: string) =>
	JSON.stringify(text)
		.slice(1, -1)
		.replace(/\//g, '\\/')
		.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * An answer echoing the key: `sent` is what the Authorization header carried (the key trimmed),
 * `held` what the credential holds. Each is answered with a status the nodes do not resend on, so
 * one fault answers one run.
 */
export interface Echo {
	name: string;
	answer(sent: string, held: string): Pick<FaultRule, 'status' | 'answerBody' | 'contentType' | 'answerHeaders'>;
}

export const ECHOES: readonly Echo[] = [
	{
		name: 'the headers as JSON (401)',
		answer: (sent) => ({
			status: 401,
			answerBody: { message: `Bad key: Bearer ${sent}`, headers: { authorization: `Bearer ${sent}` } },
		}),
	},
	{
		name: 'an HTML error page, escaped (400)',
		answer: (sent) => ({ status: 400, answerBody: `<html><pre>Authorization: Bearer ${html(sent)}</pre></html>` }),
	},
	{
		name: 'an HTML error page, unescaped (403)',
		answer: (sent) => ({ status: 403, answerBody: `<html><pre>Authorization: Bearer ${sent}</pre></html>` }),
	},
	{
		name: 'URL-encoded text (400)',
		answer: (sent) => ({
			status: 400,
			answerBody: `authorization=Bearer%20${encodeURIComponent(sent)}`,
			contentType: 'text/plain',
		}),
	},
	{
		name: 'form-encoded text (404)',
		answer: (sent) => ({
			status: 404,
			answerBody: new URLSearchParams({ authorization: `Bearer ${sent}` }).toString(),
			contentType: 'text/plain',
		}),
	},
	{
		// Cut short, as a page truncated by a proxy is: text that no JSON reader turns back into the key.
		name: 'truncated JSON text, ASCII-only with \\/ (400)',
		answer: (sent) => ({
			status: 400,
			answerBody: `{"authorization":"Bearer ${jsonAsciiInner(sent)}"`,
			contentType: 'text/plain',
		}),
	},
	{
		name: 'JSON inside a JSON string (401)',
		answer: (sent) => ({ status: 401, answerBody: { detail: JSON.stringify({ authorization: `Bearer ${sent}` }) } }),
	},
	{
		name: 'a Basic header, user:key (401)',
		answer: (sent) => ({
			status: 401,
			answerBody: `Authorization: Basic ${base64(`api:${sent}`)}`,
			contentType: 'text/plain',
		}),
	},
	{
		name: 'a Basic header, key: (401)',
		answer: (sent) => ({ status: 401, answerBody: { authorization: `Basic ${base64(`${sent}:`)}` } }),
	},
	{
		name: "the key's own base64 (400)",
		answer: (sent) => ({ status: 400, answerBody: { token: base64(sent), header: base64(`Bearer ${sent}`) } }),
	},
	{
		name: 'the key as the credential holds it (400)',
		answer: (_, held) => ({ status: 400, answerBody: { configured: held } }),
	},
	{
		name: "the header's bytes read as UTF-8 (401)",
		answer: (sent) => ({
			status: 401,
			answerBody: { authorization: `Bearer ${Buffer.from(sent, 'latin1').toString('utf8')}` },
		}),
	},
	{
		name: 'a redirect whose Location and headers carry the key (302)',
		answer: (sent) => ({
			status: 302,
			answerBody: `<a href="https://sso.example.com/login?token=${encodeURIComponent(sent)}">moved</a>`,
			answerHeaders: {
				Location: `https://sso.example.com/login?token=${encodeURIComponent(sent)}`,
				'X-Echo-Authorization': `Bearer ${encodeURIComponent(sent)}`,
			},
		}),
	},
];
