import type { IDataObject } from 'n8n-workflow';

import type { Endpoint, PieceError } from '../operation';
import type { ApiResponse } from './transport';

/** What an error's advice needs to know of the endpoint. */
type EndpointAccess = Pick<Endpoint, 'permission' | 'credentialType'>;

/** The platform's own message, from `message` or the first of `errors`. */
export function platformMessage(body: IDataObject, statusCode: number): string {
	if (typeof body.message === 'string' && body.message && body.message !== 'success') return body.message;
	const errors = body.errors;
	if (Array.isArray(errors) && errors.length > 0) {
		const first = errors[0] as unknown;
		if (typeof first === 'string') return first;
		if (first && typeof first === 'object') {
			const { message, type, detail } = first as IDataObject;
			const text = message ?? type ?? detail;
			if (typeof text === 'string') return text;
		}
	}
	if (typeof body.detail === 'string') return body.detail;
	return `The platform answered with status ${statusCode}`;
}

/**
 * A redirect is never followed: n8n would send the credential along to wherever it points. The
 * item names where it pointed (its host only: a Location may carry anything in its query).
 */
function redirectError(response: ApiResponse): PieceError {
	const location = response.headers.location ?? response.headers.Location;
	const target = Array.isArray(location) ? location[0] : location;
	let host = 'an address it did not give';
	try {
		if (target) host = new URL(target).host || host;
	} catch {
		// Not a URL: the host stays unnamed.
	}
	return {
		message: `The endpoint answered ${response.statusCode}, redirecting to ${host}: not followed, so nothing was sent there`,
		description:
			"The API key only goes to the endpoint in the credential. If the platform has moved, put its new address in the credential; if not, check what answers at the credential's endpoint.",
		delivery: 'not_applied',
		httpCode: response.statusCode,
	};
}

/** A refusal every request of the run meets whatever it carries: the key, its permissions, n8n's address. */
function isTheRuns(message: string, statusCode: number): boolean {
	return (
		statusCode === 401 ||
		statusCode === 403 ||
		message.includes('Error authenticating credentials') ||
		message.includes('do not have permission') ||
		message.includes('Invalid whitelisted IPs')
	);
}

/** What the user should do about a failed request, by the platform's message or status. */
function adviceFor(message: string, statusCode: number, endpoint: EndpointAccess): string {
	const scim = endpoint.credentialType === 'engagementPlatformScimApi';
	if (message.includes('Error authenticating credentials') || statusCode === 401) {
		return scim
			? 'The SCIM token or the request origin was refused. Open the credential and check both, and the endpoint of your workspace.'
			: 'The API key was refused. Open the credential and check the key and the endpoint of your workspace.';
	}
	if (message.includes('do not have permission') || statusCode === 403) {
		return scim
			? 'The SCIM token may not do this. Check its settings in the platform.'
			: `The API key works but lacks the "${endpoint.permission}" permission. Add it to the key in the platform's API settings.`;
	}
	if (message.includes('Invalid whitelisted IPs')) {
		return "This n8n's address is not on the key's IP allow-list. Add it in the platform's API settings.";
	}
	if (statusCode >= 500) {
		return 'The platform failed while handling the request; it may or may not have been applied. Check the platform before running these items again.';
	}
	if (statusCode < 300) {
		return `The platform (or something between n8n and it) answered ${statusCode} without saying success, so nothing proves these items were stored; they may or may not have been applied. Check the platform before running these items again.`;
	}
	if (statusCode === 404) return 'The platform does not know this resource. Check the IDs and the endpoint URL.';
	if (statusCode === 405)
		return 'The platform does not take this method at this address. Check the endpoint URL in the credential.';
	return 'The platform refused the request. Correct the values it names and run these items again.';
}

/**
 * A response that is no success as the error of every piece it carried. `maybeApplied`: this answer
 * (a 5xx, a 2xx proving nothing) or an earlier attempt's lost answer leaves the request's fate unknown.
 */
export function responseError(response: ApiResponse, endpoint: EndpointAccess, maybeApplied: boolean): PieceError {
	if (response.statusCode >= 300 && response.statusCode < 400) {
		return maybeApplied ? mayHaveBeenApplied(redirectError(response)) : { ...redirectError(response), ofTheRun: true };
	}
	const message = platformMessage(response.body, response.statusCode);
	const error: PieceError = {
		message,
		description: adviceFor(message, response.statusCode, endpoint),
		delivery: 'not_applied',
		httpCode: response.statusCode,
		response: response.body,
	};
	if (!maybeApplied) return isTheRuns(message, response.statusCode) ? { ...error, ofTheRun: true } : error;
	// The unclear outcome leads the error, where a user skimming failed items reads it.
	if (response.statusCode >= 500 || response.statusCode < 300)
		return { ...error, message: `${message}: this item may or may not have been applied`, delivery: 'maybe_applied' };
	return mayHaveBeenApplied(error);
}

/** A refusal of a resend, when an earlier attempt may have been applied: so may the item. */
export function mayHaveBeenApplied(error: PieceError): PieceError {
	return {
		...error,
		message: `${error.message}, after an earlier attempt whose answer was lost: this item may or may not have been applied`,
		description:
			'An earlier attempt reached the platform and its answer never came, so it may have been applied. Check the platform before running this item again.',
		delivery: 'maybe_applied',
	};
}
