/**
 * The platform delivering the Trigger's postbacks, for the credential-forms property
 * (credentialForms.test.ts): the postback secret as the platform holds it, carried as HTTP carries
 * it, and one real postback from the sandbox per send.
 *
 * A header value goes out as the platform holds it, spaces and tabs around it included, and reaches
 * n8n without them (HTTP's optional whitespace); it can hold no line break, so the platform's form
 * never has one. A Basic header carries its user and password inside base64, padding and line breaks
 * included, so the platform may hold them with any padding a paste brings.
 */
import fc from 'fast-check';

import type { SandboxClient } from '../../sandbox';
import type { WebhookServer } from '../harness';
import { PADS } from '../reliability/echoes';

/** The secrets of the postback credential the property generates, each as its Test names it. */
export const POSTBACK_FIELDS = ['headerToken', 'user', 'password'] as const;
export type PostbackField = (typeof POSTBACK_FIELDS)[number];

const HEADER_NAME = 'X-Postback-Token';
/** The pair's other half, when the generated secret is Basic Auth's user or password. */
const OTHER_USER = 'platform-postbacks';
const OTHER_PASSWORD = 'pw-5d0c1e8a7b3f4a6e9c2d';

/** How a wrong postback differs from the authentic one. */
const WRONG_FORMS = ['a digit changed', 'a space inside', 'cut by one character', 'no secret at all'] as const;
export type WrongForm = (typeof WRONG_FORMS)[number];

/** What surrounds the secret where the platform holds it, and the wrong postback sent before the authentic one. */
export interface Delivery {
	before: string;
	after: string;
	wrong: WrongForm;
}

/** What a header value can hold at its edges (no line break); HTTP takes it off on the way. */
const HEADER_PADS = ['', ' ', '\t', ' \t', '  '] as const;

export const delivery: fc.Arbitrary<Delivery> = fc.record({
	before: fc.constantFrom(...PADS, ...HEADER_PADS),
	after: fc.constantFrom(...PADS, ...HEADER_PADS),
	wrong: fc.constantFrom(...WRONG_FORMS),
});

/** The secret where the platform holds it: a header's padding holds no line break, a Basic pair's any. */
export function platformForm(field: PostbackField, secret: string, { before, after }: Delivery): string {
	const pad = (text: string) => (field === 'headerToken' ? text.replace(/[\r\n]/g, '') : text);
	return `${pad(before)}${secret}${pad(after)}`;
}

/** The secret made wrong as `wrong` says: undefined for a postback without one. */
export function wrongForm(secret: string, wrong: WrongForm): string | undefined {
	if (wrong === 'no secret at all') return undefined;
	if (wrong === 'a space inside') return `${secret.slice(0, 6)} ${secret.slice(6)}`;
	if (wrong === 'cut by one character') return [...secret].slice(0, -1).join('');
	// The last hex digit of the key's body, changed to another: the key always holds 16 or more.
	const at = secret.search(/[0-9a-f](?=[^0-9a-f]*$)/);
	const digit = secret[at] === '0' ? '1' : '0';
	return `${secret.slice(0, at)}${digit}${secret.slice(at + 1)}`;
}

/** The headers a postback carries the secret in, for the field the secret belongs to. */
export function postbackHeaders(field: PostbackField, secret: string | undefined): Record<string, string> {
	if (secret === undefined) return {};
	if (field === 'headerToken') return { [HEADER_NAME]: secret };
	const [user, password] = field === 'user' ? [secret, OTHER_PASSWORD] : [OTHER_USER, secret];
	return { Authorization: `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}` };
}

/** The postback credential holding `pasted` in `field` (the pair's other half filled in plainly). */
export function postbackCredential(field: PostbackField, pasted: string): Record<string, string> {
	if (field === 'headerToken') return { headerName: HEADER_NAME, headerToken: pasted };
	return field === 'user'
		? { headerName: HEADER_NAME, user: pasted, password: OTHER_PASSWORD }
		: { headerName: HEADER_NAME, user: OTHER_USER, password: pasted };
}

/** The sandbox's seed for postbacks: a contact without an email, whose send gives one postback ("aborted"). */
export const POSTBACK_SEED = {
	profiles: [{ external_id: 'customer-without-email' }],
	campaigns: [{ id: 'order-receipt', kind: 'transactional' as const }],
};

/**
 * One transactional send through the platform with its postbacks sending `headers` to the trigger's
 * server: the status the trigger answered its one postback with, as the platform recorded it (null
 * when it got no answer). Waits on the trigger's server first, which is in this process, and asks the
 * platform once it has answered.
 */
export async function deliverPostback(
	platform: { client: SandboxClient; url: string; apiKey: string },
	trigger: WebhookServer,
	headers: Record<string, string>,
	sendId: string,
): Promise<number | null> {
	const { client } = platform;
	const [postbacksBefore, callsBefore] = [(await client.state()).postbacks.length, trigger.calls.length];
	await client.configure({ postbacks: { url: trigger.url, headers, delayMs: 0 } });
	const response = await fetch(`${platform.url}/transactional/v1/campaigns/order-receipt/send`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${platform.apiKey}` },
		body: JSON.stringify({ external_send_id: sendId, recipient: { external_user_id: 'customer-without-email' } }),
	});
	if (response.status !== 201) throw new Error(`the platform refused the send: ${response.status}`);
	const deadline = Date.now() + 10_000;
	const waitFor = async <T>(found: () => T | undefined | Promise<T | undefined>): Promise<T> => {
		for (;;) {
			const value = await found();
			if (value !== undefined) return value;
			if (Date.now() > deadline) throw new Error('the platform sent no postback within 10 s');
			await new Promise((resolve) => setTimeout(resolve, 1));
		}
	};
	await waitFor(() => (trigger.calls.length > callsBefore ? true : undefined));
	await trigger.settled();
	return await waitFor(async () => (await client.state()).postbacks[postbacksBefore]?.responseStatus);
}
