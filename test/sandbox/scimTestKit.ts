import { DEMO_SCIM_ORIGIN, DEMO_SCIM_TOKEN, type SeedDashboardDirectory } from '../../sandbox';
import type { ApiAnswer, SandboxUnderTest } from './sandboxTestKit';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

interface ScimCredentials {
	/** Default the demo token; null: no Authorization header. */
	token?: string | null;
	/** Default the demo origin; null: no X-Request-Origin header. */
	origin?: string | null;
}

export type ScimCall = (
	method: string,
	path: string,
	body?: unknown,
	credentials?: ScimCredentials,
) => Promise<ApiAnswer>;

/** Calls a SCIM endpoint with the demo token and origin unless told otherwise. */
export function scimCaller(sandbox: SandboxUnderTest): ScimCall {
	return (method, path, body, { token = DEMO_SCIM_TOKEN, origin = DEMO_SCIM_ORIGIN } = {}) =>
		sandbox.call(method, path, body, { apiKey: token, headers: origin === null ? {} : { 'X-Request-Origin': origin } });
}

export function scimErrorBody(status: number, detail: string | RegExp, scimType?: string): unknown {
	return {
		schemas: [ERROR_SCHEMA],
		status,
		detail: typeof detail === 'string' ? detail : expectMatching(detail),
		...(scimType ? { scimType } : {}),
	};
}

function expectMatching(pattern: RegExp): unknown {
	return expect.stringMatching(pattern);
}

/** A directory with generated ids: two app groups (one with two teams), a role over both, a permission set. */
export const DIRECTORY: SeedDashboardDirectory = {
	appGroups: [
		{ name: 'Production', teams: [{ name: 'Web' }, { name: 'Mobile' }] },
		{ name: 'Staging', teams: [{ name: 'QA' }] },
	],
	roles: [{ name: 'Editor', appGroups: ['Production', 'Staging'] }],
	permissionSets: [{ name: 'Viewers', permissions: ['view_campaigns', 'view_segments'] }],
};

export const filterPath = (filter: string) => `/scim/v2/Users?filter=${encodeURIComponent(filter)}`;
