import type { RouteContext, RouteResult } from '../core/route';
import { isUuid } from '../formats';
import { findMessage } from './findMessage';
import { messageLocale } from './messageLocale';
import { enabledMultiLanguage, untranslatableMessage } from './translatableMessage';
import { translationError } from './translationErrors';
import { translationsAnswer } from './translationsAnswer';

/**
 * GET /campaigns/translations?campaign_id=&message_variation_id=[&locale_id=]: every translation of the
 * campaign's message, or only locale_id's. Checked in this order: workspace multi-language, the message
 * variation ID, the campaign ID, the message, its channel and multi-language, then the locale. Other query
 * parameters are ignored: Braze takes more than the spec lists (post_launch_draft_version).
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
	const ownedElsewhere = found !== undefined && !(found.owner.kind === 'campaign' && found.owner.campaignId === campaignId);
	if (!campaignId || ownedElsewhere) return translationError('INVALID_CAMPAIGN_ID');
	if (!found) return translationError('MESSAGE_NOT_FOUND', 404);
	const untranslatable = untranslatableMessage(found.message);
	if (untranslatable) return untranslatable;
	// locale_id is optional here (Braze: a filter); an empty one counts as absent. Given, it is checked as
	// the canvas endpoint checks it (the spec names LOCALE_NOT_FOUND and INVALID_LOCALE_ID for canvases only).
	if (!query.locale_id) return translationsAnswer(settings, found.message);
	const located = messageLocale(settings, found.message, query.locale_id);
	if ('refusal' in located) return located.refusal;
	return translationsAnswer(settings, found.message, located.locale);
}
