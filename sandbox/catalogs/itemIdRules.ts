/** The spec's catalog item ID: a string of at most 250 letters, numbers, hyphens, underscores. */
export const MAX_ITEM_ID_LENGTH = 250;

const ITEM_ID_CHARACTERS = /^[A-Za-z0-9_-]+$/;

/** Only the allowed characters (an empty ID has none, so it is invalid too). */
export function hasValidItemIdCharacters(id: string): boolean {
	return ITEM_ID_CHARACTERS.test(id);
}

export function isValidItemId(value: unknown): value is string {
	return typeof value === 'string' && value.length <= MAX_ITEM_ID_LENGTH && hasValidItemIdCharacters(value);
}
