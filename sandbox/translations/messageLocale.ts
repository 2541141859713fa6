import type { MessageView, MultiLanguageView, WorkspaceLocale } from '../adminApiTypes';
import type { RouteResult } from '../core/route';
import { isUuid, sameUuid } from '../formats';
import { invalidLocaleId, translationError } from './translationErrors';
import { translationMapOf } from './translationMap';

/**
 * The workspace locale `localeId` names, when the message has a translation for it. LOCALE_NOT_FOUND
 * when it is missing, not a UUID or not among the workspace's locales; INVALID_LOCALE_ID (plain text) when
 * the message has no translation for it.
 */
export function messageLocale(
	settings: MultiLanguageView,
	message: MessageView,
	localeId: string | undefined,
): { locale: WorkspaceLocale } | { refusal: RouteResult } {
	const locale = isUuid(localeId) ? settings.locales.find((candidate) => sameUuid(candidate.id, localeId)) : undefined;
	if (!locale) return { refusal: translationError('LOCALE_NOT_FOUND') };
	if (!translationMapOf(message, locale)) return { refusal: invalidLocaleId(localeId as string) };
	return { locale };
}
