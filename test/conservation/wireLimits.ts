/**
 * The spec's per-request limits of every endpoint the nodes call, as each endpoint is declared with
 * them in the cases files (limitRules.ts says how they are read). A request to an endpoint missing
 * here is reported as over a limit: it is not in the spec.
 */
import type { RecordedRequest } from '../../sandbox';
import type { Endpoint } from './endpoints';
import { endpointName, matchEndpoint } from './endpoints';
import { ENDPOINTS } from './operationsTable';
import type { Body } from './pieceReading';

const WIRE_LIMITS: readonly Pick<Endpoint, 'method' | 'path' | 'limits'>[] = ENDPOINTS;

/** Each limit the request is over, as "METHOD /path: what (spec: ...)"; empty when within all. */
export function limitViolations(request: RecordedRequest): string[] {
	const match = matchEndpoint(WIRE_LIMITS, request);
	if (!match) return [`${request.method} ${request.path}: not an endpoint of the spec`];
	const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Body;
	return match.entry.limits.flatMap((limit) => {
		const over = limit.over(body, request);
		return over === undefined ? [] : [`${endpointName(match.entry)}: ${over} (spec: ${limit.spec})`];
	});
}
