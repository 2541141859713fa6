import type { SeedMultiLanguage } from '../adminApiTypes';
import { isNonEmptyString, isPlainObject, isUuid } from '../formats';
import type { PlatformState } from './platformState';

/** What is wrong with the seeded multi-language settings, or undefined (checked before anything is stored). */
export function multiLanguageSeedProblem(settings: SeedMultiLanguage | undefined): string | undefined {
	if (settings === undefined) return undefined;
	if (!isPlainObject(settings)) return 'multiLanguage must be an object { enabled?, locales }';
	if (settings.enabled !== undefined && typeof settings.enabled !== 'boolean')
		return 'multiLanguage.enabled must be a boolean';
	if (!Array.isArray(settings.locales))
		return 'multiLanguage.locales must be an array of { id, name, country, language }';
	const ids = new Set<string>();
	for (const [i, locale] of settings.locales.entries()) {
		const path = `multiLanguage.locales[${i}]`;
		if (!isPlainObject(locale) || !isUuid(locale.id)) return `${path}.id must be a UUID`;
		for (const field of ['name', 'country', 'language'] as const) {
			if (!isNonEmptyString(locale[field])) return `${path}.${field} must be a non-empty string`;
		}
		if (ids.has(locale.id.toLowerCase())) return `${path}.id '${locale.id}' is used twice`;
		ids.add(locale.id.toLowerCase());
	}
	return undefined;
}

/** Replaces the workspace's settings whole. Call multiLanguageSeedProblem first. */
export function seedMultiLanguage(state: PlatformState, settings: SeedMultiLanguage | undefined): void {
	if (settings === undefined) return;
	state.multiLanguage = {
		enabled: settings.enabled ?? true,
		locales: settings.locales.map(({ id, name, country, language }) => ({ id, name, country, language })),
	};
}
