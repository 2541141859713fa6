import type { RouteDeclaration } from '../core/route';
import { handleCampaignTranslations } from '../translations/handleCampaignTranslations';

/** GET /campaigns/translations: 200 `{ translations, message }`; errors as `errors: [{ message: <NAME> }]`. */
export const campaignsTranslations: RouteDeclaration = {
	method: 'GET',
	path: '/campaigns/translations',
	auth: 'rest',
	permission: 'campaigns.translations.get',
	rateLimitGroup: 'campaigns.translations',
	handle: handleCampaignTranslations,
};

/**
 * GET /campaign/translations: the spec's sample request uses this path and leaves it unresolved against
 * /campaigns/translations, so both are served, alike in permission and limit (one budget).
 */
export const campaignTranslationsSamplePath: RouteDeclaration = {
	...campaignsTranslations,
	path: '/campaign/translations',
};
