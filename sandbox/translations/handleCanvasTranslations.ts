import type { RouteContext, RouteResult } from '../core/route';
import { isUuid } from '../formats';
import { findStep, messageIn } from './findMessage';
import { messageLocale } from './messageLocale';
import { enabledMultiLanguage, untranslatableMessage } from './translatableMessage';
import { translationError } from './translationErrors';
import { translationsAnswer } from './translationsAnswer';

/**
 * GET /canvas/translations?step_id=&message_variation_id=&locale_id=: the translation of a canvas step's
 * message into one locale. Not shown where step_id and message_variation_id go: query parameters, like
 * locale_id (a GET has no body). Checked in this order: workspace multi-language, the message variation
 * ID, the step, the message in it, its channel and multi-language, then the locale.
 */
export function handleCanvasTranslations({ query, state }: RouteContext): RouteResult {
	const settings = enabledMultiLanguage(state);
	if (!settings) return translationError('MULTI_LANGUAGE_NOT_ENABLED');
	const messageVariationId = query.message_variation_id;
	if (!isUuid(messageVariationId)) return translationError('INVALID_MESSAGE_VARIATION_ID');
	// Not shown: a step_id that is missing, malformed or unknown. 400 INVALID_STEP_ID and 404 STEP_NOT_FOUND,
	// as the spec answers a message ID (400 when malformed, 404 when nothing has it).
	if (!isUuid(query.step_id)) return translationError('INVALID_STEP_ID');
	const step = findStep(state, query.step_id);
	if (!step) return translationError('STEP_NOT_FOUND', 404);
	const message = messageIn(step.messages, messageVariationId);
	if (!message) return translationError('MESSAGE_NOT_FOUND', 404);
	const untranslatable = untranslatableMessage(message);
	if (untranslatable) return untranslatable;
	// locale_id is required: a missing one is a locale absent from the settings (LOCALE_NOT_FOUND).
	const located = messageLocale(settings, message, query.locale_id);
	if ('refusal' in located) return located.refusal;
	return translationsAnswer(settings, message, located.locale);
}
