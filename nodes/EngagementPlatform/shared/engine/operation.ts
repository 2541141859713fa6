import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemReading } from './read/readItems';
import type { LoweredLimits, Piece, PlannedRequest, RequestShape } from './plan/planner';
import type { ApiResponse, Endpoint } from './send/transport';

// Pieces and planned requests are the planner's, endpoints the transport's, so that neither stage
// imports the declaration; operations import them from here.
export type { LoweredLimits, Piece, PlannedRequest } from './plan/planner';
export type { Endpoint } from './send/transport';
export { canonicalValue } from '../objects/canonicalValue';

/** What happened to one piece after its request was answered. */
export type PieceOutcome = PieceSuccess | { ok: false; error: PieceError };

export interface PieceSuccess {
	ok: true;
	warnings?: string[];
	data?: IDataObject;
	/** Not sent: the platform holds this value already, as this workflow last had it accepted (Send Only Changes). */
	unchanged?: true;
	/** Not sent: a later item of the run sets the same state of the same user; its index. */
	replacedBy?: number;
	/** Parts of the piece that a later item sets instead, each with that item's index, e.g. {tier: 7}. */
	replacedParts?: Record<string, number>;
	/**
	 * Parts of the piece left out as the platform holds them already, as this workflow last had them
	 * accepted (Send Only Changes), in the user's words, e.g. ['city', 'plan']: the rest was sent.
	 */
	unchangedParts?: string[];
	/** States another node of this execution set otherwise before this one, in words (plan/acrossNodes.ts). */
	overrode?: string;
	/** The answer accepted the piece without proving its state applied (an error it could not place, a user it may not know). */
	unproven?: true;
	/** Preview: not sent; the piece as it would go, and the planned request it would travel in. */
	preview?: PiecePreview;
	/**
	 * Not sent: this node got an occurrence of the same key accepted before (Track Once Per Key), from
	 * the start of the slice of time it was tracked in; or an earlier item of this run has the same key.
	 */
	alreadyTracked?: { since?: string; sameKeyAs?: number };
}

interface PiecePreview {
	/** The index of the planned request, in the run's plan. */
	request: number;
	/** The piece as it would go (a later item may have taken parts of it out). */
	piece: Piece;
	/** Send Only Changes decides at the real run whether the platform holds it already. */
	ifChanged?: true;
}

export interface PieceError {
	message: string;
	description?: string;
	/** not_applied: safe to send again. maybe_applied: the platform may or may not have stored it. */
	delivery: 'not_applied' | 'maybe_applied';
	httpCode?: number;
	response?: IDataObject;
	/**
	 * The failure is the run's, not the item's (a refused key, a missing permission, an address not
	 * allowed, a redirect): every request of the run meets it, so it is said once for the run.
	 */
	ofTheRun?: boolean;
}

/**
 * One piece of a user's state that a state piece sets: an attribute, a group's state, the email
 * subscription. `user` and `key` together name it in a workspace; `value` is its canonical form.
 */
export interface StatePart {
	user: string;
	key: string;
	value: string;
	/** The part in the user's words, e.g. "tier" or "subscription group newsletter". */
	label: string;
	/** Another endpoint sets this part too (a group's state): Send Only Changes watches it part by part. */
	alsoSetElsewhere?: true;
}

/** The key of a subscription group's state, the same whichever endpoint sets it, and its label. */
export function groupStateKey(groupId: unknown): string {
	return `subscription_group\u0000${String(groupId)}`;
}

export function groupStateLabel(groupId: unknown): string {
	return `subscription group ${String(groupId)}`;
}

/** How the pieces of a slot set users' state (CONTRIBUTING.md, State converges to the last word). */
interface StateSlot<Payload = IDataObject> {
	/** The user a piece is about, as StatePart.user names it. */
	userOf(piece: Piece<unknown, Payload>): string;
	/** The parts a piece sets; none for a piece that sets nothing the node can name. */
	parts(piece: Piece<unknown, Payload>): StatePart[];
	/** The piece's payload setting only these of its parts (the others are set by a later item, or unchanged). */
	keepOnly(piece: Piece<unknown, Payload>, parts: StatePart[]): Payload;
	/**
	 * Whether a 2xx that accepts the piece proves its state applied. Not where the answer cannot say
	 * whether the user exists (the subscription endpoint ignores an unknown external ID with a 2xx).
	 */
	provenByAcceptance: boolean;
}

/** "Send Only Changes", when on: see sentBefore.ts. */
export interface SentBeforeSettings {
	/** Clear what the workflow remembers before this run: every item is sent and remembered anew. */
	forget: boolean;
	/** n8n's `maxEntries`: past it the oldest entries go, and their users are sent again once. */
	historySize: number;
	/** Every user's state is sent again at least once in this many days, whatever the store says (0: never). */
	resendEveryDays: number;
}

/** "Track Once Per Key", when on: see plan/oncePerKey.ts. */
export interface OncePerKeySettings {
	/** A key is remembered for at least this many days after it was accepted. */
	rememberDays: number;
	/** Clear what the node remembers before the run: every item is sent, and remembered anew. */
	forget: boolean;
}

/** What this run's earlier attempts of a request met, for reading the answer of the last. */
export interface EarlierAttempts {
	/** An earlier attempt may have been applied (its answer lost, a 5xx): a repeat the answer reports may be this run's own. */
	mayHaveApplied: boolean;
	/** The first answer asked to be asked again later (asksAgainLater): the platform held the request's key already. */
	askedAgainFirst: boolean;
}

/** Settings read once per run (Options), shared by every request of that run. */
export interface RunSettings {
	/** The output item's field the node's words go in, beside the row's own (Options → Output Field Name). */
	outputField: string;
	lowered?: LoweredLimits;
	timeoutMs: number;
	parallelRequests: number;
	/** Opt-in: resend even where a resend could duplicate data. */
	resendUnsafe: boolean;
	/** Longest the run waits out rate limiting for one request before giving up. */
	maxRateLimitWaitMs: number;
	/** Leave out pieces that repeat what this node last had accepted (state slots only). */
	sentBefore?: SentBeforeSettings;
	/** Leave out occurrences whose key this node got accepted before (occurrence slots only). */
	oncePerKey?: OncePerKeySettings;
	/** Preview: read, check and plan as always, then send nothing and remember nothing. */
	preview?: true;
}

/** An operation's own Options fields, and what they change in the run's settings. */
export interface OperationOptions {
	fields: INodeProperties[];
	/** The settings with these options applied; without it the fields are read per item. */
	read?(options: IDataObject, settings: RunSettings): RunSettings;
}

/**
 * The `status` an item carries in the node's words when its pieces all succeeded: what happened, in a
 * marketer's words. Declared beside `itemResult`, which gives it, so that what an operation answers can
 * be read without running it (CONTRIBUTING.md, Adding an operation; test/support/successWords.ts).
 */
export type SuccessStatus =
	/** Always this word: `tracked`, `updated`, `sent`. */
	| { word: string }
	/** The item's own value of this parameter, one of its options: Set Group State's State. */
	| { wordIn: string }
	/**
	 * `word` when any of these parameters gives the item something (a value that is not empty: not `''`,
	 * `[]` or `null`), else `otherwise`: Track User Data's `tracked` with an event or a purchase,
	 * `updated` with attributes alone.
	 */
	| { word: string; whenAnyGiven: readonly string[]; otherwise: string }
	/** None: the answer is the platform's own records (`answersWithRecords`). */
	| { none: true };

/**
 * An operation as a declaration: how one item becomes pieces, where pieces go in a request
 * (its shape), and how a response maps back to pieces. The engine owns the loop, batching,
 * the request's path, body and query, pacing, retries and per-item results.
 */
export interface OperationSpec<Group = unknown, Payload = IDataObject> extends ItemReading<Group, Payload> {
	endpoint: Endpoint<Group, Payload>;
	shape: RequestShape<Group, Payload>;
	/**
	 * Slots whose pieces set state (attributes, a group state) rather than record an occurrence. The
	 * engine keeps each part's last word in a run, and such an operation gets "Send Only Changes";
	 * events and purchases are never left out.
	 */
	stateSlots?: Record<string, StateSlot<Payload>>;
	/**
	 * Slots whose pieces record an occurrence (an event, a purchase): each one sent is stored anew, so such
	 * an operation gets "Track Once Per Key" (plan/oncePerKey.ts).
	 */
	occurrenceSlots?: readonly string[];
	/** Options of this operation's own; the engine adds Batch Size (from the shape) and the request options. */
	options?: OperationOptions;
	/** Whether resending this request after an unclear failure cannot duplicate data. */
	isSafeToResend(request: PlannedRequest<Group, Payload>): boolean;
	/**
	 * Whether an answer asks to be asked again later (a transactional send still being queued): such a
	 * request is sent again after a pause, within the retry budget, then read by readErrorResponse.
	 */
	asksAgainLater?(response: ApiResponse): boolean;
	/** Maps a 2xx response back to each piece, in the order of `request.slots`. */
	readResponse(
		response: ApiResponse,
		request: PlannedRequest<Group, Payload>,
		before: EarlierAttempts,
	): Map<Piece<Group, Payload>, PieceOutcome>;
	/** Maps a non-2xx response (after retries) to the pieces it concerns; default: all of them. */
	readErrorResponse?(
		response: ApiResponse,
		request: PlannedRequest<Group, Payload>,
		before: EarlierAttempts,
	): Map<Piece<Group, Payload>, PieceOutcome>;
	/**
	 * The results are the platform's own records (an export's profiles, a lookup's translations, a
	 * dashboard user), given as the platform holds them: the input's fields are not added to them,
	 * where they would read as the record's.
	 */
	answersWithRecords?: boolean;
	/** The `status` of an item whose pieces all succeeded, as `itemResult` gives it. */
	successStatus: SuccessStatus;
	/**
	 * The node's words for an input item whose pieces all succeeded (`status` says what happened,
	 * `successStatus`). The engine puts them under the item's Output Field Name beside the row as it came,
	 * or, with `answersWithRecords`, gives them as the item's output.
	 */
	itemResult(itemIndex: number, pieces: Array<{ piece: Piece<Group, Payload>; outcome: PieceOutcome }>): IDataObject[];
}

/**
 * Declares an operation with its own group and payload types and hands it to the engine, which
 * runs every declaration alike.
 */
export function declareOperation<Group, Payload>(spec: OperationSpec<Group, Payload>): OperationSpec {
	return spec as unknown as OperationSpec;
}
