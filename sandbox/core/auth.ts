import type { IncomingHttpHeaders } from 'node:http';
import type { ApiKeyPermissions } from '../adminApiTypes';
import type { RouteDeclaration, RouteResult } from './route';

export const DEMO_API_KEY = 'sandbox-demo-key';

// The spec gives these messages but no status codes. We answer 401 for a missing or unknown key and
// 403 for a known key without the permission, as Braze does.
export const INVALID_CREDENTIALS_MESSAGE = 'Error authenticating credentials';
export const MISSING_PERMISSION_MESSAGE = 'You do not have permission to access this resource';

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

/** Checks the credentials a route's auth scheme asks for; `principal` is what rate limits count per. */
export function authenticate(
	keys: ApiKeyStore,
	route: RouteDeclaration,
	headers: IncomingHttpHeaders,
): AuthOutcome {
	switch (route.auth) {
		case 'rest':
			return authenticateApiKey(keys, route.permission, headers);
		case 'scim':
			// Hook for the SCIM endpoints: a SCIM token plus X-Request-Origin. No SCIM token is accepted
			// until those endpoints and their token store exist.
			return deny(401, INVALID_CREDENTIALS_MESSAGE);
	}
}

function authenticateApiKey(keys: ApiKeyStore, permission: string, headers: IncomingHttpHeaders): AuthOutcome {
	const key = bearerToken(headers.authorization);
	const permissions = key === undefined ? undefined : keys.permissionsOf(key);
	if (key === undefined || permissions === undefined) return deny(401, INVALID_CREDENTIALS_MESSAGE);
	if (permissions !== '*' && !permissions.has(permission)) return deny(403, MISSING_PERMISSION_MESSAGE);
	return { ok: true, principal: key };
}

export function bearerToken(header: string | undefined): string | undefined {
	const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
	return match ? match[1] : undefined;
}

function deny(status: number, message: string): AuthOutcome {
	return { ok: false, failure: { status, body: { message } } };
}
