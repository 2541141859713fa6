import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { RateLimitName } from '../limits/rateLimits';
import type { PlannedRequest } from './pieces';

/** Where a request goes and which of the spec's rate limits it counts against. */
export interface Endpoint<Group = unknown, Payload = IDataObject> {
	method: IHttpRequestMethods;
	/** The path template, e.g. /catalogs/{catalog_name}/items: each {name} is filled from the request's group. */
	path: string;
	/** The Limits-table group every request counts against, or the declared rule that picks it per request. */
	rateLimit: RateLimitName | ((request: PlannedRequest<Group, Payload>) => RateLimitName);
	/** The API key permission the endpoint needs, named in errors. */
	permission: string;
	credentialType: 'engagementPlatformApi' | 'engagementPlatformScimApi';
	/**
	 * Where the platform's method is uncertain: the method to use for the rest of the run once
	 * it answers 405 Method Not Allowed to `method`.
	 */
	fallbackMethod?: IHttpRequestMethods;
	/**
	 * The spec describes this endpoint's success as `message` = success: a 2xx saying anything else
	 * (a fatal message, a proxy's page) is no success, and is read as a server error is.
	 */
	successSaysSo?: true;
	/**
	 * The spec's answer to a success carries this field (the messaging endpoints' `dispatch_id`): a 2xx
	 * without it proves no send, and is read as a server error is.
	 */
	successCarries?: 'dispatch_id';
}
