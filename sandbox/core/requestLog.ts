import type { IncomingHttpHeaders } from 'node:http';
import type { FaultKind, RecordedRequest, RequestFilter } from '../adminApiTypes';

// Memory stays bounded on long benchmark runs: the oldest entries are dropped past this many.
const MAX_ENTRIES = 50_000;

export interface ReceivedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	body: unknown;
	receivedAt: number;
}

export interface RequestOutcome {
	status: number;
	response: unknown;
	fault?: FaultKind;
	/** The socket was destroyed instead of answered. */
	reset?: boolean;
}

/**
 * Every API request, in arrival order, and the counters behind stats(). An entry is written when the
 * request arrives (status 0) and completed when it is answered, so a slow answer keeps its place.
 */
export class RequestLog {
	private entries: RecordedRequest[] = [];
	private nextSeq = 1;
	private readonly byStatus: Record<string, number> = {};

	begin(request: ReceivedRequest, logBodies: boolean): RecordedRequest {
		const entry: RecordedRequest = {
			seq: this.nextSeq++,
			method: request.method,
			path: request.path,
			query: request.query,
			headers: redactedHeaders(request.headers),
			body: logBodies ? request.body : undefined,
			status: 0,
			response: undefined,
			receivedAt: request.receivedAt,
		};
		this.entries.push(entry);
		if (this.entries.length > MAX_ENTRIES * 1.1) this.entries = this.entries.slice(-MAX_ENTRIES);
		return entry;
	}

	complete(entry: RecordedRequest, outcome: RequestOutcome, logBodies: boolean): void {
		entry.status = outcome.status;
		if (logBodies) entry.response = outcome.response;
		if (outcome.fault) entry.fault = outcome.fault;
		const statusKey = outcome.reset ? 'reset' : String(outcome.status);
		this.byStatus[statusKey] = (this.byStatus[statusKey] ?? 0) + 1;
	}

	list(filter: RequestFilter = {}): RecordedRequest[] {
		const method = filter.method?.toUpperCase();
		return this.entries.filter(
			(entry) =>
				(filter.path === undefined || entry.path === filter.path) && (method === undefined || entry.method === method),
		);
	}

	/** All requests received since the last reset, including entries dropped from the list. */
	get requestCount(): number {
		return this.nextSeq - 1;
	}

	get responsesByStatus(): Record<string, number> {
		return { ...this.byStatus };
	}
}

function redactedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		out[name] = name === 'authorization' ? 'Bearer ***' : Array.isArray(value) ? value.join(', ') : value;
	}
	return out;
}
