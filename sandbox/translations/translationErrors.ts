import type { RouteResult } from '../core/route';

/** The spec's error names (Errors, Translations), plus the sandbox's two for a canvas step (see below). */
export type TranslationErrorCode =
	| 'INVALID_CAMPAIGN_ID'
	| 'INVALID_MESSAGE_VARIATION_ID'
	| 'MESSAGE_NOT_FOUND'
	| 'LOCALE_NOT_FOUND'
	| 'MULTI_LANGUAGE_NOT_ENABLED'
	| 'MULTI_LANGUAGE_NOT_ENABLED_ON_MESSAGE'
	| 'UNSUPPORTED_CHANNEL'
	// Not in the spec's table: a step_id missing or not a UUID, and one no canvas has. Named like the
	// spec's own codes so a client handles them the same way.
	| 'INVALID_STEP_ID'
	| 'STEP_NOT_FOUND';

/**
 * The spec's error body, `errors: [{ message }]`, with the error's name as the message. The spec shows no
 * 404 body: a 404 (MESSAGE_NOT_FOUND, STEP_NOT_FOUND) has the same shape.
 */
export function translationError(code: TranslationErrorCode, status = 400): RouteResult {
	return { status, body: { errors: [{ message: code }] } };
}

/**
 * "Sample 400 messages also appear as plain text (for example an invalid-locale-ID message)": this one is
 * answered text/plain, the name first, so a client must cope with a 400 that is not JSON.
 */
export function invalidLocaleId(localeId: string): RouteResult {
	return {
		status: 400,
		body: `INVALID_LOCALE_ID: locale ${localeId} is not in this message's translation`,
		format: 'text',
	};
}
