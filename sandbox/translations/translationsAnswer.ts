import type { MessageView, MultiLanguageView, WorkspaceLocale } from '../adminApiTypes';
import type { RouteResult } from '../core/route';
import { translationMapOf } from './translationMap';

/**
 * 200 `{ translations: [{ locale: { name, country, language }, translation_map }], message: 'success' }`:
 * the message's translations in the order of the workspace's locales (one locale's when `only` is given).
 * A translation for a locale the workspace no longer has is left out: there is no locale to show.
 */
export function translationsAnswer(
	settings: MultiLanguageView,
	message: MessageView,
	only?: WorkspaceLocale,
): RouteResult {
	const translations = [];
	for (const locale of only ? [only] : settings.locales) {
		const translationMap = translationMapOf(message, locale);
		if (!translationMap) continue;
		translations.push({
			locale: { name: locale.name, country: locale.country, language: locale.language },
			translation_map: { ...translationMap },
		});
	}
	return { status: 200, body: { translations, message: 'success' } };
}
