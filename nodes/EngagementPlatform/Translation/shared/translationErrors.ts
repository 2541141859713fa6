import type { IDataObject } from 'n8n-workflow';

/** The spec's translation error codes: what each means and what to change. */
const TRANSLATION_ERRORS: Record<string, { meaning: string; fix: string }> = {
	INVALID_CAMPAIGN_ID: {
		meaning: 'the campaign ID does not match the campaign of this message variation',
		fix: "Use the ID of the campaign the message variation belongs to; both are in the campaign's API identifiers.",
	},
	INVALID_LOCALE_ID: {
		meaning: "the locale is not one this message's translation has",
		fix: 'Use a locale the message has been translated into.',
	},
	INVALID_MESSAGE_VARIATION_ID: {
		meaning: 'the message variation ID is incorrect',
		fix: "Copy the message variation ID from the campaign's or the canvas step's API identifiers.",
	},
	MESSAGE_NOT_FOUND: {
		meaning: 'no message to translate was found for these IDs',
		fix: 'Check the campaign or step ID and the message variation ID; the message may have been deleted.',
	},
	LOCALE_NOT_FOUND: {
		meaning: "the locale is not in the workspace's multi-language settings",
		fix: 'Use the ID of a locale listed in the multi-language settings, or add the locale there first.',
	},
	MULTI_LANGUAGE_NOT_ENABLED: {
		meaning: 'multi-language settings are not enabled in this workspace',
		fix: 'Turn on multi-language support in the workspace settings (translations are an early-access feature).',
	},
	MULTI_LANGUAGE_NOT_ENABLED_ON_MESSAGE: {
		meaning:
			'this message is not set up for translation; only email campaigns and canvas email messages can be translated',
		fix: 'Turn on translations for the message in its editor, or use the email message variation.',
	},
	UNSUPPORTED_CHANNEL: {
		meaning: 'only email campaign messages and canvas email messages can be translated',
		fix: 'Use the message variation ID of the email message.',
	},
};

// Longest first, so MULTI_LANGUAGE_NOT_ENABLED_ON_MESSAGE is not read as MULTI_LANGUAGE_NOT_ENABLED.
const CODES = Object.keys(TRANSLATION_ERRORS).sort((a, b) => b.length - a.length);

export interface TranslationError {
	code: string;
	meaning: string;
	fix: string;
}

/**
 * The error code of a refused translation request. The spec gives the codes as names in the
 * `errors` messages, and says some messages come as plain text: every message is searched.
 */
export function translationErrorOf(body: IDataObject): TranslationError | undefined {
	const errors = Array.isArray(body.errors) ? (body.errors as unknown[]) : [];
	const texts = [
		body.message,
		body.error,
		...errors.map((error) => (error && typeof error === 'object' ? (error as IDataObject).message : error)),
	];
	for (const text of texts) {
		if (typeof text !== 'string') continue;
		const code = CODES.find((candidate) => new RegExp(`\\b${candidate}\\b`).test(text));
		if (code) return { code, ...TRANSLATION_ERRORS[code] };
	}
	return undefined;
}
