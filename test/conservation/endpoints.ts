/**
 * Endpoints as the spec writes them (method and path template, e.g. `PUT /catalogs/{catalog_name}/items`),
 * matched against recorded requests.
 */
import type { RecordedRequest } from '../../sandbox';
import type { WireLimit } from './limitRules';
import type { Body, WirePiece } from './pieceReading';

export interface EndpointTemplate {
	method: string;
	/** With `{name}` for a path parameter. */
	path: string;
}

/** An endpoint of the spec the nodes call, declared once, in the cases file of the rows that call it. */
export interface Endpoint extends EndpointTemplate {
	/** The pieces of item data one request to it holds, read from the body shape the spec gives it. */
	read(body: Body, params: Record<string, string>, request: RecordedRequest): WirePiece[];
	/** The spec's per-request limits; none where it states none per request. */
	limits: WireLimit[];
}

export interface EndpointMatch<T extends EndpointTemplate> {
	entry: T;
	/** Path parameters by name, URL-decoded. */
	params: Record<string, string>;
}

/** The entry whose method and path template the request matches (a trailing slash is ignored). */
export function matchEndpoint<T extends EndpointTemplate>(
	table: readonly T[],
	request: Pick<RecordedRequest, 'method' | 'path'>,
): EndpointMatch<T> | undefined {
	const path = request.path.length > 1 ? request.path.replace(/\/+$/, '') : request.path;
	for (const entry of table) {
		if (entry.method !== request.method.toUpperCase()) continue;
		const names: string[] = [];
		const pattern = entry.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
			names.push(name);
			return '([^/]+)';
		});
		const match = new RegExp(`^${pattern}$`).exec(path);
		if (!match) continue;
		return { entry, params: Object.fromEntries(names.map((name, index) => [name, safeDecode(match[index + 1])])) };
	}
	return undefined;
}

export const endpointName = (entry: EndpointTemplate): string => `${entry.method} ${entry.path}`;

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}
