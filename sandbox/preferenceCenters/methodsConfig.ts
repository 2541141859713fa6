import type { PreferenceCenterMethod } from '../adminApiTypes';

// The spec writes the update as PUT and its sample as POST, leaving the method unresolved: both are served
// unless the configuration turns one off (to test a client's fallback from one to the other).
const PREFERENCE_CENTER_METHODS: readonly PreferenceCenterMethod[] = ['PUT', 'POST'];

export function defaultPreferenceCenterMethods(): PreferenceCenterMethod[] {
	return [...PREFERENCE_CENTER_METHODS];
}

export function preferenceCenterMethodsProblem(value: unknown): string | undefined {
	const valid =
		Array.isArray(value) &&
		value.length > 0 &&
		value.every((method) => PREFERENCE_CENTER_METHODS.includes(method as PreferenceCenterMethod)) &&
		new Set(value).size === value.length;
	return valid
		? undefined
		: `preferenceCenterMethods must be a non-empty list of distinct methods among ${PREFERENCE_CENTER_METHODS.join(', ')}`;
}
