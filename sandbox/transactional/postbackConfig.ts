import type { PostbackConfigPatch, PostbackConfigView } from '../adminApiTypes';
import { isPlainObject } from '../formats';

const DEFAULT_POSTBACK_DELAY_MS = 50;

/** After a reset: no postback URL (the spec: the customer configures one in the dashboard). */
export function defaultPostbackConfig(): PostbackConfigView {
	return { url: null, headers: {}, delayMs: DEFAULT_POSTBACK_DELAY_MS };
}

/** The whole setting a patch stands for: omitted headers and delayMs take their defaults. */
export function postbackConfigFrom(patch: PostbackConfigPatch): PostbackConfigView {
	return { url: patch.url, headers: { ...patch.headers }, delayMs: patch.delayMs ?? DEFAULT_POSTBACK_DELAY_MS };
}

export function postbackConfigProblem(patch: unknown): string | undefined {
	if (!isPlainObject(patch)) return 'postbacks must be an object { url, headers?, delayMs? }';
	if (patch.url !== null && !isHttpUrl(patch.url))
		return 'postbacks.url must be an http(s) URL, or null for no postbacks';
	if (patch.headers !== undefined) {
		if (!isPlainObject(patch.headers)) return 'postbacks.headers must be an object of header names to string values';
		for (const [name, value] of Object.entries(patch.headers)) {
			// The token characters of RFC 9110 field names; values without line breaks.
			if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return `postbacks.headers: '${name}' is not a valid header name`;
			if (typeof value !== 'string' || /[\r\n]/.test(value))
				return `postbacks.headers.${name} must be a string without line breaks`;
		}
	}
	if (
		patch.delayMs !== undefined &&
		!(typeof patch.delayMs === 'number' && Number.isFinite(patch.delayMs) && patch.delayMs >= 0)
	) {
		return 'postbacks.delayMs must be a number of at least 0';
	}
	return undefined;
}

function isHttpUrl(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}
