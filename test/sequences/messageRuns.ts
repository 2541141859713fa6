/**
 * The runs a messaging sequence is made of: one execution of the User or Message node (Track Event,
 * Rename External ID, Export, Send Transactional Email, Send Now, Trigger Campaign, Trigger Canvas) on a
 * few items, in n8n's real WorkflowExecute against the sandbox, while the platform, a proxy or the
 * network answers its requests badly: an answer lost after the platform acted, a connection refused,
 * a 5xx, a 429 with any header (none, zero, negative, garbled, a date or a reset in the past or in a
 * second), a lost answer while a receipt stays queued (its resend meets "the external reference has
 * been queued"), the spec's error shape under 201, another message under 200, a proxy's HTML page, an
 * error page echoing the API key, a redirect to another host, an accepted answer saying the window is
 * spent with a reset already past. Each is a sandbox fault rule on the run's path, taken by its first
 * requests.
 *
 * Every run is an execution of the same saved workflow (one workflow ID, one node ID per node), as a
 * marketer's schedule runs it: Send Transactional Email without an External Send ID derives the same ID
 * for the same item as it came in (its fields, the node's parameters as written) run after run, so the
 * platform holds one email per item however often the sequence sends it within 24 hours (the step
 * re-run, the webhook delivered twice), and a repeat is answered `duplicate`.
 *
 * Half the runs (`volatile`, where the operation has a field for them) read volatile values, as
 * marketers write them: Track Event's and Track Purchase's Time empty (the time of the run) and
 * `{{ $now }}` and `Math.random()` in their properties, a receipt's trigger properties, a campaign's or
 * canvas's recipient properties. Each try n8n runs evaluates them anew; none of that may make an item
 * another: nothing accepted is sent again, a derived External Send ID stays, and the events and
 * purchases of one run of the node carry one time, however many tries and retries stored them.
 *
 * After every run, what the items say is checked against what the platform holds and what went over
 * the wire (`runAndCheck`); each item's row comes out as it went in, the node's words in
 * `engagementPlatform` (read with ../support/nodeWords.ts), or in the key Options → Output Field Name
 * sets.
 *
 * A run may also be run again as n8n and marketers run it again (`HowRun`): with On Error "Stop
 * Workflow", a run the node stopped (before the platform accepted any of it, or after part) is retried
 * from its saved data (*Executions → Retry*), with the saved workflow or the current one, after its
 * cause is gone or not; the same items are run again as a new execution (the step re-run, a webhook
 * delivered twice). Rows carry their own `error` (null, false, "", a text) and columns named like the
 * node's words, which make n8n try a run again under Retry On Fail (n8n 1.x's rule or 2.x's). A try,
 * or a retry from saved data, sends nothing the platform accepted before in the execution; a new
 * execution of the same items is a new execution (an event is stored again, a derived receipt is not
 * sent again within 24 hours).
 */
import { isDeepStrictEqual } from 'node:util';

import fc from 'fast-check';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { FaultRule, RecordedRequest, StateView } from '../../sandbox/adminApiTypes';
import type { SandboxClient } from '../../sandbox';
import type { RunResult } from '../harness';
import type { RunShape } from '../support/nodeShapes';
import { answersAcrossRuns, describeShape, runNodeInShape, triesAgainIn } from '../support/nodeShapes';
import { MESSAGE_NODE, USER_NODE, nodeName } from '../support/nodeTypes';
import { rowOf, statusOf, wordsOf } from '../support/nodeWords';
import type { RowPlan } from './rows';
import { describeRows, PLAIN_ROWS, rowPlan, withRowColumns, wordsField } from './rows';
import { virtualNow } from './virtualClock';

/** The customers messages go to and whose events are tracked and exported. */
export const CUSTOMERS = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'] as const;
/** Customers whose external IDs the rename runs change; their current IDs are learnt after each run. */
export const RENAMED = ['r1', 'r2', 'r3'] as const;
/** An external ID no profile has: exporting it must answer not found, never a record. */
const GHOST = 'ghost-1';
/**
 * A customer with no profile until a retried run's cause is removed (the shop's sign-up reaches the
 * platform late): a receipt to them is refused, and the node stops the workflow.
 */
const LATE = 'm7';

/** The marketer's saved workflow every run of a sequence executes: its ID and its nodes' IDs stay. */
const WORKFLOW_ID = 'messaging-sequence-workflow';
const NODE_IDS: Record<string, string> = {
	[USER_NODE]: '5eed0000-0000-4000-8000-0000000000a1',
	[MESSAGE_NODE]: '5eed0000-0000-4000-8000-0000000000a2',
};
/** The platform's deduplication window for an External Send ID (spec: 24 hours). */
const SEND_ID_WINDOW_MS = 24 * 60 * 60 * 1000;

const OPERATIONS = [
	'trackEvent',
	'trackPurchase',
	'renameExternalIds',
	'export',
	'sendTransactionalEmail',
	'sendNow',
	'triggerCampaign',
	'triggerCanvas',
] as const;
type Operation = (typeof OPERATIONS)[number];

const TRANSACTIONAL_PATH = '/transactional/v1/campaigns/receipt/send';
const PATHS: Record<Operation, string> = {
	trackEvent: '/users/track',
	trackPurchase: '/users/track',
	renameExternalIds: '/users/external_ids/rename',
	export: '/users/export/ids',
	sendTransactionalEmail: TRANSACTIONAL_PATH,
	sendNow: '/messages/send',
	triggerCampaign: '/campaigns/trigger/send',
	triggerCanvas: '/canvas/trigger/send',
};

/** How a 429 states its wait (each as the platform, a proxy or a skewed clock may). */
const RATE_LIMIT_HEADERS = [
	'none',
	'retry-after 0',
	'retry-after -5',
	'retry-after 1',
	'retry-after garbled',
	'retry-after date past',
	'retry-after date in 1 s',
	'reset past',
	'reset now',
	'reset in 1 s',
] as const;
type RateLimitHeader = (typeof RATE_LIMIT_HEADERS)[number];

type FaultKind =
	| 'lost answer'
	| 'connection refused'
	| '5xx'
	| '429'
	| 'lost answer, still queued'
	| 'fatal 201'
	| 'other message 200'
	| 'html 200'
	| 'echoes the key'
	| 'redirect'
	| 'window spent, reset past';

export interface FaultPlan {
	kind: FaultKind;
	/** How many requests in a row it takes (10: every attempt). */
	times: 1 | 2 | 10;
	status?: number;
	header?: RateLimitHeader;
	queuedMs?: number;
}

export interface MessageRunPlan {
	operation: Operation;
	/** Indexes into CUSTOMERS (RENAMED for renames): distinct, so each item is the only one for its recipient. */
	people: number[];
	/** Send Transactional Email: the items' own External Send IDs (an order number each), or derived by the node. */
	ownSendIds: boolean;
	/**
	 * With ownSendIds: each item's order number; its External Send ID is `receipt-<customer>-<order>`, so
	 * a later run may send the same receipt again (the platform must not email it twice).
	 */
	orders: number[];
	/** With ownSendIds and two items or more: the last item carries the first item's ID (a mapping mistake the node must refuse). */
	duplicateId: boolean;
	/** Export: one item asks for an ID nobody has. */
	withGhost: boolean;
	batchSize: number;
	parallelRequests: number;
	faults: FaultPlan[];
	/**
	 * How n8n runs the node in the execution: once, behind merged branches or in a loop (several runs of
	 * the node, each with its own run index), with or without Retry On Fail (a run tried again), by n8n
	 * 2.x's rule or 1.x's.
	 */
	shape: RunShape;
	/** What the rows carry besides what the operation reads. */
	rows: RowPlan;
	/** On Error "Stop Workflow" (else "Continue", the regular output): the node stops at the first failed item. */
	stopWorkflow?: boolean;
	/** Send Transactional Email: one more item, at this position, to LATE (refused while they have no profile). */
	late?: number;
	/** The node reads values each try evaluates anew: an empty Time, `{{ $now }}`, `Math.random()` (see parametersOf). */
	volatile?: boolean;
	/**
	 * Track Event and Track Purchase: Track Once Per Key, by the whole input item (Key empty), so that the
	 * step re-run and the webhook delivered again (new executions) leave out what an earlier one tracked.
	 */
	oncePerKey?: boolean;
}

/** Where the node's words are on an output item of the plan's run. */
const outputFieldOf = (plan: MessageRunPlan): string => wordsField(plan.rows);

/**
 * The shapes n8n runs a node in, for a run of `items` items: mostly once, else 2–5 runs of the node;
 * Retry On Fail one time in five (one in two where the rows carry an `error` of their own), by n8n 2.x's
 * rule or 1.x's.
 */
const runShape = (items: number, rows: RowPlan = PLAIN_ROWS): fc.Arbitrary<RunShape> =>
	fc
		.tuple(
			fc.oneof(
				{ weight: 3, arbitrary: fc.constant<RunShape>({ kind: 'once' }) },
				{
					weight: 1,
					arbitrary: fc
						.integer({ min: 2, max: Math.max(2, Math.min(5, items)) })
						.map((branches): RunShape => ({ kind: 'branches', branches })),
				},
				{
					weight: 1,
					arbitrary: fc.integer({ min: 1, max: 2 }).map((batchSize): RunShape => ({ kind: 'loop', batchSize })),
				},
			),
			fc.oneof(
				{ weight: rows.error === 'absent' ? 4 : 1, arbitrary: fc.constant(false) },
				{ weight: 1, arbitrary: fc.constant(true) },
			),
			fc.constantFrom<'1.x' | undefined>(undefined, '1.x'),
		)
		.map(([shape, retryOnFail, retryRule]) => ({
			...shape,
			retryOnFail,
			...(retryOnFail && retryRule && { retryRule }),
		}));

const faultPlan = (operation: Operation): fc.Arbitrary<FaultPlan> =>
	fc.oneof(
		fc.record({ kind: fc.constant<FaultKind>('lost answer'), times: fc.constantFrom<1 | 2 | 10>(1, 2, 10) }),
		fc.record({ kind: fc.constant<FaultKind>('connection refused'), times: fc.constantFrom<1 | 2 | 10>(1, 10) }),
		fc.record({
			kind: fc.constant<FaultKind>('5xx'),
			times: fc.constantFrom<1 | 2 | 10>(1, 2, 10),
			status: fc.constantFrom(500, 502, 503, 504),
		}),
		fc.record({
			kind: fc.constant<FaultKind>('429'),
			times: fc.constantFrom<1 | 2 | 10>(1, 2, 10),
			header: fc.constantFrom(...RATE_LIMIT_HEADERS),
		}),
		// The platform answers "queued" only to a resend of a send it has: after a lost answer, while it
		// is still working on it (1 s: a resend soon gets the send_id; a minute: the retries are spent first).
		...(operation === 'sendTransactionalEmail'
			? [
					fc.record({
						kind: fc.constant<FaultKind>('lost answer, still queued'),
						times: fc.constant<1 | 2 | 10>(1),
						queuedMs: fc.constantFrom(1_000, 60_000),
					}),
				]
			: []),
		fc.record({
			kind: fc.constantFrom<FaultKind>('fatal 201', 'other message 200', 'html 200'),
			times: fc.constantFrom<1 | 2 | 10>(1, 10),
		}),
		fc.record({
			kind: fc.constant<FaultKind>('echoes the key'),
			times: fc.constant<1 | 2 | 10>(1),
			status: fc.constantFrom(400, 401, 502),
		}),
		// Accepted, and told the window is spent with a reset already gone by (a clock behind ours).
		fc.record({
			kind: fc.constant<FaultKind>('window spent, reset past'),
			times: fc.constantFrom<1 | 2 | 10>(2, 10),
		}),
		fc.record({
			kind: fc.constant<FaultKind>('redirect'),
			times: fc.constant<1 | 2 | 10>(1),
			status: fc.constantFrom(301, 302, 307, 308),
		}),
	);

const faultsOf = (operation: Operation): fc.Arbitrary<FaultPlan[]> =>
	fc.oneof(
		{ weight: 1, arbitrary: fc.constant<FaultPlan[]>([]) },
		{ weight: 4, arbitrary: fc.array(faultPlan(operation), { minLength: 1, maxLength: 3 }) },
	);

export const messageRunPlan: fc.Arbitrary<MessageRunPlan> = fc
	.constantFrom(...OPERATIONS)
	// Export answers with the platform's records: it has no Output Field Name.
	.chain((operation) => rowPlan(operation !== 'export').map((rows) => [operation, rows] as const))
	.chain(([operation, rows]) =>
		fc.record({
			operation: fc.constant(operation),
			people: fc.uniqueArray(fc.nat({ max: (operation === 'renameExternalIds' ? RENAMED : CUSTOMERS).length - 1 }), {
				minLength: 1,
				maxLength: operation === 'renameExternalIds' ? RENAMED.length : 5,
			}),
			ownSendIds: fc.boolean(),
			orders: fc.array(fc.nat({ max: 1 }), { minLength: 5, maxLength: 5 }),
			duplicateId: fc.boolean(),
			withGhost: fc.boolean(),
			batchSize: fc.constantFrom(1, 2, 50),
			parallelRequests: fc.constantFrom(1, 2, 4),
			faults: faultsOf(operation),
			shape: runShape(5, rows),
			rows: fc.constant(rows),
			volatile: fc.boolean(),
			oncePerKey: fc
				.constant(operation === 'trackEvent' || operation === 'trackPurchase')
				.chain((tracks) => (tracks ? fc.boolean() : fc.constant(false))),
		}),
	);

/** *Executions → Retry* of a run the node stopped (On Error "Stop Workflow"). */
export interface RetryPlan {
	/** How many times the marketer retries it, each only while the last one stopped. */
	times: 1 | 2;
	/** Before each retry the cause is removed: the faults are gone, the late customer's profile is added. */
	causeRemoved: boolean;
	/** Retried with the currently saved workflow, which differs only where the items send the same. */
	currentWorkflow: boolean;
}

/**
 * What stops a run the marketer then retries: mostly a refusal the platform applied nothing for (a
 * connection refused, 429s on every attempt, the key refused), which a retry gets past once it is gone;
 * else any fault (a lost answer leaves its item in doubt, answered so again by every retry).
 */
const stoppingFault = (operation: Operation): fc.Arbitrary<FaultPlan> =>
	fc.oneof(
		{ weight: 2, arbitrary: fc.constant<FaultPlan>({ kind: 'connection refused', times: 10 }) },
		{
			weight: 2,
			arbitrary: fc.record({
				kind: fc.constant<FaultKind>('429'),
				times: fc.constant<1 | 2 | 10>(10),
				header: fc.constantFrom<RateLimitHeader>('none', 'retry-after 0', 'reset past'),
			}),
		},
		{ weight: 1, arbitrary: fc.constant<FaultPlan>({ kind: 'echoes the key', times: 1, status: 401 }) },
		{ weight: 2, arbitrary: faultPlan(operation) },
	);

/**
 * One run in two, the platform accepts the first request or two before the faults (answering them with
 * a spent window whose reset is past): a run stopped after part of it was stored, which its retry must
 * finish without sending that part again, at the run's first time.
 */
const acceptedFirst: fc.Arbitrary<FaultPlan[]> = fc.oneof(
	{ weight: 1, arbitrary: fc.constant<FaultPlan[]>([]) },
	{
		weight: 1,
		arbitrary: fc.constantFrom<1 | 2>(1, 2).map((times): FaultPlan[] => [{ kind: 'window spent, reset past', times }]),
	},
);

/**
 * A run with On Error "Stop Workflow", meeting faults (and, for receipts, a customer with no profile yet)
 * that may stop it, and how it is retried.
 */
export const retriedRunPlan: fc.Arbitrary<{ plan: MessageRunPlan; retry: RetryPlan }> = messageRunPlan.chain((plan) =>
	fc.record({
		plan: fc
			.record({
				accepted: acceptedFirst,
				faults: fc.array(stoppingFault(plan.operation), {
					minLength: plan.operation === 'sendTransactionalEmail' ? 0 : 1,
					maxLength: 2,
				}),
				late:
					plan.operation === 'sendTransactionalEmail'
						? fc.option(fc.nat({ max: 5 }), { nil: undefined, freq: 3 })
						: fc.constant(undefined),
			})
			.map(({ accepted, faults, late }): MessageRunPlan => ({
				...plan,
				faults: [...accepted, ...faults],
				stopWorkflow: true,
				...(late !== undefined && { late }),
			})),
		retry: fc.record({
			times: fc.constantFrom<1 | 2>(1, 1, 2),
			causeRemoved: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
			currentWorkflow: fc.boolean(),
		}),
	}),
);

/** The step re-run: an earlier run's items again, as a new execution, meeting faults of its own. */
export interface RerunPlan {
	/** 0: the last run, 1: the one before, ... (the first run when there are fewer) */
	back: number;
	faults: FaultPlan[];
}
export const rerunPlan: fc.Arbitrary<RerunPlan> = fc.record({
	back: fc.constantFrom(0, 0, 1, 2),
	faults: fc.oneof(
		{ weight: 2, arbitrary: fc.constant<FaultPlan[]>([]) },
		{ weight: 1, arbitrary: fc.array(faultPlan('trackEvent'), { minLength: 1, maxLength: 2 }) },
	),
});

/** A webhook delivered twice: the same items as two executions, one after the other; the second meets faults of its own. */
export const webhookTwicePlan: fc.Arbitrary<{ plan: MessageRunPlan; secondFaults: FaultPlan[] }> = messageRunPlan.chain(
	(plan) =>
		fc.record({
			plan: fc.constant(plan),
			secondFaults: fc.oneof(
				{ weight: 2, arbitrary: fc.constant<FaultPlan[]>([]) },
				{ weight: 1, arbitrary: fc.array(faultPlan(plan.operation), { minLength: 1, maxLength: 2 }) },
			),
		}),
);

/** A receipt the platform got from the workflow's node under an External Send ID the node derived. */
interface DerivedReceipt {
	externalSendId: string;
	dispatchId: string;
	/** When the platform received it (virtual clock): the same email within 24 hours of it is this one. */
	at: number;
}

/**
 * What the model keeps between runs: the renamed customers' current IDs, as the platform last held
 * them, and by item as it came in (receiptKey) the receipt the node sent with a derived External Send
 * ID: the same item from the same node within 24 hours is that one email, whatever its volatile values
 * evaluate to.
 */
export interface MessagingModel {
	currentIds: Record<string, string>;
	receipts: Record<string, DerivedReceipt>;
	runs: number;
	/**
	 * By item (its tag, which a run gives each item and the step re-run and a second delivery keep), how
	 * many times the platform holds its event or purchase: one per execution that answered it `tracked`,
	 * none for one that said it is safe to run again, none or one for any other (in doubt, or stopped).
	 * A try of Retry On Fail and a retry from saved data are the same execution.
	 */
	tracked?: Record<string, { min: number; max: number }>;
	/**
	 * By item, what Track Once Per Key holds of it: `yes` once an execution with the option answered it
	 * tracked (the node remembered its key); `maybe` where such an execution stopped before answering it
	 * (the node may have remembered it). An item answered `already_tracked` must be one of these, and one
	 * that is `yes` must never be answered `tracked` again by an execution with the option.
	 */
	onceTracked?: Record<string, 'yes' | 'maybe'>;
}

export interface RunContext {
	client: SandboxClient;
	/** Each run's plan and items, in order: the step re-run takes an earlier run's. */
	history?: Array<{ plan: MessageRunPlan; intents: ItemIntent[] }>;
	endpoint: string;
	apiKey: string;
	/** A server on another host of loopback: a redirect must never bring a request to it. */
	trap: { url: string; received: () => number };
	/** Unique per run: tags the run's events and its new external IDs. */
	runNumber: number;
	model: MessagingModel;
}

export interface CheckedRun {
	label: string;
	answers: string[];
	violations: string[];
	requests: number;
	faultsMet: number;
	/** The items, as run (the step re-run and the second delivery take them again). */
	intents: ItemIntent[];
	/** Executions: the run, and each Executions → Retry of it. */
	executions: number;
	/** The first execution stopped (On Error "Stop Workflow"), and the last one still did. */
	stopped: { first: boolean; last: boolean };
	/** Tries of Retry On Fail beyond each run's first, over the executions. */
	triesAgain: number;
}

/** The sandbox fault rule a plan stands for, on the run's path. */
function faultRule(path: string, fault: FaultPlan, context: RunContext): FaultRule {
	const base = { path, times: fault.times };
	switch (fault.kind) {
		case 'lost answer':
			return { ...base, kind: 'reset-after' };
		case 'connection refused':
			return { ...base, kind: 'reset-before' };
		case '5xx':
			return { ...base, kind: 'status', status: fault.status ?? 503 };
		case '429':
			return { ...base, kind: 'status', status: 429, ...rateLimitHeaders(fault.header ?? 'none') };
		case 'lost answer, still queued':
			return { ...base, kind: 'reset-after', queuedMs: fault.queuedMs };
		case 'fatal 201':
			return {
				...base,
				kind: 'answer',
				status: 201,
				answerBody: { message: 'Invalid request', errors: ['Invalid request'] },
			};
		case 'other message 200':
			return { ...base, kind: 'answer', status: 200, answerBody: { message: 'Internal error' } };
		case 'html 200':
			return { ...base, kind: 'answer', status: 200, answerBody: '<html><body><h1>Gateway</h1></body></html>' };
		case 'echoes the key':
			return fault.status === 502
				? {
						...base,
						kind: 'answer',
						status: 502,
						answerBody: `<html><body>Bad gateway. Request headers: Authorization: Bearer ${context.apiKey}</body></html>`,
					}
				: {
						...base,
						kind: 'answer',
						status: fault.status ?? 401,
						answerBody: {
							message: `Invalid API key: Bearer ${context.apiKey}`,
							authorization: `Bearer ${context.apiKey}`,
						},
					};
		case 'window spent, reset past':
			return {
				...base,
				kind: 'headers',
				answerHeaders: {
					'X-RateLimit-Remaining': '0',
					'X-RateLimit-Reset': String(Math.floor(virtualNow() / 1000) - 30),
				},
			};
		case 'redirect':
			return {
				...base,
				kind: 'answer',
				status: fault.status ?? 307,
				answerBody: '',
				answerHeaders: { Location: `${context.trap.url}${path}` },
			};
	}
}

/** A 429's headers, read at the moment the run starts on the virtual clock. */
function rateLimitHeaders(header: RateLimitHeader): Partial<FaultRule> {
	const date = (offsetMs: number) => new Date(virtualNow() + offsetMs).toUTCString();
	switch (header) {
		case 'none':
			return {};
		case 'retry-after 0':
			return { retryAfterSeconds: 0 };
		case 'retry-after -5':
			return { retryAfterSeconds: -5 };
		case 'retry-after 1':
			return { retryAfterSeconds: 1 };
		case 'retry-after garbled':
			return { retryAfter: 'soon' };
		case 'retry-after date past':
			return { retryAfter: date(-60_000) };
		case 'retry-after date in 1 s':
			return { retryAfter: date(1_000) };
		case 'reset past':
			return { rateLimitResetInSeconds: -30 };
		case 'reset now':
			return { rateLimitResetInSeconds: 0 };
		case 'reset in 1 s':
			return { rateLimitResetInSeconds: 1 };
	}
}

interface ItemIntent {
	json: IDataObject;
	/** The external ID of the customer the item is about (before the run, for renames). */
	person: string;
}

function itemsOf(plan: MessageRunPlan, context: RunContext): ItemIntent[] {
	return baseItemsOf(plan, context).map(({ person, json }) => ({ person, json: withRowColumns(json, plan.rows) }));
}

function baseItemsOf(plan: MessageRunPlan, context: RunContext): ItemIntent[] {
	const { runNumber, model } = context;
	switch (plan.operation) {
		case 'renameExternalIds':
			return plan.people.map((index) => {
				const from = model.currentIds[RENAMED[index]];
				return { person: from, json: { from, to: `${RENAMED[index]}-run${runNumber}` } };
			});
		case 'export': {
			const asked = plan.people.map((index) => CUSTOMERS[index] as string);
			if (plan.withGhost) asked.push(GHOST);
			return asked.map((id) => ({ person: id, json: { id } }));
		}
		default: {
			const intents: ItemIntent[] = plan.people.map((index, position) => {
				const person = CUSTOMERS[index];
				const json: IDataObject = { id: person, tag: `run${runNumber}-item${position}` };
				if (plan.operation === 'sendTransactionalEmail' && plan.ownSendIds)
					json.sendId = `receipt-${person}-${plan.orders[position]}`;
				return { person, json };
			});
			if (plan.operation === 'sendTransactionalEmail' && plan.ownSendIds && plan.duplicateId && intents.length > 1)
				intents[intents.length - 1].json.sendId = intents[0].json.sendId;
			if (plan.operation === 'sendTransactionalEmail' && plan.late !== undefined) {
				const json: IDataObject = { id: LATE, tag: `run${runNumber}-late` };
				if (plan.ownSendIds) json.sendId = `receipt-${LATE}-0`;
				intents.splice(Math.min(plan.late, intents.length), 0, { person: LATE, json });
			}
			return intents;
		}
	}
}

const nextOf = <T>(values: readonly T[], value: T): T => values[(values.indexOf(value) + 1) % values.length];

/**
 * Properties each try evaluates anew, beside the item's tag (which the checks know an event by). The
 * current workflow writes them with other spacing: the same expression.
 */
const volatileProperties = (current: boolean) =>
	current
		? '={{ {tag: $json.tag, synced_at: $now.toISO(), nonce: Math.random()} }}'
		: '={{ { tag: $json.tag, synced_at: $now.toISO(), nonce: Math.random() } }}';

/** Track Event's and Track Purchase's Time and properties: empty (the time of the run) and volatile where the plan says. */
function trackedFields(plan: MessageRunPlan, current: boolean): INodeParameters {
	return plan.volatile
		? { time: '', propertiesInput: 'json', propertiesJson: volatileProperties(current) }
		: { time: '2026-11-01T12:00:00Z', propertiesInput: 'json', propertiesJson: '={{ { tag: $json.tag } }}' };
}

/** A receipt's trigger properties, or a campaign's or canvas's recipient properties: volatile where the plan says. */
function volatileFields(plan: MessageRunPlan, name: 'triggerProperties' | 'recipientProperties', current: boolean) {
	return plan.volatile ? { [`${name}Input`]: 'json', [`${name}Json`]: volatileProperties(current) } : {};
}

/**
 * The node's parameters. `current`: the workflow as the marketer has it now, changed since the run only
 * where the items send the same (Parallel Requests, Batch Size, the longest rate-limit wait, the
 * dragged field's spacing): what *Retry with currently saved workflow* runs. Send Now has no field of
 * the item's own to read a volatile value in.
 */
function parametersOf(plan: MessageRunPlan, current = false): INodeParameters {
	const options: INodeParameters = {
		parallelRequests: current ? nextOf([1, 2, 4], plan.parallelRequests) : plan.parallelRequests,
		maxRateLimitWaitSeconds: current ? 6 : 5,
		...(plan.operation === 'sendTransactionalEmail'
			? {}
			: { batchSize: current ? nextOf([1, 2, 50], plan.batchSize) : plan.batchSize }),
		...(plan.rows.outputField !== undefined && { outputField: plan.rows.outputField }),
		...(plan.oncePerKey && { trackOncePerKey: true }),
	};
	const identified = { identifyBy: 'external_id', externalId: current ? '={{$json.id}}' : '={{ $json.id }}' };
	switch (plan.operation) {
		case 'trackEvent':
			return {
				operation: 'trackEvent',
				...identified,
				eventName: 'order_step',
				...trackedFields(plan, current),
				options,
			};
		case 'trackPurchase':
			return {
				operation: 'trackPurchase',
				...identified,
				productId: 'sku-1',
				currency: 'EUR',
				price: '9.90',
				...trackedFields(plan, current),
				options,
			};
		case 'renameExternalIds':
			return {
				operation: 'renameExternalIds',
				currentExternalId: '={{ $json.from }}',
				newExternalId: '={{ $json.to }}',
				options,
			};
		case 'export':
			return { operation: 'export', ...identified, options };
		case 'sendTransactionalEmail':
			return {
				operation: 'sendTransactionalEmail',
				campaignId: 'receipt',
				...identified,
				...(plan.ownSendIds ? { externalSendId: '={{ $json.sendId }}' } : {}),
				...volatileFields(plan, 'triggerProperties', current),
				options,
			};
		case 'sendNow':
			return {
				operation: 'sendNow',
				sendTo: 'users',
				...identified,
				messages: '{"email": {"app_id": "app", "subject": "Hello", "body": "<p>Hi</p>"}}',
				options,
			};
		case 'triggerCampaign':
			return {
				operation: 'triggerCampaign',
				campaignId: 'welcome',
				sendTo: 'recipients',
				...identified,
				...volatileFields(plan, 'recipientProperties', current),
				options,
			};
		case 'triggerCanvas':
			return {
				operation: 'triggerCanvas',
				canvasId: 'onboarding',
				sendTo: 'recipients',
				...identified,
				...volatileFields(plan, 'recipientProperties', current),
				options,
			};
	}
}

/** What reads volatile values where the plan says, by operation (none where it has no field for them). */
const VOLATILE_READERS: Partial<Record<Operation, string>> = {
	trackEvent: 'Time empty, $now and Math.random() in its properties',
	trackPurchase: 'Time empty, $now and Math.random() in its properties',
	sendTransactionalEmail: '$now and Math.random() in its trigger properties',
	triggerCampaign: '$now and Math.random() in its recipient properties',
	triggerCanvas: '$now and Math.random() in its recipient properties',
};

/** The plan's node reads volatile values (the flag is on, and the operation has a field for them). */
export const readsVolatileValues = (plan: MessageRunPlan): boolean =>
	plan.volatile === true && VOLATILE_READERS[plan.operation] !== undefined;

export function describePlan(plan: MessageRunPlan): string {
	const faults = plan.faults
		.map(
			(fault) =>
				`${fault.kind}${fault.status ? ` ${fault.status}` : ''}${fault.header ? ` (${fault.header})` : ''} ×${fault.times}`,
		)
		.join(', ');
	const ids =
		plan.operation === 'sendTransactionalEmail'
			? plan.ownSendIds
				? `, own send IDs (orders ${plan.orders.slice(0, plan.people.length).join('/')}${plan.duplicateId && plan.people.length > 1 ? ', the last item repeating the first ID' : ''})`
				: ', derived send IDs'
			: '';
	const late =
		plan.late !== undefined ? ` + ${LATE} (no profile yet) at ${Math.min(plan.late, plan.people.length)}` : '';
	const rows = describeRows(plan.rows);
	const volatile = readsVolatileValues(plan) ? `, ${VOLATILE_READERS[plan.operation]}` : '';
	const once = plan.oncePerKey ? ', Track Once Per Key' : '';
	return `${plan.operation} on ${plan.people.length}${plan.withGhost && plan.operation === 'export' ? ' + ghost' : ''}${late} items${ids}${rows ? ` (${rows})` : ''}${volatile}${once}, run ${describeShape(plan.shape)}${plan.stopWorkflow ? ', On Error: Stop Workflow' : ''}, batch ${plan.batchSize}, parallel ${plan.parallelRequests}${faults ? `; ${faults}` : ''}`;
}

export function describeRetry(retry: RetryPlan): string {
	return `Executions → Retry${retry.times > 1 ? ` up to ${retry.times} times` : ''} with the ${retry.currentWorkflow ? 'current' : 'saved'} workflow, ${retry.causeRemoved ? 'the cause removed first' : 'the cause still there'}`;
}

/** How a run is run: once; Executions → Retry of it while it stops; or an earlier run's items again, as a new execution. */
export interface HowRun {
	retry?: RetryPlan;
	/** The items of an earlier run, exactly (the step re-run, the webhook delivered twice). */
	intents?: ItemIntent[];
}

/** An item of a run the node stopped, which n8n gives no answer: what became of it is unknown. */
const STOPPED = '(no answer: the workflow stopped)';

/**
 * Runs the plan (and, by `how`, retries it from its saved data while it stops) and checks every item's
 * answer in the last execution against the platform and the wire, over all of the executions: a retry
 * is the same execution run on, so an item is held to one effect across them.
 */
export async function runAndCheck(plan: MessageRunPlan, context: RunContext, how: HowRun = {}): Promise<CheckedRun> {
	const { client } = context;
	const path = PATHS[plan.operation];
	const startedAt = virtualNow();
	const before = await client.state();
	const seqBefore = Math.max(0, ...(await client.requests()).map((request) => request.seq));
	const trapBefore = context.trap.received();
	await client.injectFaults(plan.faults.map((fault) => faultRule(path, fault, context)));
	const intents = how.intents ?? itemsOf(plan, context);
	context.history?.push({ plan, intents });

	const nodeType =
		plan.operation === 'trackEvent' ||
		plan.operation === 'trackPurchase' ||
		plan.operation === 'renameExternalIds' ||
		plan.operation === 'export'
			? USER_NODE
			: MESSAGE_NODE;
	const name = nodeName(nodeType);
	const field = outputFieldOf(plan);
	const execute = async (current: boolean, retryOf?: RunResult) =>
		(
			await runNodeInShape(
				nodeType,
				{
					parameters: parametersOf(plan, current),
					items: intents.map(({ json }) => json),
					endpoint: context.endpoint,
					apiKey: context.apiKey,
					continueOnFail: !plan.stopWorkflow,
					workflowId: WORKFLOW_ID,
					nodeId: NODE_IDS[nodeType],
				},
				plan.shape,
				{ retryOf: retryOf?.run, currentWorkflow: current },
			)
		).result;
	const executions: RunResult[] = [await execute(false)];
	const stoppedFirst = executions[0].error !== undefined;
	if (how.retry) {
		const { times, causeRemoved, currentWorkflow } = how.retry;
		while (executions.length <= times && executions[executions.length - 1].error !== undefined) {
			await client.clearFaults();
			if (causeRemoved) await addLateCustomer(plan, intents, client);
			else await client.injectFaults(plan.faults.map((fault) => faultRule(path, fault, context)));
			executions.push(await execute(currentWorkflow, executions[executions.length - 1]));
		}
	}
	const result = executions[executions.length - 1];
	const output = answersAcrossRuns(result, name, 0, field);
	// Whatever the run left unused (a fault for attempts never made) must not meet the next run.
	await client.clearFaults();
	const after = await client.state();
	const requests = (await client.requests({ path })).filter((request) => request.seq > seqBefore);

	const violations: string[] = [];
	const stopped = result.error !== undefined;
	const rows = answersByItem(output, intents.length, violations, stopped, field);
	// Export answers with the platform's records; every other operation in its words beside the row.
	const withWords = plan.operation !== 'export';
	rows.forEach((json, index) => checkRowKept(index, json, intents[index].json, withWords, violations, field));
	const answers = rows.map((json) => (json[field] !== undefined ? wordsOf(json, field) : json));
	const checks = { plan, intents, answers, before, after, violations, context, startedAt };
	if (plan.operation === 'trackEvent' || plan.operation === 'trackPurchase') {
		checkTrack(checks);
		checkOneTimePerRun(checks);
	} else if (plan.operation === 'renameExternalIds') checkRename(checks);
	else if (plan.operation === 'export') checkExport(checks);
	else if (plan.operation === 'sendTransactionalEmail') checkTransactional(checks);
	else checkDispatches(checks);
	checkTrackedAsModelled(context.model, after, violations);
	checkNothingAcceptedSentAgain(plan.operation, requests, violations);

	checkNoSecret(JSON.stringify(output.map(({ json }) => json)), 'the items', context, violations);
	checkNoSecret(
		JSON.stringify(output.map(({ error }) => error?.message ?? '')),
		"the items' errors",
		context,
		violations,
	);
	for (const execution of executions) {
		checkNoSecret(JSON.stringify(execution.logs), 'the log', context, violations);
		if (execution.error)
			checkNoSecret(
				`${execution.error.message} ${JSON.stringify(execution.error)}`,
				'the thrown error',
				context,
				violations,
			);
	}
	if (context.trap.received() !== trapBefore)
		violations.push(`a redirect took ${context.trap.received() - trapBefore} request(s) to another host`);
	checkPace(plan, intents.length, requests, violations, executions.length);

	for (const renamed of RENAMED) {
		const profile = after.profiles.find((candidate) => candidate.email === `${renamed}@shop.example`);
		if (profile?.external_id) context.model.currentIds[renamed] = profile.external_id;
	}
	return {
		label: describePlan(plan),
		answers: answers.map(answerName),
		violations,
		requests: requests.length,
		faultsMet: requests.filter((request) => request.fault !== undefined).length,
		intents,
		executions: executions.length,
		stopped: { first: stoppedFirst, last: stopped },
		triesAgain: executions.reduce(
			(sum, execution, index) => sum + triesAgainIn(execution, name, index > 0 ? executions[index - 1] : undefined),
			0,
		),
	};
}

/** The late customer's sign-up reaches the platform: the cause of a refused receipt, removed. */
async function addLateCustomer(plan: MessageRunPlan, intents: ItemIntent[], client: SandboxClient): Promise<void> {
	if (!intents.some(({ person }) => person === LATE)) return;
	const { profiles } = await client.state();
	if (!profiles.some((profile) => profile.external_id === LATE))
		await client.seed({ profiles: [{ external_id: LATE, email: `${LATE}@shop.example` }] });
}

/** The one answer of each item (these operations answer each item once), by pairedItem; STOPPED for an item of a stopped run. */
function answersByItem(
	output: INodeExecutionData[],
	itemCount: number,
	violations: string[],
	stopped: boolean,
	field: string,
): IDataObject[] {
	const answers: IDataObject[] = new Array(itemCount);
	for (const { json, pairedItem } of output) {
		const index = typeof pairedItem === 'object' && !Array.isArray(pairedItem) ? pairedItem.item : undefined;
		if (index === undefined || index < 0 || index >= itemCount)
			violations.push(`an answer paired to no item: ${JSON.stringify(json)}`);
		else if (answers[index] !== undefined) violations.push(`item ${index} answered twice`);
		else answers[index] = json;
	}
	for (let index = 0; index < itemCount; index++) {
		if (answers[index] === undefined) {
			if (!stopped) violations.push(`item ${index} has no answer`);
			answers[index] = stopped ? { [field]: { status: STOPPED } } : {};
		}
	}
	return answers;
}

/**
 * Every answer carries its input row exactly as it came (an operation answering with the platform's
 * records gives the records alone): succeeded, the row and the node's field; failed, the row, `error`
 * (the reason the node's words give, over the row's own) and the node's field. No other column of the
 * row is overwritten, whatever it is named.
 */
function checkRowKept(
	index: number,
	json: IDataObject,
	input: IDataObject,
	withWords: boolean,
	violations: string[],
	field: string,
) {
	if (Object.keys(json).length === 0 || statusOf(json, field) === STOPPED) return; // no answer
	const failed = statusOf(json, field) === 'failed';
	if (!withWords && !failed && json[field] === undefined) return;
	const row = failed ? { ...input, error: wordsOf(json, field).error } : input;
	if (!isDeepStrictEqual(rowOf(json, field), row))
		violations.push(`item ${index} does not carry its row as it came: ${JSON.stringify(json)}`);
}

/** What an item says (its words, or the record), as the tally counts it: its status, or its delivery when it failed. */
function answerName(answer: IDataObject): string {
	if (answer.status === STOPPED) return STOPPED;
	if (answer.status === 'failed' && typeof answer.delivery === 'string') return answer.delivery;
	if (typeof answer.status === 'string') return answer.status;
	if (typeof answer.delivery === 'string') return answer.delivery;
	return answer.external_id !== undefined ? 'found' : 'nothing';
}

/** The item says running it again cannot duplicate anything: it was refused, or never sent. */
const saysSafeToRunAgain = (answer: IDataObject) =>
	answer.delivery === 'not_applied' || answer.delivery === 'invalid' || answer.delivery === 'not_sent';

/** An item whose fate is unknown says so, and says to check before running it again. */
function checkUnknownSaysSo(index: number, answer: IDataObject, violations: string[]): void {
	if (answer.delivery !== 'maybe_applied') return;
	const words = `${String(answer.error)} ${String(answer.description)}`;
	if (!/may or may not|may not have|maybe/i.test(words) || !/before running|check/i.test(words))
		violations.push(`item ${index} is maybe_applied but does not say so and that re-running needs a check: ${words}`);
}

function checkEveryAnswerKnown(index: number, answer: IDataObject, known: string[], violations: string[]): void {
	const name = answerName(answer);
	if (name === STOPPED) return;
	if (!known.includes(name)) violations.push(`item ${index} answered ${name}: ${JSON.stringify(answer)}`);
	checkUnknownSaysSo(index, answer, violations);
}

interface Checks {
	plan: MessageRunPlan;
	intents: ItemIntent[];
	answers: IDataObject[];
	before: StateView;
	after: StateView;
	violations: string[];
	context: RunContext;
	/** When the run started (virtual clock). */
	startedAt: number;
}

const FAILED = ['not_applied', 'maybe_applied', 'invalid', 'not_sent'];

function serviceIdOf(state: StateView, externalId: string): string | undefined {
	return state.profiles.find((profile) => profile.external_id === externalId)?.service_id;
}

function checkTrack({ plan, intents, answers, before, after, violations, context }: Checks): void {
	const kind = plan.operation === 'trackPurchase' ? 'purchase' : 'event';
	const storedIn = (state: StateView, tag: unknown) => trackedOf(state, kind).filter((stored) => stored === tag).length;
	const model = (context.model.tracked ??= {});
	const once = (context.model.onceTracked ??= {});
	const onceBefore = { ...once };
	intents.forEach(({ json }, index) => {
		const answer = answers[index];
		// The word for an event or purchase the platform took (or, with Track Once Per Key, had taken before).
		checkEveryAnswerKnown(
			index,
			answer,
			['tracked', ...(plan.oncePerKey ? ['already_tracked'] : []), ...FAILED],
			violations,
		);
		const onceKey = `${kind} ${String(json.tag)}`;
		// This execution's stored count: an earlier execution of it (stopped, then retried from saved data)
		// may have had the item tracked, which the retry finds remembered.
		const storedNow = storedIn(after, json.tag) - storedIn(before, json.tag);
		if (answer.status === 'already_tracked' && onceBefore[onceKey] === undefined && storedNow !== 1)
			violations.push(
				`item ${index} answered already_tracked, and no execution with Track Once Per Key had its ${kind} tracked: it is lost`,
			);
		if (plan.oncePerKey && answer.status === 'tracked' && onceBefore[onceKey] === 'yes')
			violations.push(
				`item ${index} answered tracked, and an earlier execution with Track Once Per Key had its ${kind} tracked: stored twice`,
			);
		if (plan.oncePerKey && (answer.status === 'tracked' || (answer.status === 'already_tracked' && storedNow === 1)))
			once[onceKey] = 'yes';
		else if (plan.oncePerKey && answer.status === STOPPED && once[onceKey] === undefined) once[onceKey] = 'maybe';
		// This execution's (a new execution of the same items stores them again: that is what it asks).
		const stored = storedIn(after, json.tag) - storedIn(before, json.tag);
		if (answer.status === 'tracked' && stored !== 1)
			violations.push(`item ${index} answered tracked, and this execution stored its ${kind} ${stored} times`);
		if (saysSafeToRunAgain(answer) && stored !== 0)
			violations.push(
				`item ${index} says ${String(answer.delivery)} (safe to run again), and this execution stored its ${kind} ${stored} times`,
			);
		if (stored > 1) violations.push(`item ${index}'s ${kind} is stored ${stored} times by one execution`);
		const key = `${kind} ${String(json.tag)}`;
		const held = (model[key] ??= { min: 0, max: 0 });
		if (answer.status === 'tracked' || (answer.status === 'already_tracked' && stored === 1)) {
			held.min++;
			held.max++;
		} else if (answer.status !== 'already_tracked' && !saysSafeToRunAgain(answer)) held.max++;
	});
}

/** The events (or purchases) a state holds. */
function storedOf(state: StateView, kind: 'event' | 'purchase'): Array<StateView['events' | 'purchases'][number]> {
	return kind === 'event' ? state.events : state.purchases;
}

/** The tags of the events (or purchases) a state holds, one per stored object. */
function trackedOf(state: StateView, kind: 'event' | 'purchase'): unknown[] {
	return storedOf(state, kind).map((stored) => stored.properties?.tag);
}

/**
 * One run of the node gives its events and purchases one time: an empty Time is the time of the run,
 * and a try of Retry On Fail or *Executions → Retry* sends what the first try did not get accepted
 * with the time the first try gave the run. So what this execution (its tries and retries included)
 * stored for the items of one run of the node carries one time, and the execution no more times than
 * the node's runs.
 */
function checkOneTimePerRun({ plan, intents, before, after, violations }: Checks): void {
	const kind = plan.operation === 'trackPurchase' ? 'purchase' : 'event';
	const runOfTag = new Map<unknown, number>();
	let item = 0;
	runSizes(plan.shape, intents.length).forEach((size, run) => {
		for (const end = item + size; item < end; item++) runOfTag.set(intents[item].json.tag, run);
	});
	const known = new Set(storedOf(before, kind).map((stored) => stored.id));
	const timesByRun = new Map<number, Set<string>>();
	for (const stored of storedOf(after, kind)) {
		const run = runOfTag.get(stored.properties?.tag);
		if (known.has(stored.id) || run === undefined) continue;
		timesByRun.set(run, (timesByRun.get(run) ?? new Set()).add(stored.time));
	}
	for (const [run, times] of timesByRun)
		if (times.size > 1)
			violations.push(
				`the ${kind}s this execution stored for run ${run + 1} of the node carry ${times.size} times (${[...times].join(', ')}), not the run's one time`,
			);
}

/**
 * After every run, whatever it ran: each item's events and purchases are stored as many times as the
 * model says (one per execution that answered them tracked), and none the model does not know.
 */
function checkTrackedAsModelled(model: MessagingModel, after: StateView, violations: string[]): void {
	const held = model.tracked ?? {};
	for (const kind of ['event', 'purchase'] as const) {
		const counts = new Map<string, number>();
		for (const tag of trackedOf(after, kind))
			counts.set(`${kind} ${String(tag)}`, (counts.get(`${kind} ${String(tag)}`) ?? 0) + 1);
		for (const [key, count] of counts)
			if (!held[key]) violations.push(`the platform holds ${count} of ${key}, which no run sent`);
		for (const [key, { min, max }] of Object.entries(held)) {
			if (!key.startsWith(kind)) continue;
			const count = counts.get(key) ?? 0;
			if (count < min || count > max)
				violations.push(
					`the platform holds ${key} ${count} times; the executions that sent it answered it tracked ${min} times${max > min ? `, and ${max - min} more may have stored it` : ''}`,
				);
		}
	}
}

/**
 * What a request carried, by a key only one item of an execution has (an event's tag, a receipt's
 * External Send ID and its recipient, a recipient, a rename), and which of those the platform
 * accepted: answered 2xx as the platform answers (no fault but headers over its answer), less the
 * objects its answer refused.
 */
function piecesOfRequest(operation: Operation, request: RecordedRequest): { sent: string[]; accepted: string[] } {
	const body = (request.body ?? {}) as IDataObject;
	const response = (request.response ?? {}) as IDataObject;
	const took =
		request.status >= 200 && request.status < 300 && (request.fault === undefined || request.fault === 'headers');
	const list = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : []);
	const keep = (sent: string[], refused: Set<number> = new Set()) => ({
		sent,
		accepted: took ? sent.filter((_, index) => !refused.has(index)) : [],
	});
	switch (operation) {
		case 'trackEvent':
		case 'trackPurchase': {
			const array = operation === 'trackEvent' ? 'events' : 'purchases';
			const objects = list(body[array]) as IDataObject[];
			const refused = new Set(
				(list(response.errors) as IDataObject[])
					.filter((error) => error.input_array === array)
					.map((error) => Number(error.index)),
			);
			return keep(
				objects.map((object) => `${array} ${String((object.properties as IDataObject | undefined)?.tag)}`),
				refused,
			);
		}
		case 'renameExternalIds': {
			const renames = list(body.external_id_renames) as IDataObject[];
			const refused = new Set((list(response.rename_errors) as unknown[][]).map((error) => Number(error[0])));
			return keep(
				renames.map((rename) => `rename ${String(rename.current_external_id)} → ${String(rename.new_external_id)}`),
				refused,
			);
		}
		case 'sendTransactionalEmail':
			// By its ID, and by its recipient: a derived ID that changed between tries is still the item's receipt.
			return keep([
				`receipt ${String(body.external_send_id)}`,
				`receipt to ${String((body.recipient as IDataObject | undefined)?.external_user_id)}`,
			]);
		case 'sendNow':
			return keep(list(body.external_user_ids).map((id) => `message to ${String(id)}`));
		case 'triggerCampaign':
		case 'triggerCanvas':
			return keep(
				(list(body.recipients) as IDataObject[]).map((recipient) => `message to ${String(recipient.external_user_id)}`),
			);
		case 'export':
			return { sent: [], accepted: [] };
	}
}

/**
 * Nothing the platform accepted is sent again in the same execution: not by the node's own resends, not
 * by a try of Retry On Fail (the run's earlier tries' pieces are answered as then), not by *Executions →
 * Retry* from the saved data. Each item has its own key in an execution, so a key sent after the
 * platform accepted it is a piece sent twice.
 */
function checkNothingAcceptedSentAgain(operation: Operation, requests: RecordedRequest[], violations: string[]): void {
	const accepted = new Map<string, number>();
	for (const request of [...requests].sort((a, b) => a.seq - b.seq)) {
		const { sent, accepted: took } = piecesOfRequest(operation, request);
		for (const key of new Set(sent))
			if (accepted.has(key))
				violations.push(
					`request ${request.seq} sent ${key} again, which the platform had accepted in request ${accepted.get(key)} of this execution`,
				);
		for (const key of took) if (!accepted.has(key)) accepted.set(key, request.seq);
	}
}

function checkRename({ intents, answers, before, after, violations }: Checks): void {
	intents.forEach(({ json }, index) => {
		const answer = answers[index];
		checkEveryAnswerKnown(index, answer, ['renamed', ...FAILED], violations);
		const serviceId = serviceIdOf(before, String(json.from));
		// Nobody has the current ID any more (the same rename run again): there is nothing to rename.
		if (serviceId === undefined) {
			if (answer.status === 'renamed')
				violations.push(`item ${index} answered renamed, and no profile had ${String(json.from)} before the run`);
			return;
		}
		const now = after.profiles.find((profile) => profile.service_id === serviceId)?.external_id;
		if (answer.status === 'renamed' && now !== json.to)
			violations.push(
				`item ${index} answered renamed, and the profile's external ID is ${now}, not ${String(json.to)}`,
			);
		if (saysSafeToRunAgain(answer) && now !== json.from)
			violations.push(`item ${index} says ${answer.delivery}, and the profile was renamed to ${now}`);
	});
}

function checkExport({ intents, answers, before, violations }: Checks): void {
	intents.forEach(({ person }, index) => {
		const answer = answers[index];
		checkEveryAnswerKnown(index, answer, ['found', 'not_found', ...FAILED], violations);
		const exists = serviceIdOf(before, person) !== undefined;
		if (answerName(answer) === 'found' && (!exists || answer.external_id !== person))
			violations.push(`item ${index} asked for ${person} and was answered the record of ${String(answer.external_id)}`);
		if (answer.status === 'not_found' && exists)
			violations.push(`item ${index} answered not_found for ${person}, who exists`);
	});
}

function checkTransactional({ plan, intents, answers, before, after, violations, context, startedAt }: Checks): void {
	const known = new Set(before.transactionalSends.map((send) => send.dispatch_id));
	const added = after.transactionalSends.filter((send) => !known.has(send.dispatch_id));
	intents.forEach(({ person, json }, index) => {
		const answer = answers[index];
		checkEveryAnswerKnown(index, answer, ['sent', 'queued', 'duplicate', ...FAILED], violations);
		const serviceId = serviceIdOf(after, person);
		const newToPerson = added.filter((send) => send.service_id === serviceId).length;
		if (newToPerson > 1) violations.push(`item ${index}: ${person} got ${newToPerson} emails from one item`);
		// The item's External Send ID: its own, or the one the node derived (in its answer where the platform answered).
		const id = plan.ownSendIds ? json.sendId : answer.external_send_id;
		if (answer.status === 'sent') {
			const matching = after.transactionalSends.filter(
				(send) => send.dispatch_id === answer.dispatch_id && send.service_id === serviceId,
			);
			if (matching.length !== 1)
				violations.push(
					`item ${index} answered sent with ${String(answer.dispatch_id)}, which the platform holds ${matching.length} times for ${person}`,
				);
		}
		if (answer.status === 'queued') {
			const received = after.transactionalSends.filter((send) => send.external_send_id === id).length;
			if (received !== 1)
				violations.push(
					`item ${index} answered queued (received), and the platform holds ${received} emails with its ID`,
				);
			if (!/do not run this item again/i.test(String(answer.note)))
				violations.push(`item ${index} answered queued without saying not to run it again`);
		}
		if (answer.status === 'duplicate') {
			// Not sent now: the platform had this email, under this ID, for this customer before the run.
			const earlier = before.transactionalSends.filter((send) => send.external_send_id === id);
			if (earlier.length !== 1 || earlier[0].service_id !== serviceId)
				violations.push(
					`item ${index} answered duplicate, and before the run the platform held ${earlier.length} emails with its ID ${String(id)}${earlier.length === 1 ? ', not for ' + person : ''}`,
				);
			if (newToPerson !== 0) violations.push(`item ${index} answered duplicate, and ${person} got a new email from it`);
			if (answer.dispatch_id !== undefined && answer.dispatch_id !== earlier[0]?.dispatch_id)
				violations.push(
					`item ${index} answered duplicate with ${String(answer.dispatch_id)}, not the earlier email's ${String(earlier[0]?.dispatch_id)}`,
				);
			if (!/not sent again/i.test(String(answer.note)))
				violations.push(`item ${index} answered duplicate without saying it was not sent again`);
		}
		if (saysSafeToRunAgain(answer) && newToPerson !== 0)
			violations.push(`item ${index} says ${answer.delivery} (safe to run again), and ${person} got an email from it`);
		if (!plan.ownSendIds)
			checkSameEmailOnce({
				index,
				person,
				item: receiptKey(plan, json),
				answer,
				added,
				serviceId,
				model: context.model,
				startedAt,
				violations,
			});
	});
	if (plan.ownSendIds) {
		const byId = new Map<string, number>();
		for (const send of after.transactionalSends)
			if (send.external_send_id) byId.set(send.external_send_id, (byId.get(send.external_send_id) ?? 0) + 1);
		for (const [id, count] of byId)
			if (count > 1) violations.push(`${count} emails went out with the External Send ID ${id}`);
	}
}

/**
 * A receipt's item as it came in, which its derived External Send ID comes from: the item's fields and
 * the node's parameters as written, less the Options (they only say how a run sends), so the current
 * workflow's is the saved one's. The items of one run are all different (their tags), so no count of
 * identical items before one is needed.
 */
function receiptKey(plan: MessageRunPlan, json: IDataObject): string {
	const { options: _options, ...parameters } = parametersOf(plan);
	return JSON.stringify([parameters, json]);
}

/**
 * The same item from the same node within 24 hours is one email: a receipt the node sends with an ID it
 * derives reaches a customer once, whatever runs the sequence makes (the step re-run, the webhook
 * delivered twice) and whatever its volatile values evaluate to, each derivation giving the same ID; a
 * later run of the item is answered `duplicate`, or `sent`/`queued` naming that one email (a repeat the
 * platform answers while the first is still queued). Another item to the same customer (a new order)
 * is another email. The model learns the receipt from what the platform received.
 */
function checkSameEmailOnce(item: {
	index: number;
	person: string;
	/** The item as it came in (receiptKey). */
	item: string;
	answer: IDataObject;
	added: StateView['transactionalSends'];
	serviceId: string | undefined;
	model: MessagingModel;
	startedAt: number;
	violations: string[];
}): void {
	const { index, person, answer, added, serviceId, startedAt, violations } = item;
	const { receipts } = item.model;
	const receipt = receipts[item.item];
	if (receipt && startedAt - receipt.at < SEND_ID_WINDOW_MS) {
		const newToPerson = added.filter((send) => send.service_id === serviceId).length;
		if (newToPerson !== 0)
			violations.push(
				`item ${index}: ${person} got the same receipt again (a derived ID, the first one ${receipt.externalSendId})`,
			);
		if (answer.external_send_id !== undefined && answer.external_send_id !== receipt.externalSendId)
			violations.push(
				`item ${index}: the node derived ${String(answer.external_send_id)} for the email it derived ${receipt.externalSendId} for before`,
			);
		if (answer.dispatch_id !== undefined && answer.dispatch_id !== receipt.dispatchId)
			violations.push(
				`item ${index} answered ${String(answer.status)} with ${String(answer.dispatch_id)}, not the one email's ${receipt.dispatchId}`,
			);
		return;
	}
	const sent = added.find((send) => send.service_id === serviceId);
	if (sent?.external_send_id)
		receipts[item.item] = { externalSendId: sent.external_send_id, dispatchId: sent.dispatch_id, at: startedAt };
}

function checkDispatches({ intents, answers, before, after, violations }: Checks): void {
	const known = new Set(before.dispatches.map((dispatch) => dispatch.dispatch_id));
	const added = after.dispatches.filter((dispatch) => !known.has(dispatch.dispatch_id));
	const messagesTo = (dispatches: StateView['dispatches'], serviceId: string | undefined) =>
		dispatches.reduce(
			(sum, dispatch) => sum + dispatch.recipients.filter((recipient) => recipient.service_id === serviceId).length,
			0,
		);
	intents.forEach(({ person }, index) => {
		const answer = answers[index];
		checkEveryAnswerKnown(index, answer, ['sent', ...FAILED], violations);
		const serviceId = serviceIdOf(after, person);
		const received = messagesTo(added, serviceId);
		if (received > 1) violations.push(`item ${index}: ${person} got ${received} messages from one item`);
		if (answer.status === 'sent') {
			const dispatch = added.find((candidate) => candidate.dispatch_id === answer.dispatch_id);
			const inIt = dispatch ? messagesTo([dispatch], serviceId) : 0;
			if (inIt !== 1 || received !== 1)
				violations.push(
					`item ${index} answered sent with ${String(answer.dispatch_id)}: ${person} is in it ${inIt} times and got ${received} messages`,
				);
		}
		if (saysSafeToRunAgain(answer) && received !== 0)
			violations.push(`item ${index} says ${answer.delivery} (safe to run again), and ${person} got a message from it`);
	});
}

function checkNoSecret(text: string, where: string, context: RunContext, violations: string[]): void {
	if (text.includes(context.apiKey)) violations.push(`the API key appears in ${where}`);
}

/**
 * No second of the run sends more requests than its requests and their resends can: each request
 * and a resend at most every half second (the floor of every wait), plus a small constant. A tight
 * loop on a wait already over would send hundreds.
 */
const PACE_SLACK = 2;
function checkPace(
	plan: MessageRunPlan,
	itemCount: number,
	requests: RecordedRequest[],
	violations: string[],
	executions = 1,
): void {
	// The current workflow a retry may run with packs fewer items a request: one, at the most requests.
	const perRequest = plan.operation === 'sendTransactionalEmail' || executions > 1 ? 1 : Math.max(1, plan.batchSize);
	const planned = runSizes(plan.shape, itemCount).reduce((sum, size) => sum + Math.ceil(size / perRequest), 0);
	// Retry On Fail runs a run's requests again; Executions → Retry runs them again.
	const ceiling = (plan.shape.retryOnFail ? 6 : 3) * planned * executions + PACE_SLACK;
	const times = requests.map((request) => request.receivedAt).sort((a, b) => a - b);
	let start = 0;
	for (let end = 0; end < times.length; end++) {
		while (times[end] - times[start] >= 1000) start++;
		if (end - start + 1 > ceiling) {
			violations.push(`${end - start + 1} requests within one second (at most ${ceiling} for ${planned} planned)`);
			return;
		}
	}
}

/** How many items each run of the node gets, in a shape (see ../harness/shapeStandIns.ts). */
function runSizes(shape: RunShape, itemCount: number): number[] {
	if (shape.kind === 'once') return [itemCount];
	const perRun = shape.kind === 'loop' ? shape.batchSize : Math.ceil(itemCount / shape.branches);
	return Array.from({ length: Math.ceil(itemCount / perRun) }, (_, run) => Math.min(perRun, itemCount - run * perRun));
}
