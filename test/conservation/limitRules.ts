/**
 * The kinds of per-request limit the spec states, for the endpoints declared in the cases files: each
 * limit is written there from the spec's own words (quoted with it), not from the nodes or the sandbox.
 * Where the spec can be read two ways the stricter reading is taken: a request within it is within
 * every reading.
 */
import type { RecordedRequest } from '../../sandbox';
import type { Body } from './pieceReading';

export interface WireLimit {
	/** The spec's words this limit is read from. */
	spec: string;
	/** What is over the limit in this request, or undefined. */
	over(body: Body, request: RecordedRequest): string | undefined;
}

/** How many entries a field holds: an array's length, one for any other value, zero when absent. */
export function count(value: unknown): number {
	if (value === undefined || value === null) return 0;
	return Array.isArray(value) ? value.length : 1;
}

export const objects = (value: unknown): Body[] =>
	Array.isArray(value) ? value.filter((entry): entry is Body => typeof entry === 'object' && entry !== null) : [];

export function atMost(max: number, fields: string[], spec: string): WireLimit {
	return {
		spec,
		over(body) {
			const total = fields.reduce((sum, field) => sum + count(body[field]), 0);
			return total > max ? `${fields.join(' + ')}: ${total} > ${max}` : undefined;
		},
	};
}

/** A field the spec allows once per request: one string, not a list. */
export function single(field: string, spec: string): WireLimit {
	return {
		spec,
		over(body) {
			const value = body[field];
			return value !== undefined && typeof value !== 'string'
				? `${field}: ${count(value)} values, one allowed`
				: undefined;
		},
	};
}

/** "50 KB", read as 50,000 bytes of the value's JSON (UTF-8): the stricter of 50,000 and 51,200. */
export const KB50 = 50_000;
export const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
