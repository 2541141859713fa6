import type { RouteResult } from './route';

const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 §3.12 detail error keywords the sandbox uses. */
export type ScimErrorType = 'invalidFilter' | 'invalidValue' | 'mutability';

/** The spec's SCIM error body: `{ schemas, detail, status }`, plus RFC 7644's `scimType` where one applies. */
export function scimError(
	status: number,
	detail: string,
	scimType?: ScimErrorType,
	headers?: Record<string, string>,
): RouteResult {
	const body = { schemas: [SCIM_ERROR_SCHEMA], detail, status, ...(scimType === undefined ? {} : { scimType }) };
	return headers === undefined ? { status, body } : { status, body, headers };
}

/**
 * A failure the request pipeline produced (credentials, malformed body, rate limit, injected fault) in the
 * SCIM error shape, headers kept. Its `detail` is the most specific message the REST shape carried.
 */
export function asScimError(failure: RouteResult): RouteResult {
	const { message, errors } = (failure.body ?? {}) as { message?: unknown; errors?: unknown };
	const first = Array.isArray(errors) && typeof errors[0] === 'string' ? errors[0] : undefined;
	const detail = first ?? (typeof message === 'string' ? message : String(failure.status));
	return scimError(failure.status, detail, undefined, failure.headers);
}
