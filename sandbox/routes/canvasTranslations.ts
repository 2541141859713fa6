import type { RouteDeclaration } from '../core/route';
import { handleCanvasTranslations } from '../translations/handleCanvasTranslations';

/** GET /canvas/translations (the spec writes /canvas/translations/: both match): one locale's translation. */
export const canvasTranslations: RouteDeclaration = {
	method: 'GET',
	path: '/canvas/translations',
	auth: 'rest',
	permission: 'canvas.translations.get',
	rateLimitGroup: 'canvas.translations',
	handle: handleCanvasTranslations,
};
