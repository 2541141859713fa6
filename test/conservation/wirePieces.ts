/**
 * The pieces of item data in one recorded request, read from the body shapes the spec gives each
 * endpoint (not from the nodes), by the reader each endpoint is declared with in the cases files:
 * every object of /users/track's arrays, every ID of a subscription element, every recipient of a
 * send, every catalog item, the body of each one-per-request endpoint, and so on.
 */
import type { RecordedRequest } from '../../sandbox';
import { matchEndpoint } from './endpoints';
import { ENDPOINTS } from './operationsTable';
import type { WirePiece } from './pieceReading';
import { asBody } from './pieceReading';

/** Every piece of item data in the request; none for an endpoint the spec does not have. */
export function wirePieces(request: RecordedRequest): WirePiece[] {
	const match = matchEndpoint(ENDPOINTS, request);
	return match ? match.entry.read(asBody(request.body), match.params, request) : [];
}
