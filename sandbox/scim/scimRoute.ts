/**
 * What every SCIM endpoint declares: SCIM token auth (see core/auth.ts, so no API key permission) and
 * the spec's one daily limit shared by all of them.
 */
export const SCIM_ROUTE = { auth: 'scim', permission: '', rateLimitGroup: 'scim' } as const;

export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
