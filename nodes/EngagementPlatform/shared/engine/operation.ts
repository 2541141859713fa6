import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import type { ItemInputError } from './itemInputError';
import type { ItemReader } from './itemReader';
import type { Packing } from './planner';
import type { ApiResponse } from './transport';

/** Where a request goes and which of the spec's rate limits it counts against. */
export interface Endpoint {
	method: IHttpRequestMethods;
	path: string;
	/** Key into the spec's Limits table (see pacing/limits.ts). */
	rateLimitGroup: string;
	/** The API key permission the endpoint needs, named in errors. */
	permission: string;
	credentialType: 'engagementPlatformApi' | 'engagementPlatformScimApi';
	/**
	 * Where the platform's method is uncertain: the method to use for the rest of the run once
	 * it answers 405 Method Not Allowed to `method`.
	 */
	fallbackMethod?: IHttpRequestMethods;
}

/**
 * One piece of a request contributed by one input item. An item may contribute several
 * pieces (an order with three products gives three purchase objects); pieces of one item
 * may travel in different requests.
 */
export interface Piece<Payload = IDataObject> {
	itemIndex: number;
	/** Which part of the request body the piece goes into, e.g. "events". */
	slot: string;
	/** Pieces with different group keys never share a request. */
	groupKey: string;
	payload: Payload;
	/** Who or what the piece is about (a user's identifier, an item ID), echoed in the item's result. */
	subject?: IDataObject;
}

/** What happened to one piece after its request was answered. */
export type PieceOutcome =
	| { ok: true; warnings?: string[]; data?: IDataObject }
	| { ok: false; error: PieceError };

export interface PieceError {
	message: string;
	description?: string;
	/** not_applied: safe to send again. maybe_applied: the platform may or may not have stored it. */
	delivery: 'not_applied' | 'maybe_applied';
	httpCode?: number;
	response?: IDataObject;
}

export interface PlannedRequest<Payload = IDataObject> {
	groupKey: string;
	/** Pieces by slot, in input order. */
	slots: Map<string, Array<Piece<Payload>>>;
	pieceCount: number;
}

/** Settings read once per run (Options), shared by every request of that run. */
export interface RunSettings {
	packing: Packing;
	timeoutMs: number;
	parallelRequests: number;
	/** Opt-in: resend even where a resend could duplicate data. */
	resendUnsafe: boolean;
	/** Longest the run waits out rate limiting for one request before giving up. */
	maxRateLimitWaitMs: number;
}

/**
 * An operation as a declaration: how one item becomes pieces, how pieces become a request,
 * and how a response maps back to pieces. The engine owns the loop, batching, pacing,
 * retries and per-item results.
 */
export interface OperationSpec<Payload = IDataObject> {
	endpoint: Endpoint;
	/** Reads options once per run. */
	settings(context: IExecuteFunctions): RunSettings;
	/** Reads and validates one item. Throws an ItemInputError naming the field when invalid. */
	readItem(item: ItemReader): Array<Piece<Payload>>;
	/** Rules across items (e.g. IDs unique within a catalog); returns the items that break them. */
	checkAcrossItems?(pieces: Array<Piece<Payload>>): Map<number, ItemInputError>;
	/** The path of one request, when it depends on the group (e.g. a catalog name). */
	pathFor?(request: PlannedRequest<Payload>): string;
	/** The rate-limit group of one request, when it depends on what it carries (users or a segment). */
	rateLimitGroupOf?(request: PlannedRequest<Payload>): string;
	/** The JSON body of one request; none when absent (GET, DELETE). */
	buildBody?(request: PlannedRequest<Payload>): IDataObject | undefined;
	/** The query parameters of one request. */
	queryFor?(request: PlannedRequest<Payload>): IDataObject | undefined;
	/** Whether resending this request after an unclear failure cannot duplicate data. */
	isSafeToResend(request: PlannedRequest<Payload>): boolean;
	/** Maps a 2xx response back to each piece, in the order of `request.slots`. */
	readResponse(response: ApiResponse, request: PlannedRequest<Payload>): Map<Piece<Payload>, PieceOutcome>;
	/** Maps a non-2xx response (after retries) to the pieces it concerns; default: all of them. */
	readErrorResponse?(response: ApiResponse, request: PlannedRequest<Payload>): Map<Piece<Payload>, PieceOutcome>;
	/** The output item(s) of an input item whose pieces all succeeded. */
	itemResult(itemIndex: number, pieces: Array<{ piece: Piece<Payload>; outcome: PieceOutcome }>): IDataObject[];
}
