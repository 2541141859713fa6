import type { IncomingHttpHeaders } from 'node:http';
import type { ApiKeyPermissions } from '../adminApiTypes';
import type { RouteDeclaration, RouteResult } from './route';
import { scimError } from './scimErrorBody';
import type { ScimTokenStore } from './scimTokenStore';

export const DEMO_API_KEY = 'sandbox-demo-key';

// The spec gives these messages but no status codes. We answer 401 for a missing or unknown key and
// 403 for a known key without the permission, as Braze does.
const INVALID_CREDENTIALS_MESSAGE = 'Error authenticating credentials';
const MISSING_PERMISSION_MESSAGE = 'You do not have permission to access this resource';

/** REST API keys and their permissions. The demo key always exists and may do everything. */
export class ApiKeyStore {
	private readonly keys = new Map<string, Set<string> | '*'>([[DEMO_API_KEY, '*']]);

	/** Adds the key, or replaces the permissions of an existing one. */
	set(key: string, permissions: ApiKeyPermissions): void {
		this.keys.set(key, permissions === '*' ? '*' : new Set(permissions));
	}

	permissionsOf(key: string): Set<string> | '*' | undefined {
		return this.keys.get(key);
	}
}

export type AuthOutcome = { ok: true; principal: string } | { ok: false; failure: RouteResult };

/** What requests may authenticate with. */
export interface Credentials {
	apiKeys: ApiKeyStore;
	scimTokens: ScimTokenStore;
}

/** Checks the credentials a route's auth scheme asks for; `principal` is what rate limits count per. */
export function authenticate(
	credentials: Credentials,
	route: RouteDeclaration,
	headers: IncomingHttpHeaders,
): AuthOutcome {
	switch (route.auth) {
		case 'rest':
			return authenticateApiKey(credentials.apiKeys, route.permission, headers);
		case 'scim':
			return authenticateScimToken(credentials.scimTokens, headers);
	}
}

function authenticateApiKey(keys: ApiKeyStore, permission: string, headers: IncomingHttpHeaders): AuthOutcome {
	const key = bearerToken(headers.authorization);
	const permissions = key === undefined ? undefined : keys.permissionsOf(key);
	if (key === undefined || permissions === undefined) return deny(401, INVALID_CREDENTIALS_MESSAGE);
	if (permissions !== '*' && !permissions.has(permission)) return deny(403, MISSING_PERMISSION_MESSAGE);
	return { ok: true, principal: key };
}

/**
 * A known SCIM token, sent from the origin it was issued for. Not shown: the status and body of a refusal.
 * 401 in the spec's SCIM error shape with the spec's "invalid credentials" text, whichever part is wrong
 * (the token, or a missing or different X-Request-Origin), so the answer does not reveal which.
 */
function authenticateScimToken(tokens: ScimTokenStore, headers: IncomingHttpHeaders): AuthOutcome {
	const token = bearerToken(headers.authorization);
	const origin = headers['x-request-origin'];
	if (token === undefined || origin === undefined || tokens.originOf(token) !== origin) {
		return { ok: false, failure: scimError(401, INVALID_CREDENTIALS_MESSAGE) };
	}
	return { ok: true, principal: token };
}

function bearerToken(header: string | undefined): string | undefined {
	const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
	return match ? match[1] : undefined;
}

function deny(status: number, message: string): AuthOutcome {
	return { ok: false, failure: { status, body: { message } } };
}
