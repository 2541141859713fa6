import type { RouteContext, RouteResult } from '../core/route';
import { isUuid } from '../formats';
import { findMessage } from './findMessage';
import { enabledMultiLanguage, untranslatableMessage } from './translatableMessage';
import { translationError } from './translationErrors';
import { translationsAnswer } from './translationsAnswer';

/**
 * GET /campaigns/translations?campaign_id=&message_variation_id=: every translation of the campaign's
 * message. Checked in this order: workspace multi-language, the message variation ID, the campaign ID,
 * the message, then its channel and multi-language. The spec lists only those two parameters ("Parameters:
 * campaign_id ..., message_variation_id ..."), so any other is ignored, locale_id included: it answers
 * every translation, never one locale's (LOCALE_NOT_FOUND and INVALID_LOCALE_ID are the canvas endpoint's).
 */
export function handleCampaignTranslations({ query, state }: RouteContext): RouteResult {
	const settings = enabledMultiLanguage(state);
	if (!settings) return translationError('MULTI_LANGUAGE_NOT_ENABLED');
	const messageVariationId = query.message_variation_id;
	if (!isUuid(messageVariationId)) return translationError('INVALID_MESSAGE_VARIATION_ID');
	const found = findMessage(state, messageVariationId);
	// "campaign ID does not match the campaign being translated": missing, or another campaign's (or a
	// canvas's) message. A campaign ID with a message that exists nowhere is MESSAGE_NOT_FOUND below.
	const campaignId = query.campaign_id;
	const ownedElsewhere =
		found !== undefined && !(found.owner.kind === 'campaign' && found.owner.campaignId === campaignId);
	if (!campaignId || ownedElsewhere) return translationError('INVALID_CAMPAIGN_ID');
	if (!found) return translationError('MESSAGE_NOT_FOUND', 404);
	const untranslatable = untranslatableMessage(found.message);
	if (untranslatable) return untranslatable;
	return translationsAnswer(settings, found.message);
}
