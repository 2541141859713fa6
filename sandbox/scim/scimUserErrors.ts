import type { RouteResult } from '../core/route';
import { scimError } from '../core/scimErrorBody';

// The spec's two SCIM errors, word for word.
export function userNotFound(): RouteResult {
	return scimError(404, 'User not found');
}

// No scimType: the spec and Braze's sample show this body without RFC 7644's 'uniqueness'.
export function userAlreadyExists(): RouteResult {
	return scimError(409, 'User already exists in the database.');
}

/**
 * Not shown: how a malformed request is refused. 400 in the spec's SCIM error shape, `detail` naming the
 * field and the rule, with RFC 7644 §3.12's scimType for a missing or unacceptable value.
 */
export function invalidValue(detail: string): RouteResult {
	return scimError(400, detail, 'invalidValue');
}
