export const DEMO_SCIM_TOKEN = 'sandbox-demo-scim-token';
export const DEMO_SCIM_ORIGIN = 'sandbox.local';

/**
 * SCIM tokens and the request origin each is bound to (the dashboard's SCIM provisioning settings).
 * The demo token always exists.
 */
export class ScimTokenStore {
	private readonly origins = new Map<string, string>([[DEMO_SCIM_TOKEN, DEMO_SCIM_ORIGIN]]);

	/** Adds the token, or moves an existing one to another origin. */
	set(token: string, origin: string): void {
		this.origins.set(token, origin);
	}

	originOf(token: string): string | undefined {
		return this.origins.get(token);
	}
}

/** Why a list of `{ token, origin }` is unusable, or undefined. */
export function scimTokensProblem(tokens: unknown): string | undefined {
	if (tokens === undefined) return undefined;
	if (!Array.isArray(tokens)) return 'scimTokens must be an array of { token, origin }';
	for (const [i, entry] of tokens.entries()) {
		const problem = scimTokenProblem(entry);
		if (problem) return `scimTokens[${i}]: ${problem}`;
	}
	return undefined;
}

export function scimTokenProblem(entry: unknown): string | undefined {
	const { token, origin } = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
	if (typeof token !== 'string' || token.trim() === '' || /\s/.test(token))
		return 'token must be a non-empty string without spaces';
	if (typeof origin !== 'string' || origin.trim() === '') return 'origin must be a non-empty string';
	return undefined;
}
