import type { MessageView, WorkspaceLocale } from '../adminApiTypes';
import { sameUuid } from '../formats';

/** The message's translation_map for this locale, or undefined when it has none. */
export function translationMapOf(message: MessageView, locale: WorkspaceLocale): Record<string, string> | undefined {
	const key = Object.keys(message.translations).find((localeId) => sameUuid(localeId, locale.id));
	return key === undefined ? undefined : message.translations[key];
}
