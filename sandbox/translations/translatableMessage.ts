import type { MessageView, MultiLanguageView } from '../adminApiTypes';
import type { RouteResult } from '../core/route';
import type { PlatformState } from '../state/platformState';
import { translationError } from './translationErrors';

/** The workspace's multi-language settings when they are turned on, else undefined. */
export function enabledMultiLanguage(state: PlatformState): MultiLanguageView | undefined {
	return state.multiLanguage?.enabled ? state.multiLanguage : undefined;
}

/** Why the message cannot be translated (only email, with multi-language on), or undefined. */
export function untranslatableMessage(message: MessageView): RouteResult | undefined {
	if (message.channel !== 'email') return translationError('UNSUPPORTED_CHANNEL');
	if (!message.multi_language) return translationError('MULTI_LANGUAGE_NOT_ENABLED_ON_MESSAGE');
	return undefined;
}
