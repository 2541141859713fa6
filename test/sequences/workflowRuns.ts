/**
 * The steps a sequence is made of. Most are one execution of a saved workflow in n8n's real engine:
 * an attribute sync by one of two User nodes, or a newsletter opt-in/out by the Subscription node,
 * against the workspace the workflow's credential points at, sometimes with the platform stumbling on
 * the run's first request(s), or n8n's database going away before the run could record its end (a
 * workflow of several of our nodes is ./workflowOfNodes.ts, which settles its nodes here). The others: two runs of the workflow at once (a manual run during the nightly one), and the newcomer
 * signing up in a workspace. While two runs overlap, n8n's store behaves as n8n's does under
 * concurrency: each call reads the row, waits a database round trip, then inserts or writes it back
 * whole (test/harness/deduplicationStore.ts, StoreRace).
 *
 * And the ways a run is run again: a run with On Error "Stop Workflow" that the node stops (an Update
 * Existing Only item for a customer with no profile yet, a fault on every attempt), retried from its
 * saved data (*Executions → Retry*, with the saved or the current workflow, after the customer signs up
 * or the fault is gone, or not, once or twice); the step re-run as a new execution of the same items; a
 * webhook delivered twice, one after the other or both at once. Rows carry their own `error` (null,
 * false, "", a text) and columns named like the node's words, under Retry On Fail by n8n 2.x's rule or
 * 1.x's. An attribute sync may stamp each object with values that change on every evaluation
 * (`{{ $now }}`, `Math.random()`), which each try evaluates anew. An item a try or a retry from saved
 * data answers is answered as the try that had it accepted ("updated", never "unchanged", with the
 * values that try sent), and nothing the platform accepted is sent again by it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { isDeepStrictEqual } from 'node:util';

import fc from 'fast-check';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { DEMO_API_KEY } from '../../sandbox';
import type { FaultRule, RecordedRequest, StateView } from '../../sandbox/adminApiTypes';
import type { RunResult } from '../harness';
import { runWorkflow } from '../harness';
import { moveClockBy, virtualNow } from './virtualClock';
import { deduplicationStore, raceWithRoundTrips } from '../harness/deduplicationStore';
import { answersAcrossRuns, shapedWorkflow, triesAgainIn } from '../support/nodeShapes';
import { SUBSCRIPTION_NODE, USER_NODE } from '../support/nodeTypes';
import { wordsOf } from '../support/nodeWords';
import type { Answer, ItemIntent, PieceName, RunShape, Truth, Violation } from './platformTruth';
import {
	checkUnchangedWasHeld,
	compareWithPlatform,
	effectsOf,
	GROUP,
	inExecutionOrder,
	learn,
	PIECES,
	profileOf,
	readAnswers,
	signedUp,
	tallyName,
} from './platformTruth';
import type { RowPlan } from './rows';
import { describeRows, rowPlan, tallyRows, withRowColumns, wordsField } from './rows';
import type { Person, Workspace, WorkspaceIndex } from './workspaces';
import { emailOf, NEWCOMER, signUp, WORKSPACES, workspaceName } from './workspaces';

/**
 * The workflow's nodes: two attribute syncs and two newsletter nodes (the opt-out one the false branch of
 * an IF, ./workflowOfNodes.ts), each keeping its id from run to run.
 */
export const NODES = {
	crm: { id: '5eed0000-0000-4000-8000-00000000000a', name: 'Sync CRM Attributes', type: USER_NODE },
	webForm: { id: '5eed0000-0000-4000-8000-00000000000b', name: 'Sync Web Form Attributes', type: USER_NODE },
	newsletter: { id: '5eed0000-0000-4000-8000-00000000000c', name: 'Newsletter Opt-In', type: SUBSCRIPTION_NODE },
	optOut: { id: '5eed0000-0000-4000-8000-00000000000d', name: 'Newsletter Opt-Out', type: SUBSCRIPTION_NODE },
} as const;
export type NodeKey = keyof typeof NODES;
/** A node setting group states through the subscription endpoint (Set Group State, Subscribe, Unsubscribe). */
export const isNewsletter = (node: NodeKey) => NODES[node].type === SUBSCRIPTION_NODE;

const PATHS = { [USER_NODE]: '/users/track', [SUBSCRIPTION_NODE]: '/v2/subscription/status/set' } as const;

const VALUES: Record<PieceName, readonly string[]> = {
	tier: ['gold', 'silver', 'bronze'],
	city: ['Lisbon', 'Oslo', 'Quito'],
	email_subscribe: ['subscribed', 'unsubscribed', 'opted_in'],
	[GROUP]: ['subscribed', 'unsubscribed'],
};

/**
 * 'unplaced-error': /users/track answers 201 with a plain string in `errors`, having applied nothing
 * (the subscription endpoint reads no errors from a 2xx, so its runs never get it).
 */
type FaultKind = 'status' | 'reset-before' | 'reset-after' | 'slow' | 'unplaced-error' | 'refused';
/**
 * One fault rule on the run's path, for its first `times` requests (4: every attempt of one request).
 * 'refused': a 400 for the whole request, which applies nothing and is not sent again.
 */
interface Fault {
	kind: FaultKind;
	times: 1 | 4;
}

export interface RunPlan {
	node: NodeKey;
	workspace: WorkspaceIndex;
	identifyBy: 'external_id' | 'email';
	sendOnlyChanges: boolean;
	batchSize?: number;
	parallelRequests: number;
	fault?: Fault;
	/**
	 * n8n's database goes away once the run has made this many checks in the deduplication store
	 * (2: after reading what was sent before; 3: after starting to record the run's end), so Send Only
	 * Changes cannot close the run. Only with Send Only Changes on.
	 */
	crash?: 2 | 3;
	/** A newsletter run by Subscribe or Unsubscribe: one state for every item, no State field. */
	oneState?: boolean;
	/**
	 * How many times n8n runs the node in the execution: the items in that many runs of consecutive items,
	 * as both branches of an IF wired into one node (each run of the node its own, in order).
	 */
	runsOfNode?: 2 | 3;
	items: ItemIntent[];
	/** What the rows carry besides what the node reads: their own `error`, columns named like the node's words. */
	rows?: RowPlan;
	/** Retry On Fail on the node, by n8n 2.x's rule (n8n-core's own) or 1.x's. */
	retryOnFail?: '2.x' | '1.x';
	/** On Error "Stop Workflow" (else "Continue", the regular output): the node stops at the first failed item. */
	stopWorkflow?: boolean;
	/**
	 * An attribute sync whose attributes JSON adds values that change on every evaluation (VOLATILE_KEYS:
	 * `{{ $now }}`, `Math.random()`), as a marketer stamps a sync: each try n8n runs evaluates them anew.
	 */
	volatile?: boolean;
	/** The row's column an attribute sync reads its attributes from (`attrs`; each node its own in a workflow of several). */
	column?: string;
}

/**
 * When the sequence's steps run, on the virtual clock: a schedule (daily, every few days, weekly, or
 * irregular), with manual runs in between, and Resend Everything Every (Days) as the workflow sets it.
 */
export interface Schedule {
	kind: 'daily' | 'every few days' | 'weekly' | 'irregular';
	/** Hours before each step (the first step too): the schedule's interval, or a manual run's few minutes. */
	gapsHours: number[];
	/** Resend Everything Every (Days) on every node with Send Only Changes (0: never). */
	resendEveryDays: 0 | 3 | 7 | 30;
}

const HOUR_MS = 3_600_000;

export const scheduleOf = (maxSteps: number): fc.Arbitrary<Schedule> =>
	fc
		.record({
			kind: fc.constantFrom<Schedule['kind']>('daily', 'every few days', 'weekly', 'irregular'),
			manual: fc.array(fc.boolean(), { minLength: maxSteps, maxLength: maxSteps }),
			irregular: fc.array(fc.integer({ min: 1, max: 24 * 10 }), { minLength: maxSteps, maxLength: maxSteps }),
			everyFew: fc.integer({ min: 2, max: 3 }),
			resendEveryDays: fc.constantFrom<Schedule['resendEveryDays']>(0, 3, 7, 30),
		})
		.map(({ kind, manual, irregular, everyFew, resendEveryDays }) => ({
			kind,
			resendEveryDays,
			gapsHours: manual.map((isManual, step) =>
				isManual && step > 0
					? 0.1
					: kind === 'daily'
						? 24
						: kind === 'every few days'
							? 24 * everyFew
							: kind === 'weekly'
								? 24 * 7
								: irregular[step],
			),
		}));

export const describeSchedule = ({ kind, gapsHours, resendEveryDays }: Schedule, steps: number) =>
	`${kind}, resend every ${resendEveryDays} days, hours before each step: ${gapsHours.slice(0, steps).join(', ')}`;

/** A step begins: the clock moves on by the schedule's gap before it (or by `gapHours`). */
export function beginStep(real: SequenceReal, gapHours?: number): number {
	const step = ++real.steps;
	moveClockBy((gapHours ?? real.schedule?.gapsHours[step - 1] ?? 0) * HOUR_MS);
	real.stepStartedAt = virtualNow();
	return step;
}

const DAY_MS = 24 * HOUR_MS;
/** The node reads the clock a few milliseconds after the step begins: a minute of slack either way. */
const CLOCK_SLACK_MS = 60_000;

/**
 * Resend Everything Every (Days), per contact: an attribute object answered "unchanged", or sent with
 * some of its parts left out as unchanged, was last accepted whole from this workflow, for that
 * workspace and identifier, less than that many days before. A send of the changed parts alone resends
 * nothing else, so it does not count as the contact's last acceptance. An item of a run the node
 * stopped (On Error: Stop Workflow) has no answer, yet the platform may have accepted its object whole
 * before the stop, and the node rightly remembers that: it counts when one of the step's accepted
 * requests carries it. Checked before the step's own acceptances are learnt (the run decided what to
 * leave out first).
 */
function checkFreshness(
	real: SequenceReal,
	ran: Ran[],
	answersOf: Map<Ran, Array<Answer | undefined>>,
	violations: Violation[],
): void {
	const everyDays = real.schedule?.resendEveryDays ?? 0;
	// Each node keeps its own turn to be resent.
	const keyOf = (plan: RunPlan, user: Person) => `${plan.node} ${plan.workspace} ${plan.identifyBy} ${user}`;
	const attributeRuns = ran.filter(({ plan }) => !isNewsletter(plan.node));
	const acceptedNow = new Set<string>();
	// A value another node of the step had accepted (a chain's earlier node): the platform holds it now.
	const partOf = (plan: RunPlan, user: Person, piece: string, value: string | undefined) =>
		`${plan.workspace} ${plan.identifyBy} ${user} ${piece}=${value}`;
	const partsAcceptedNow = new Set<string>();
	for (const entry of ran) {
		const acceptedObjects = (entry.stepRequests ?? []).flatMap(wholeObjectsAccepted);
		entry.plan.items.forEach((item, index) => {
			const answer = answersOf.get(entry)?.[index];
			if (answer?.status === 'applied' && !answer.warned)
				for (const [piece, value] of Object.entries(item.sets))
					if (!answer.unchangedPieces?.includes(piece as PieceName))
						partsAcceptedNow.add(partOf(entry.plan, item.user, piece, value));
			if (isNewsletter(entry.plan.node)) return;
			if (answer?.status === 'applied' && !answer.warned && !answer.unchangedPieces?.length)
				acceptedNow.add(keyOf(entry.plan, item.user));
			else if (answer === undefined && acceptedObjects.includes(objectOfItem(entry.plan, index)))
				acceptedNow.add(keyOf(entry.plan, item.user));
		});
	}
	for (const entry of attributeRuns) {
		entry.plan.items.forEach((item, index) => {
			const answer = answersOf.get(entry)?.[index];
			const leftOut =
				answer?.status === 'unchanged' || (answer?.status === 'applied' && !!answer.unchangedPieces?.length);
			if (everyDays === 0 || !leftOut) return;
			const key = keyOf(entry.plan, item.user);
			// Accepted in this step: by an earlier run of the node (merged branches) or the overlapping run; or
			// each value left out accepted from another node of the step.
			if (acceptedNow.has(key)) return;
			const runOfNode = runOfNodeOf(entry.plan);
			const lastWordOf = (piece: PieceName) =>
				!entry.plan.items.some(
					(later, at) =>
						at > index && runOfNode(at) === runOfNode(index) && later.user === item.user && piece in later.sets,
				);
			const leftOutPieces = (
				answer?.status === 'unchanged' ? (Object.keys(item.sets) as PieceName[]) : (answer?.unchangedPieces ?? [])
			).filter(lastWordOf);
			if (leftOutPieces.every((piece) => partsAcceptedNow.has(partOf(entry.plan, item.user, piece, item.sets[piece]))))
				return;
			const last = real.lastAccepted.get(key);
			const age = last === undefined ? undefined : real.stepStartedAt - last;
			if (age === undefined || age > everyDays * DAY_MS + CLOCK_SLACK_MS)
				violations.push({
					kind: 'stale',
					message: `${entry.label}item ${index} (${item.user}) is answered ${answer?.status === 'unchanged' ? '"unchanged"' : `with ${answer?.unchangedPieces?.join(', ')} "unchanged"`}, and its attributes were last accepted whole ${age === undefined ? 'never' : `${(age / DAY_MS).toFixed(2)} days`} before, past Resend Everything Every ${everyDays} days`,
				});
		});
	}
	for (const key of acceptedNow) real.lastAccepted.set(key, real.stepStartedAt);
}

/**
 * An attribute item's object as the node sends it whole, in the words of `objectsOfRequest`: every
 * piece the item is the last word of in its run of the node (a later item of the same customer in that
 * run sends the pieces it sets again), and a volatile plan's values when it is its customer's last item
 * there (every item sets them).
 */
function objectOfItem(plan: RunPlan, index: number): string {
	const runOfNode = runOfNodeOf(plan);
	const { user, sets } = plan.items[index];
	const who = contactOf(plan, user);
	const setLater = (piece: string) =>
		plan.items.some(
			(later, at) =>
				at > index &&
				runOfNode(at) === runOfNode(index) &&
				later.user === user &&
				(piece in later.sets || VOLATILE_KEYS.includes(piece)),
		);
	const keys = (Object.entries(sets) as Array<[PieceName, string]>)
		.filter(([piece]) => !setLater(piece))
		.map(([piece, value]) =>
			piece === GROUP ? `${who} ${GROUP}=${value}` : `${who} ${piece}=${JSON.stringify(value)}`,
		);
	const volatile = plan.volatile ? VOLATILE_KEYS.filter((key) => !setLater(key)) : [];
	return [...keys, ...volatile.map((key) => volatileKey(who, key))].sort().join('; ');
}

/** How a run's requests name a customer: by the run's identifier. */
const contactOf = (plan: RunPlan, user: Person) => (plan.identifyBy === 'email' ? emailOf(user) : user);

/**
 * The attribute objects of a /users/track request the platform accepted and its answer proves: answered
 * as `piecesOfRequest` reads an acceptance, with no error that names no object, the object not refused.
 */
function wholeObjectsAccepted(request: RecordedRequest): string[] {
	const errors = ((request.response ?? {}) as IDataObject).errors;
	if (Array.isArray(errors) && errors.some((error) => typeof error !== 'object' || error === null)) return [];
	return objectsOfRequest(request)
		.filter(({ accepted }) => accepted)
		.map(({ who, keys, volatile }) => [...keys, ...volatile.map((key) => volatileKey(who, key))].sort().join('; '));
}

/** What a sequence tallies and keeps of its steps. */
export interface SequenceReal {
	schedule?: Schedule;
	/**
	 * When the platform last accepted each contact's attributes from this workflow, per workspace and
	 * identifier (as Send Only Changes keeps them apart): "unchanged" is answered only within Resend
	 * Everything Every (Days) of it.
	 */
	lastAccepted: Map<string, number>;
	/** When the current step began, on the virtual clock. */
	stepStartedAt: number;
	workspaces: Workspace[];
	workflowId: string;
	/** Steps so far (a run, two overlapping runs, a sign-up). */
	steps: number;
	runs: number;
	items: number;
	answers: Record<string, number>;
	faults: number;
	/** Of the faults, how many answered a 2xx with an error naming no object. */
	unplacedErrors: number;
	overlaps: number;
	/** Of the overlaps, how many interleaved in n8n's store (one run's first call before the other's last). */
	overlapsInterleaved: number;
	/** Store calls of overlapping runs whose insert failed: the other run had created the row since they read it. */
	creationRaces: number;
	/** Store calls of overlapping runs that wrote the row back over what the other run wrote since they read it. */
	overwrites: number;
	/** Items refused by the platform (Update Existing Only, no profile). */
	refused: number;
	/** Set Group State items by an external ID no profile had (the platform ignores them). */
	ignored: number;
	/** Runs whose end n8n's store could not record (the node said so). */
	crashes: number;
	signUps: number;
	/** Runs in which n8n ran the node several times (merged branches). */
	severalRunsOfNode: number;
	/** Runs with On Error "Stop Workflow" that the node stopped, to be retried. */
	stoppedRuns: number;
	/** *Executions → Retry* runs of them, from the saved data; with the current workflow; after which the run still stopped. */
	retried: number;
	retriedWithCurrentWorkflow: number;
	stillStopped: number;
	/** Steps re-run as a new execution of the same items. */
	rerunSteps: number;
	/** Webhooks delivered twice: one after the other, and both at once. */
	webhooksTwice: number;
	webhooksTwiceAtOnce: number;
	/** Runs whose attributes carry values that change on every evaluation. */
	volatileRuns: number;
	/** Runs of a workflow of several of our nodes (./workflowOfNodes.ts); next nights checked to send nothing. */
	workflowsOfNodes: number;
	quietNights: number;
	/** Tries of Retry On Fail beyond a run's first, by n8n line's rule. */
	triesAgain: Record<'2.x' | '1.x', number>;
	/** Runs whose rows carry their own `error` (by kind), columns named like the node's words. */
	rows: Record<string, number>;
	/** Each step's description, in order. */
	log: string[];
	/** Each run's plan, in order, with its name (a repeat run takes an earlier one's rows). */
	plans: Array<{ plan: RunPlan; label: string }>;
	/** What each workspace held after the last step. */
	states: StateView[];
	/** Stops the sequence after the first step with such a violation (while shrinking: later steps drop out). */
	stopAt?: (violation: Violation) => boolean;
	/** Each with the step it was found after (1-based). */
	violations: Array<Violation & { step: number }>;
}

export interface SequenceModel {
	truth: Truth;
	/** Workflow runs so far. */
	runs: number;
}

type Command = fc.AsyncCommand<SequenceModel, SequenceReal>;

// ---- generation -------------------------------------------------------------------------------

/** One of several, by weight, shrinking towards the first. */
export const weighted = <T>(...choices: Array<[T, number]>): fc.Arbitrary<T> =>
	fc.oneof({ withCrossShrink: true }, ...choices.map(([value, weight]) => ({ arbitrary: fc.constant(value), weight })));
/** Absent three times in four: shrinks to absent. */
export const rarely = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
	fc.oneof({ withCrossShrink: true }, { arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary, weight: 1 });
/** Absent half the time: shrinks to absent. */
export const often = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
	fc.option(arbitrary, { nil: undefined, freq: 2 });

export const person = weighted<Person>(['u1', 3], ['u2', 3], ['u3', 3], [NEWCOMER, 2]);
export const valueOf = (piece: PieceName) => fc.constantFrom(...VALUES[piece]);

const attributeItem: fc.Arbitrary<ItemIntent> = fc
	.record({
		user: person,
		tier: often(valueOf('tier')),
		city: often(valueOf('city')),
		email_subscribe: rarely(valueOf('email_subscribe')),
		[GROUP]: rarely(valueOf(GROUP)),
		updateOnly: rarely(fc.constant<true>(true)),
	})
	.filter((item) => PIECES.some((piece) => item[piece] !== undefined))
	.map(({ user: who, updateOnly, ...sets }) => ({
		user: who,
		sets: Object.fromEntries(Object.entries(sets).filter(([, value]) => value !== undefined)),
		...(updateOnly && { updateOnly }),
	}));

const groupStateItem: fc.Arbitrary<ItemIntent> = fc
	.record({ user: person, state: valueOf(GROUP) })
	.map(({ user: who, state }) => ({ user: who, sets: { [GROUP]: state } }));

export const faultOf = (kinds: FaultKind[]): fc.Arbitrary<Fault | undefined> =>
	rarely(fc.record({ kind: fc.constantFrom(...kinds), times: weighted<1 | 4>([1, 3], [4, 1]) }));
export const BASE_FAULTS: FaultKind[] = ['status', 'reset-after', 'reset-before', 'slow'];
const trackFault = faultOf([...BASE_FAULTS, 'unplaced-error']);
const crash = weighted<2 | 3 | undefined>([undefined, 16], [2, 1], [3, 1]);

const runSettings = {
	workspace: weighted<WorkspaceIndex>([0, 4], [1, 1]),
	identifyBy: weighted<RunPlan['identifyBy']>(['external_id', 3], ['email', 1]),
	sendOnlyChanges: weighted([true, 2], [false, 1]),
	batchSize: often(fc.integer({ min: 1, max: 3 })),
	parallelRequests: fc.integer({ min: 1, max: 8 }),
	crash,
	runsOfNode: rarely(weighted<2 | 3>([2, 2], [3, 1])),
	rows: rowPlan(),
	retryOnFail: weighted<RunPlan['retryOnFail']>([undefined, 4], ['2.x', 1], ['1.x', 1]),
};
/** A crash means nothing without Send Only Changes (nothing is recorded). */
const withoutIdleCrash = (plan: RunPlan): RunPlan =>
	plan.sendOnlyChanges || plan.crash === undefined ? plan : { ...plan, crash: undefined };

export const attributeSync = (maxItems: number): fc.Arbitrary<RunPlan> =>
	fc
		.record({
			node: weighted<NodeKey>(['crm', 3], ['webForm', 1]),
			...runSettings,
			fault: trackFault,
			items: fc.array(attributeItem, { minLength: 1, maxLength: maxItems }),
			volatile: fc.boolean(),
		})
		.map(withoutIdleCrash);

export const newsletterRun = (maxItems: number): fc.Arbitrary<RunPlan> =>
	fc
		.record({
			node: fc.constant<NodeKey>('newsletter'),
			...runSettings,
			fault: faultOf(BASE_FAULTS),
			items: fc.array(groupStateItem, { minLength: 1, maxLength: maxItems }),
			oneState: fc.boolean(),
		})
		.map(withoutIdleCrash)
		.map((plan) => (plan.oneState ? { ...plan, items: plan.items.map(stateOf(plan.items[0])) } : plan));

/** The state a Subscribe or Unsubscribe node sets: its items' (the opt-out node's, where an IF gave it none). */
const oneStateOf = (plan: RunPlan) =>
	plan.items[0]?.sets[GROUP] ?? (plan.node === 'optOut' ? 'unsubscribed' : 'subscribed');

/** The item with the first item's state: a run Subscribe or Unsubscribe makes of the same rows. */
const stateOf =
	(first: ItemIntent) =>
	(item: ItemIntent): ItemIntent => ({ ...item, sets: { [GROUP]: first.sets[GROUP] } });

// ---- description -------------------------------------------------------------------------------

export const faultName = ({ kind, times }: Fault) =>
	`fault ${kind === 'status' ? '503' : kind === 'refused' ? '400' : kind}×${times}`;

export function describePlan(plan: RunPlan): string {
	const settings = [
		NODES[plan.node].name,
		...(plan.oneState ? [oneStateOf(plan) === 'subscribed' ? 'Subscribe' : 'Unsubscribe'] : []),
		`${workspaceName(plan.workspace)} workspace`,
		`by ${plan.identifyBy}`,
		plan.sendOnlyChanges && offersSendOnlyChanges(plan) ? 'Send Only Changes' : 'sends all',
		...(plan.batchSize !== undefined ? [`batch ${plan.batchSize}`] : []),
		`parallel ${plan.parallelRequests}`,
		...(plan.fault ? [faultName(plan.fault)] : []),
		...(plan.crash ? [`n8n's store gone after ${plan.crash} checks`] : []),
		...(plan.runsOfNode ? [`the node run ${plan.runsOfNode} times (merged branches)`] : []),
		...(plan.retryOnFail ? [`Retry On Fail (${plan.retryOnFail}'s rule)`] : []),
		...(plan.stopWorkflow ? ['On Error: Stop Workflow'] : []),
		...(plan.volatile ? ['attributes with synced_at {{ $now }} and sync_nonce Math.random()'] : []),
		...(describeRows(plan.rows) ? [describeRows(plan.rows)] : []),
	];
	const items = plan.items.map(
		({ user: who, sets, updateOnly }, index) =>
			`#${index} ${who}${updateOnly ? ' (update existing only)' : ''} ${Object.entries(sets)
				.map(([piece, value]) => `${piece}=${value}`)
				.join(',')}`,
	);
	return `${settings.join(', ')}: [${items.join('; ')}]`;
}

/**
 * The newsletter node (Set Group State, Subscribe, Unsubscribe) does not offer Send Only Changes: the
 * subscription endpoint's answer proves no state, so it sends every item and notes what it set.
 */
const offersSendOnlyChanges = (plan: RunPlan) => !isNewsletter(plan.node);

// ---- running -----------------------------------------------------------------------------------

const store = deduplicationStore();
/** Which run of an overlap a call to n8n's store comes from. */
const runOfCall = new AsyncLocalStorage<string>();

function itemJson(plan: RunPlan, item: ItemIntent): IDataObject {
	return withRowColumns(baseJson(plan, item), plan.rows);
}

export function baseJson(plan: RunPlan, { user: who, sets, updateOnly }: ItemIntent): IDataObject {
	const base = { id: who, email: emailOf(who) };
	if (isNewsletter(plan.node)) return { ...base, group: GROUP, state: sets[GROUP] };
	const attrs: IDataObject = {};
	if (sets.tier !== undefined) attrs.tier = sets.tier;
	if (sets.city !== undefined) attrs.city = sets.city;
	if (sets.email_subscribe !== undefined) attrs.email_subscribe = sets.email_subscribe;
	if (sets[GROUP] !== undefined)
		attrs.subscription_groups = [{ subscription_group_id: GROUP, subscription_state: sets[GROUP] }];
	return { ...base, [plan.column ?? 'attrs']: attrs, ...(updateOnly && { updateOnly }) };
}

/**
 * The node's parameters. `current`: the workflow as the marketer has it now, changed since the run only
 * where the items send the same (Parallel Requests, Batch Size, the dragged field's spacing): what
 * *Retry with currently saved workflow* runs.
 */
export function parameters(plan: RunPlan, resendEveryDays: number, current = false): INodeParameters {
	const options: INodeParameters = {
		...(offersSendOnlyChanges(plan) && { sendOnlyChanges: plan.sendOnlyChanges }),
		resendEveryDays,
		parallelRequests: current ? (plan.parallelRequests % 8) + 1 : plan.parallelRequests,
		...(current
			? { batchSize: ((plan.batchSize ?? 3) % 3) + 1 }
			: plan.batchSize !== undefined && { batchSize: plan.batchSize }),
		...(plan.rows?.outputField !== undefined && { outputField: plan.rows.outputField }),
	};
	const field = (name: string) => (current ? `={{$json.${name}}}` : `={{ $json.${name} }}`);
	const identify =
		plan.identifyBy === 'email'
			? { identifyBy: 'email', email: field('email') }
			: { identifyBy: 'external_id', externalId: field('id') };
	if (isNewsletter(plan.node) && plan.oneState) {
		const operation = oneStateOf(plan) === 'subscribed' ? 'subscribe' : 'unsubscribe';
		return { operation, subscriptionGroupId: '={{ $json.group }}', ...identify, options };
	}
	if (isNewsletter(plan.node)) {
		return {
			operation: 'setGroupState',
			subscriptionGroupId: '={{ $json.group }}',
			subscriptionState: '={{ $json.state }}',
			...identify,
			options,
		};
	}
	return {
		operation: 'updateAttributes',
		...identify,
		attributesInput: 'json',
		attributesJson: attributesJson(plan, current),
		// Update Existing Only, mapped per item from the row.
		...(plan.items.some(({ updateOnly }) => updateOnly) && {
			additionalFields: { _update_existing_only: '={{ $json.updateOnly === true }}' },
		}),
		options,
	};
}

/** The attribute keys a volatile plan adds, whose values change on every evaluation. */
const VOLATILE_KEYS: readonly string[] = ['synced_at', 'sync_nonce'];

/** A volatile value in an object, by its customer and key: its value is evaluated anew each time. */
const volatileKey = (who: string, key: string) => `${who} ${key}=(evaluated anew)`;

/** The row's attributes, with a volatile plan's values that change on every evaluation (`current`: spaced otherwise). */
function attributesJson(plan: RunPlan, current: boolean): string {
	const column = plan.column ?? 'attrs';
	if (!plan.volatile) return `={{ $json.${column} }}`;
	return current
		? `={{ {...$json.${column},synced_at:$now.toISO(),sync_nonce:Math.random()} }}`
		: `={{ { ...$json.${column}, synced_at: $now.toISO(), sync_nonce: Math.random() } }}`;
}

function faultRule(path: string, { kind, times }: Fault, delayMs = 20): FaultRule {
	if (kind === 'status') return { path, kind, times, status: 503 };
	if (kind === 'refused') return { path, kind: 'status', times, status: 400 };
	if (kind === 'slow') return { path, kind, times, delayMs };
	return { path, kind, times };
}

export const pathOf = (plan: RunPlan) => PATHS[NODES[plan.node].type];

/**
 * A fault rule the run did not use up would strike the next run: spend it on requests that change
 * nothing (an empty /users/track, a refused subscription body), so that each run meets only its own.
 */
export async function drainFaults(workspace: Workspace, path: string): Promise<void> {
	for (let attempt = 0; attempt < 8; attempt++) {
		// Adding no rules answers how many are pending (SandboxClient.injectFaults drops that answer).
		const added = await fetch(`${workspace.sandbox.url}/_admin/faults`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ rules: [] }),
		});
		const { pending } = (await added.json()) as { pending: number };
		if (!pending) return;
		try {
			await fetch(`${workspace.sandbox.url}${path}`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${DEMO_API_KEY}`, 'Content-Type': 'application/json' },
				body: JSON.stringify(path === '/users/track' ? { attributes: [] } : {}),
			});
		} catch {
			// a reset socket: that fault is spent too
		}
	}
}

/** A failed execution run again as *Executions → Retry* does: from its saved data, with the saved or the current workflow. */
interface RetryOf {
	failed: RunResult;
	currentWorkflow: boolean;
}

/** One run of the workflow with the plan's nodes and settings, its crash staged in n8n's store. */
async function execute(plan: RunPlan, real: SequenceReal, label = '', retryOf?: RetryOf): Promise<RunResult> {
	real.runs++;
	if (!retryOf) real.items += plan.items.length;
	if (plan.runsOfNode && plan.items.length > 1 && !retryOf) real.severalRunsOfNode++;
	if (plan.volatile && !retryOf) real.volatileRuns++;
	const node = NODES[plan.node];
	const workspace = real.workspaces[plan.workspace];
	if (plan.crash !== undefined) {
		const after = plan.crash;
		const from = store.calls.length;
		store.failWhen = (_, calls) =>
			calls.slice(from).filter((call) => call.method === 'checkProcessedAndRecord').length >= after;
	}
	try {
		const result = await runOfCall.run(
			label,
			async () =>
				await runWorkflow({
					workflowId: real.workflowId,
					...shapedWorkflow(
						{
							...node,
							parameters: parameters(plan, real.schedule?.resendEveryDays ?? 0, retryOf?.currentWorkflow),
							continueOnFail: !plan.stopWorkflow,
						},
						{ ...shapeOfNodeRuns(plan), retryOnFail: plan.retryOnFail !== undefined },
					),
					retryRule: plan.retryOnFail === '1.x' ? '1.x' : undefined,
					retryOf: retryOf?.failed.run,
					retryWithCurrentWorkflow: retryOf?.currentWorkflow,
					items: plan.items.map((item) => itemJson(plan, item)),
					credentials: workspace.credentials,
				}),
		);
		if (result.logs.some(({ message }) => message.includes("could not record this run's end"))) real.crashes++;
		if (plan.retryOnFail) real.triesAgain[plan.retryOnFail] += triesAgainIn(result, node.name, retryOf?.failed);
		if (!retryOf) tallyRows(real.rows, plan.rows);
		return result;
	} finally {
		if (plan.crash !== undefined) store.failWhen = undefined;
	}
}

/** How n8n runs the node: once, or once per branch of an IF merged into it. */
const shapeOfNodeRuns = (plan: RunPlan) =>
	plan.runsOfNode && plan.items.length > 1
		? { kind: 'branches' as const, branches: Math.min(plan.runsOfNode, plan.items.length) }
		: { kind: 'once' as const };

/** Which run of the node each item is in (the merged branches meet the items in their order). */
function runOfNodeOf(plan: RunPlan): (item: number) => number {
	const shape = shapeOfNodeRuns(plan);
	if (shape.kind === 'once') return () => 0;
	const perBranch = Math.ceil(plan.items.length / shape.branches);
	return (item) => Math.floor(item / perBranch);
}

const shapeOf = (plan: RunPlan, label: string): RunShape => ({
	workspace: plan.workspace,
	identifyBy: plan.identifyBy,
	ignoresUnknown: isNewsletter(plan.node) && plan.identifyBy === 'external_id',
	label,
});

/** Whether a run may create a profile the identifier `plan` uses finds for `user` (an attribute object creates one). */
const mayCreateFor = (plan: RunPlan, other: RunPlan) => (user: Person) =>
	!isNewsletter(other.node) &&
	other.workspace === plan.workspace &&
	other.identifyBy === plan.identifyBy &&
	other.items.some((item) => item.user === user);

/** What an item says when Send Only Changes could not read n8n's store (runOperation.ts). */
const STORE_UNREADABLE = 'could not check what this node sent before';

export interface Ran {
	plan: RunPlan;
	/** "" for a run alone; "run 3a " and "run 3b " for overlapping ones */
	label: string;
	result: RunResult;
	/**
	 * The executions the run was (its first, and each *Executions → Retry* of it), and the requests they
	 * sent: checked for a piece the platform accepted being sent again. Where n8n may run the node's run
	 * again (Retry On Fail, On Error "Stop Workflow") and runs it once; not for overlapping runs.
	 */
	chain?: { requests: RecordedRequest[] };
	/**
	 * The step's requests on the run's path, where the node may stop the run (On Error: Stop Workflow) and
	 * leave its items without an answer: which objects the platform accepted before the stop.
	 */
	stepRequests?: RecordedRequest[];
	/**
	 * A node of a workflow of several: the workflow's items it was given (the branch of an IF), in order
	 * (else all of them), and each as it came to the node (after the nodes before it), where not as the plan makes it.
	 */
	inputItems?: number[];
	rows?: IDataObject[];
}

/**
 * After a step's runs: each run's answers checked, the truth learnt from them, and compared with
 * both workspaces. Throws (stopping the sequence) when a violation is one `stopAt` picks. `before`: the
 * truth before the step, where the step changed it already (a retried run's stopped first execution).
 */
export async function settleStep(
	model: SequenceModel,
	real: SequenceReal,
	ran: Ran[],
	{
		before,
		stoppedOnly,
		profilesBefore,
		signedUpMeanwhile,
		inOrder,
		alsoFound = [],
	}: {
		before?: Truth;
		stoppedOnly?: boolean;
		/** A retried step: the platform's profiles when its first try ran (what an earlier try's pieces met). */
		profilesBefore?: StateView[];
		/** A retried step: the customer who signed up between its tries. */
		signedUpMeanwhile?: Person;
		/** The nodes of one execution, `ran` in the order n8n ran them: each sets after the ones before it. */
		inOrder?: boolean;
		/** Violations the step's own checks found (counted, and stopping a shrink, with the rest). */
		alsoFound?: Violation[];
	} = {},
): Promise<void> {
	const step = real.steps;
	const violations: Violation[] = [...alsoFound];
	const answersOf = new Map<Ran, Array<Answer | undefined>>();
	const truthBefore = before ?? model.truth;
	const effects = ran.flatMap((entry) => {
		const { plan, label, result } = entry;
		const node = NODES[plan.node];
		// On Error "Stop Workflow": the node stopping the workflow is what it is asked to do; else the run must not stop.
		const stopped = plan.stopWorkflow === true && result.error !== undefined;
		if (result.error && !stopped)
			violations.push({ kind: 'run', message: `${label}the run stopped: ${result.error.message}` });
		const field = wordsField(plan.rows);
		const output = ofInputItems(answersAcrossRuns(result, node.name, 0, field), entry.inputItems, field);
		// n8n's store failed no call here unless a crash was staged: the run must not fail on it (another
		// run creating or writing the store at the same moment is no failure).
		const storeFailed = output.filter(({ json }) => JSON.stringify(json).includes(STORE_UNREADABLE));
		if (plan.crash === undefined && storeFailed.length > 0)
			violations.push({
				kind: 'store',
				message: `${label}${storeFailed.length} items failed on n8n's store: ${JSON.stringify(storeFailed[0].json)}`,
			});
		const answers: Array<Answer | undefined> = readAnswers(
			plan.items,
			output,
			violations,
			// The nodes' words: a newsletter node says the state it set, an attribute sync "updated".
			isNewsletter(plan.node) ? (intent) => intent.sets[GROUP] : () => 'updated',
			entry.rows ?? plan.items.map((item) => itemJson(plan, item)),
			field,
			stopped,
		);
		answersOf.set(entry, answers);
		if (plan.volatile) checkVolatileNeverUnchanged(plan, label, answers, violations);
		// A stopped execution about to be retried: its answers are tallied once, from the retry's.
		if (!stoppedOnly)
			for (const answer of answers) {
				const name = stopped && !answer ? 'none (the workflow stopped)' : tallyName(answer);
				real.answers[name] = (real.answers[name] ?? 0) + 1;
				if (answer?.refused) real.refused++;
			}
		const shape = shapeOf(plan, label);
		if (shape.ignoresUnknown)
			real.ignored += plan.items.filter(
				({ user }) => !profileOf(real.states[plan.workspace], user, 'external_id'),
			).length;
		// Nodes run one after the other meet only the ones before them; runs at once, each other.
		const others = inOrder ? ran.slice(0, ran.indexOf(entry)) : ran.filter((other) => other.plan !== plan);
		checkUnchangedWasHeld(
			truthBefore,
			shape,
			plan.items,
			answers,
			runOfNodeOf(plan),
			(user, piece, value) =>
				others.some(
					({ plan: other }) =>
						other.workspace === plan.workspace &&
						other.identifyBy === plan.identifyBy &&
						other.items.some((item) => item.user === user && item.sets[piece] === value),
				),
			violations,
		);
		if (entry.chain) checkNothingAcceptedSentAgain(label, plan, entry.chain.requests, violations);
		// A group state an earlier try had accepted for a customer with no profile yet was ignored then and
		// is not sent again: once the customer signs up between the tries it is in doubt, as with another
		// run creating the profile at the same time.
		const profiles = (profilesBefore ?? real.states)[plan.workspace];
		return effectsOf(
			model.truth,
			shape,
			plan.items,
			answers,
			profiles,
			(user) => user === signedUpMeanwhile || others.some((other) => mayCreateFor(plan, other.plan)(user)),
		);
	});
	checkFreshness(real, ran, answersOf, violations);
	const setters = learn(inOrder ? inExecutionOrder(effects) : effects);
	real.states = await Promise.all(real.workspaces.map(async ({ client }) => await client.state()));
	for (const index of WORKSPACES) compareWithPlatform(model.truth, index, real.states[index], setters, violations);
	// Two runs at once may leave either one's values.
	// Two runs at once may leave either one's values; nodes one after the other, the last one's.
	const lastVolatile = (inOrder ? ran : ran.length === 1 ? ran : []).filter(({ plan }) => plan.volatile).at(-1);
	if (lastVolatile) checkAnsweredAsHeld(lastVolatile, real.states, violations);
	model.runs += ran.length;
	real.violations.push(...violations.map((violation) => ({ ...violation, step })));
	const stopping = real.stopAt ? violations.filter(real.stopAt) : [];
	if (stopping.length > 0) throw new Error(`step ${step}: ${stopping.map(({ message }) => message).join('; ')}`);
}

/**
 * A node's answers paired with its own items: a node given some of the workflow's items (an IF's branch)
 * answers them by the workflow's index, renumbered here (and `replacedBy` in its words) by their place
 * among the node's; an answer for an item it was not given keeps an index no item of it has.
 */
function ofInputItems(output: INodeExecutionData[], inputItems: number[] | undefined, field: string) {
	if (!inputItems) return output;
	const place = (index: unknown) =>
		typeof index === 'number' && inputItems.includes(index) ? inputItems.indexOf(index) : -1;
	return output.map((answer) => {
		const words = wordsOf(answer.json, field);
		const json =
			typeof words.replacedBy === 'number'
				? { ...answer.json, [field]: { ...words, replacedBy: place(words.replacedBy) } }
				: answer.json;
		return { ...answer, json, pairedItem: { item: place((answer.pairedItem as { item?: unknown }).item) } };
	});
}

/**
 * A volatile plan's values are never held, so the item that sends its customer's (their last in its
 * run of the node: each part goes with its last word) is sent whenever its run sends it, with Send
 * Only Changes as its changed parts when the rest is held: answered "updated" with those listed
 * `unchanged`, never "unchanged". An earlier item of the customer leaves them to it and may be.
 */
function checkVolatileNeverUnchanged(
	plan: RunPlan,
	label: string,
	answers: Array<Answer | undefined>,
	violations: Violation[],
): void {
	const runOfNode = runOfNodeOf(plan);
	plan.items.forEach(({ user }, index) => {
		const sendsVolatile = !plan.items.some(
			(later, at) => at > index && runOfNode(at) === runOfNode(index) && later.user === user,
		);
		if (sendsVolatile && answers[index]?.status === 'unchanged')
			violations.push({
				kind: 'volatile unchanged',
				message: `${label}item ${index} (${user}) is answered "unchanged", yet its ${VOLATILE_KEYS.join(' and ')} change on every evaluation: the platform cannot hold them already`,
			});
	});
}

/**
 * The customer's last item in a volatile run, answered "updated" (not in doubt), shows in `sent` the
 * volatile values the platform holds: a try, or a retry from saved data, answers an item an earlier try
 * got accepted with the values that try sent, not with what it evaluates now.
 */
function checkAnsweredAsHeld(
	{ plan, label, result, inputItems }: Ran,
	states: StateView[],
	violations: Violation[],
): void {
	const field = wordsField(plan.rows);
	const output = ofInputItems(answersAcrossRuns(result, NODES[plan.node].name, 0, field), inputItems, field);
	const lastItems = new Set(plan.items.map(({ user }) => sendingVolatile(plan, contactOf(plan, user))));
	for (const index of lastItems) {
		const entries = output.filter(({ pairedItem }) => (pairedItem as { item?: number } | undefined)?.item === index);
		if (entries.length !== 1) continue;
		const words = wordsOf(entries[0].json, field);
		if (words.status !== 'updated' || (Array.isArray(words.warnings) && words.warnings.length > 0)) continue;
		const { user } = plan.items[index];
		const held = profileOf(states[plan.workspace], user, plan.identifyBy)?.custom_attributes ?? {};
		const sent = (words.sent ?? {}) as IDataObject;
		const differing = VOLATILE_KEYS.filter((key) => !isDeepStrictEqual(sent[key], held[key]));
		if (differing.length > 0)
			violations.push({
				kind: 'answered otherwise',
				message: `${label}item ${index} (${user}) is answered "updated" with ${differing.map((key) => `${key} ${JSON.stringify(sent[key])}`).join(', ')}, and the platform holds ${differing.map((key) => JSON.stringify(held[key])).join(', ')}`,
			});
	}
}

/**
 * What a request set, by contact and piece (`u1 tier="gold"`, `u1@shop.example newsletter=subscribed`,
 * a volatile value by the item that sends it: `u1 synced_at of item 3`), and which of those the platform
 * accepted: answered 2xx as the platform answers (no fault but a slow answer or headers over it), less
 * the objects its answer refused.
 */
function piecesOfRequest(request: RecordedRequest, plan: RunPlan): { sent: string[]; accepted: string[] } {
	const objects = objectsOfRequest(request).map(({ who, keys, volatile, accepted }) => ({
		keys: [...keys, ...volatile.map((key) => `${who} ${key} of item ${sendingVolatile(plan, who)}`)],
		accepted,
	}));
	return {
		sent: objects.flatMap(({ keys }) => keys),
		accepted: objects.filter(({ accepted }) => accepted).flatMap(({ keys }) => keys),
	};
}

/**
 * The item that sends a customer's volatile values in a run of the node once: the customer's last
 * (every item sets them, and each part goes with its last word).
 */
function sendingVolatile(plan: RunPlan, who: string): number {
	return plan.items.map(({ user }) => contactOf(plan, user)).lastIndexOf(who);
}

/**
 * A request's objects (an attribute object; a group element of the subscription endpoint), each with
 * the customer it names, its pieces, and the volatile keys it carries.
 */
function objectsOfRequest(
	request: RecordedRequest,
): Array<{ who: string; keys: string[]; volatile: string[]; accepted: boolean }> {
	const body = (request.body ?? {}) as IDataObject;
	const response = (request.response ?? {}) as IDataObject;
	const list = (value: unknown) => (Array.isArray(value) ? (value as IDataObject[]) : []);
	const took =
		request.status >= 200 &&
		request.status < 300 &&
		(request.fault === undefined || request.fault === 'slow' || request.fault === 'headers');
	if (request.path === '/users/track') {
		const refused = new Set(
			list(response.errors)
				.filter((error) => error.input_array === 'attributes')
				.map((error) => Number(error.index)),
		);
		return list(body.attributes).map((object, index) => {
			const who = String(object.external_id ?? object.email);
			const keys: string[] = [];
			const volatile: string[] = [];
			for (const [key, value] of Object.entries(object)) {
				if (key === 'external_id' || key === 'email' || key === '_update_existing_only') continue;
				if (key === 'subscription_groups')
					for (const group of list(value))
						keys.push(`${who} ${String(group.subscription_group_id)}=${String(group.subscription_state)}`);
				else if (VOLATILE_KEYS.includes(key)) volatile.push(key);
				else keys.push(`${who} ${key}=${JSON.stringify(value)}`);
			}
			return { who, keys, volatile, accepted: took && !refused.has(index) };
		});
	}
	return list(body.subscription_groups).map((group) => {
		const users = [...list(group.external_ids), ...list(group.emails)] as unknown as string[];
		const keys = users.map(
			(who) => `${who} ${String(group.subscription_group_id)}=${String(group.subscription_state)}`,
		);
		return { who: users.join(', '), keys, volatile: [], accepted: took };
	});
}

/**
 * Nothing the platform accepted is sent again by the same run of the node: not by its own resends, not
 * by a try of Retry On Fail, not by *Executions → Retry* from the saved data (the earlier try's pieces
 * are answered as then). A run of the node sends each contact's piece once (the last word), so a piece
 * sent after the platform accepted it is sent twice. A volatile value is known by the item that sends it
 * (`piecesOfRequest`), not by its value, which a later try evaluates anew: an item sent again with its
 * other pieces left out as unchanged is found too. `requests`: the run's, over its executions.
 */
function checkNothingAcceptedSentAgain(
	label: string,
	plan: RunPlan,
	requests: RecordedRequest[],
	violations: Violation[],
): void {
	const accepted = new Map<string, number>();
	for (const request of [...requests].sort((a, b) => a.seq - b.seq)) {
		const { sent, accepted: took } = piecesOfRequest(request, plan);
		for (const key of new Set(sent))
			if (accepted.has(key))
				violations.push({
					kind: 'sent again',
					message: `${label}request ${request.seq} sent ${key} again, which the platform had accepted in request ${accepted.get(key)} of the same run`,
				});
		for (const key of took) if (!accepted.has(key)) accepted.set(key, request.seq);
	}
}

/** The requests on a path since `seq`. */
export async function requestsSince(workspace: Workspace, path: string, seq: number): Promise<RecordedRequest[]> {
	return (await workspace.client.requests({ path })).filter((request) => request.seq > seq);
}

export async function lastSeq(workspace: Workspace): Promise<number> {
	return Math.max(0, ...(await workspace.client.requests()).map((request) => request.seq));
}

/**
 * Runs one plan: the fault first, the workflow, then its answers checked and the truth compared with
 * both workspaces. `gapHours`: the time since the last step, where it is not the schedule's (a webhook
 * delivered again).
 */
async function runPlan(
	plan: RunPlan,
	model: SequenceModel,
	real: SequenceReal,
	description: string,
	gapHours?: number,
): Promise<void> {
	const step = beginStep(real, gapHours);
	real.plans.push({ plan, label: `step ${step}` });
	real.log.push(description);
	const workspace = real.workspaces[plan.workspace];
	const path = pathOf(plan);
	const watched = triedAgainMaybe(plan);
	const seq = watched || plan.stopWorkflow ? await lastSeq(workspace) : 0;
	await injectFault(plan, real, workspace);
	const result = await execute(plan, real);
	if (plan.fault) await drainFaults(workspace, path);
	const requests = watched || plan.stopWorkflow ? await requestsSince(workspace, path, seq) : undefined;
	const chain = watched && requests ? { requests } : undefined;
	await settleStep(model, real, [{ plan, label: '', result, chain, stepRequests: requests }]);
}

/**
 * Whether n8n may run the plan's run of the node again in its execution (Retry On Fail, or a retry from
 * saved data of a run it stops), and its requests are watched for a piece sent again: where it runs once.
 */
const triedAgainMaybe = (plan: RunPlan) =>
	(plan.retryOnFail !== undefined || plan.stopWorkflow === true) && shapeOfNodeRuns(plan).kind === 'once';

export async function injectFault(plan: RunPlan, real: SequenceReal, workspace: Workspace): Promise<void> {
	if (!plan.fault) return;
	real.faults++;
	if (plan.fault.kind === 'unplaced-error') real.unplacedErrors++;
	await workspace.client.injectFaults([faultRule(pathOf(plan), plan.fault)]);
}

/** A run of its own items and settings. */
export class WorkflowRun implements Command {
	constructor(readonly plan: RunPlan) {}

	check(): boolean {
		return true;
	}

	async run(model: SequenceModel, real: SequenceReal): Promise<void> {
		await runPlan(this.plan, model, real, this.toString());
	}

	toString(): string {
		return describePlan(this.plan);
	}
}

/** How a nightly sync runs again: the same rows as an earlier run, with Send Only Changes on. */
export interface RepeatPlan {
	/** 0: the last run, 1: the one before, ... (the first run when there are fewer) */
	back: number;
	/** The credential switched to the other workspace. */
	otherWorkspace: boolean;
	/** An attribute sync's rows run by the other attribute node. */
	otherNode: boolean;
	/** Dropped when the rows are a newsletter run's and the fault is an unplaced error. */
	fault?: Fault;
	crash?: 2 | 3;
}

export const repeatRun: fc.Arbitrary<RepeatPlan> = fc.record({
	back: weighted([0, 3], [1, 2], [2, 1]),
	otherWorkspace: weighted([false, 3], [true, 1]),
	otherNode: weighted([false, 3], [true, 1]),
	fault: trackFault,
	crash,
});

/** An earlier run's rows again, with Send Only Changes on: most of them are what was sent last time. */
export class RepeatRun implements Command {
	constructor(readonly repeat: RepeatPlan) {}

	check(model: SequenceModel): boolean {
		return model.runs > 0;
	}

	async run(model: SequenceModel, real: SequenceReal): Promise<void> {
		const { back, otherWorkspace, otherNode, fault: repeatFault, crash: repeatCrash } = this.repeat;
		const at = Math.max(0, real.plans.length - 1 - back);
		const { plan: earlier, label } = real.plans[at];
		const node: NodeKey =
			otherNode && !isNewsletter(earlier.node) ? (earlier.node === 'crm' ? 'webForm' : 'crm') : earlier.node;
		const workspace: WorkspaceIndex = otherWorkspace ? (earlier.workspace === 0 ? 1 : 0) : earlier.workspace;
		const fault = isNewsletter(node) && repeatFault?.kind === 'unplaced-error' ? undefined : repeatFault;
		const plan: RunPlan = { ...earlier, node, workspace, sendOnlyChanges: true, fault, crash: repeatCrash };
		await runPlan(plan, model, real, `again the rows of ${label}: ${describePlan(plan)}`);
	}

	toString(): string {
		const { back, otherWorkspace, otherNode, fault: repeatFault, crash: repeatCrash } = this.repeat;
		return `again the rows of ${back === 0 ? 'the last run' : `${back + 1} runs back`}${otherWorkspace ? ', other workspace' : ''}${otherNode ? ', other node' : ''}${repeatFault ? `, ${faultName(repeatFault)}` : ''}${repeatCrash ? `, n8n's store gone after ${repeatCrash} checks` : ''}`;
	}
}

/**
 * Two runs of the workflow at once (a manual run while the nightly one is still sending). The first
 * one's first request is slowed down, or answered 503 and resent after a pause, so that the other's
 * requests land meanwhile; the second starts `gapMs` after the first. Each call either makes to
 * n8n's store takes `roundTripMs` between its read and its write (0: a turn of the event loop), or with
 * `spread` (a seed) a time of its own between that and twice that.
 */
export interface OverlapPlan {
	first: RunPlan;
	second: RunPlan;
	/** A webhook delivered twice at once: the second run is the first's items and settings again. */
	twice?: boolean;
	hold: 'slow' | '503';
	delayMs: number;
	gapMs: number;
	roundTripMs: 0 | 1 | 3;
	spread?: number;
}

/** Neither run has a fault of its own nor a crash (n8n's store is watched instead); Send Only Changes mostly on. */
const alone = (plan: RunPlan, sendOnlyChanges: boolean): RunPlan => ({
	...plan,
	sendOnlyChanges,
	fault: undefined,
	crash: undefined,
});

export const overlapRuns = (maxItems: number): fc.Arbitrary<OverlapPlan> =>
	fc
		.record({
			first: fc.oneof(attributeSync(maxItems), newsletterRun(maxItems)),
			second: fc.oneof(attributeSync(maxItems), newsletterRun(maxItems)),
			sameWorkspace: weighted([true, 4], [false, 1]),
			sendOnlyChanges: fc.tuple(weighted([true, 3], [false, 1]), weighted([true, 3], [false, 1])),
			hold: fc.constantFrom<OverlapPlan['hold']>('slow', '503'),
			delayMs: fc.integer({ min: 5, max: 40 }),
			gapMs: fc.constantFrom(0, 2, 10),
			roundTripMs: fc.constantFrom<OverlapPlan['roundTripMs']>(0, 1, 3),
			spread: often(fc.nat()),
			twice: weighted([false, 3], [true, 1]),
		})
		.map(({ first, second, sameWorkspace, sendOnlyChanges: [firstSends, secondSends], twice, ...rest }) => ({
			first: alone(first, firstSends),
			second: twice
				? alone(first, firstSends)
				: alone(sameWorkspace ? { ...second, workspace: first.workspace } : second, secondSends),
			...(twice && { twice }),
			...rest,
		}));

export class OverlappingRuns implements Command {
	constructor(readonly overlap: OverlapPlan) {}

	check(): boolean {
		return true;
	}

	async run(model: SequenceModel, real: SequenceReal): Promise<void> {
		const { first, second, hold, delayMs, gapMs, roundTripMs, spread } = this.overlap;
		const step = beginStep(real);
		real.overlaps++;
		if (this.overlap.twice) real.webhooksTwiceAtOnce++;
		real.plans.push({ plan: first, label: `step ${step}a` }, { plan: second, label: `step ${step}b` });
		real.log.push(this.toString());
		const workspace = real.workspaces[first.workspace];
		const path = pathOf(first);
		await workspace.client.injectFaults([
			faultRule(path, { kind: hold === '503' ? 'status' : 'slow', times: 1 }, delayMs),
		]);
		// Each call to n8n's store, by run: watched, never failed; read and written as n8n's are at once.
		const calls: string[] = [];
		store.failWhen = () => {
			calls.push(runOfCall.getStore() ?? '');
			return false;
		};
		store.race = raceWithRoundTrips(roundTripMs, 'postgres', spread);
		const raced = { ...store.raced };
		let results: RunResult[];
		try {
			results = await Promise.all([
				execute(first, real, 'a'),
				(async () => {
					if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
					return await execute(second, real, 'b');
				})(),
			]);
		} finally {
			store.failWhen = undefined;
			store.race = undefined;
		}
		real.creationRaces += store.raced.duplicateKeys - raced.duplicateKeys;
		real.overwrites += store.raced.overwrites - raced.overwrites;
		const [a, b] = [calls.indexOf('a'), calls.indexOf('b')];
		if (a !== -1 && b !== -1 && (a < b ? calls.lastIndexOf('a') > b : calls.lastIndexOf('b') > a))
			real.overlapsInterleaved++;
		await drainFaults(workspace, path);
		await settleStep(model, real, [
			{ plan: first, label: `run ${step}a `, result: results[0] },
			{ plan: second, label: `run ${step}b `, result: results[1] },
		]);
	}

	toString(): string {
		const { first, second, hold, delayMs, gapMs, roundTripMs, spread } = this.overlap;
		const roundTrip =
			roundTripMs === 0
				? 'a tick'
				: spread === undefined
					? `${roundTripMs} ms`
					: `${roundTripMs}–${2 * roundTripMs} ms (spread ${spread})`;
		return `${this.overlap.twice ? 'a webhook delivered twice at once: ' : ''}two runs at once (the first's first request ${hold === '503' ? 'answered 503' : `slowed ${delayMs} ms`}, the second starting ${gapMs} ms later, n8n's store calls reading and writing ${roundTrip} apart): a: ${describePlan(first)} | b: ${describePlan(second)}`;
	}
}

/** The newcomer signs up in a workspace (is seeded with external ID and email), unless a profile finds them already. */
class SignUp implements Command {
	constructor(readonly workspace: WorkspaceIndex) {}

	check(): boolean {
		return true;
	}

	async run(model: SequenceModel, real: SequenceReal): Promise<void> {
		beginStep(real);
		const signed = await signUpIfNew(model, real, this.workspace);
		real.log.push(`${this.toString()}${signed ? '' : `: a profile finds ${NEWCOMER} already, so no sign-up`}`);
	}

	toString(): string {
		return `${NEWCOMER} signs up in the ${workspaceName(this.workspace)} workspace`;
	}
}

/** The newcomer signs up in the workspace, unless a profile finds them already; whether they did. */
async function signUpIfNew(model: SequenceModel, real: SequenceReal, index: WorkspaceIndex): Promise<boolean> {
	const before = real.states[index];
	if (profileOf(before, NEWCOMER, 'external_id') || profileOf(before, NEWCOMER, 'email')) return false;
	real.signUps++;
	const workspace = real.workspaces[index];
	await signUp(workspace, NEWCOMER);
	real.states[index] = await workspace.client.state();
	signedUp(model.truth, index, real.states[index], NEWCOMER);
	return true;
}

export const signUpStep: fc.Arbitrary<Command> = weighted<WorkspaceIndex>([0, 3], [1, 1]).map(
	(workspace) => new SignUp(workspace),
);

// ---- run again -----------------------------------------------------------------------------------

/** *Executions → Retry* of a run the node stopped. */
interface RetryPlan {
	/** How many times the marketer retries it, each only while the last one stopped. */
	times: 1 | 2;
	/** Before each retry the cause is removed: the newcomer signs up, the fault is gone. */
	causeRemoved: boolean;
	/** Retried with the currently saved workflow, which differs only where the items send the same. */
	currentWorkflow: boolean;
}

export interface RetriedPlan {
	plan: RunPlan;
	retry: RetryPlan;
}

/**
 * A run with On Error "Stop Workflow" that may stop: an attribute sync with an Update Existing Only item
 * for the newcomer (refused while no profile finds them), or a fault on every attempt of its first
 * request (a 400, a 503, a reset before or after the platform acted), or both.
 */
export const retriedRun = (maxItems: number): fc.Arbitrary<RetriedPlan> =>
	fc
		.record({
			base: fc.oneof(attributeSync(maxItems), attributeSync(maxItems), newsletterRun(maxItems)),
			cause: weighted<'refused' | 'fault' | 'both'>(['refused', 2], ['fault', 2], ['both', 1]),
			// A 400: refused, applied nothing, so a retry gets past it once it is gone; a 503 or a reset on
			// every attempt leaves its items in doubt, which every retry answers so again.
			fault: weighted<FaultKind>(['refused', 3], ['status', 1], ['reset-before', 1], ['reset-after', 1]).map(
				(kind): Fault => ({ kind, times: kind === 'refused' ? 1 : 4 }),
			),
			at: fc.nat({ max: maxItems }),
			tier: valueOf('tier'),
			retry: fc.record({
				times: weighted<1 | 2>([1, 3], [2, 1]),
				causeRemoved: weighted([true, 3], [false, 1]),
				currentWorkflow: fc.boolean(),
			}),
		})
		.map(({ base, cause, fault, at, tier, retry }) => {
			const refused = !isNewsletter(base.node) && cause !== 'fault';
			const items = [...base.items];
			if (refused) items.splice(Math.min(at, items.length), 0, { user: NEWCOMER, sets: { tier }, updateOnly: true });
			return {
				plan: {
					...base,
					items,
					stopWorkflow: true,
					crash: undefined,
					fault: refused && cause === 'refused' ? undefined : fault,
				},
				retry,
			};
		});

export class RetriedExecution implements Command {
	constructor(readonly retried: RetriedPlan) {}

	check(): boolean {
		return true;
	}

	async run(model: SequenceModel, real: SequenceReal): Promise<void> {
		const { plan, retry } = this.retried;
		const step = beginStep(real);
		real.plans.push({ plan, label: `step ${step}` });
		real.log.push(this.toString());
		const workspace = real.workspaces[plan.workspace];
		const path = pathOf(plan);
		// The truth before the step: what an item answered "unchanged" must have been held already.
		const before = structuredClone(model.truth);
		const profilesBefore = structuredClone(real.states);
		let signedUpMeanwhile: Person | undefined;
		const watched = triedAgainMaybe(plan);
		const seq = await lastSeq(workspace);
		await injectFault(plan, real, workspace);
		const executions = [await execute(plan, real)];
		if (plan.fault) await drainFaults(workspace, path);
		if (executions[0].error) {
			real.stoppedRuns++;
			// Stopped: what its stopped run set is in doubt until the retry answers it; the rest holds.
			const stepRequests = await requestsSince(workspace, path, seq);
			await settleStep(model, real, [{ plan, label: 'the stopped execution: ', result: executions[0], stepRequests }], {
				stoppedOnly: true,
			});
			const done: string[] = [];
			while (executions.length <= retry.times && executions[executions.length - 1].error) {
				if (retry.causeRemoved) {
					const signed = await signUpIfNew(model, real, plan.workspace);
					if (signed) signedUpMeanwhile = NEWCOMER;
					done.push(signed ? `${NEWCOMER} signed up` : plan.fault ? 'the fault gone' : 'nothing to remove');
				} else await injectFault(plan, real, workspace);
				executions.push(
					await execute(plan, real, '', {
						failed: executions[executions.length - 1],
						currentWorkflow: retry.currentWorkflow,
					}),
				);
				if (plan.fault) await drainFaults(workspace, path);
				real.retried++;
				if (retry.currentWorkflow) real.retriedWithCurrentWorkflow++;
			}
			const last = executions[executions.length - 1];
			if (last.error) real.stillStopped++;
			real.log[real.log.length - 1] +=
				` → stopped; retried ${executions.length - 1} time(s)${done.length > 0 ? ` (${done.join(', ')})` : ''}${last.error ? ', still stopped' : ''}`;
		}
		const requests = await requestsSince(workspace, path, seq);
		const chain = watched ? { requests } : undefined;
		const result = executions[executions.length - 1];
		await settleStep(model, real, [{ plan, label: '', result, chain, stepRequests: requests }], {
			before,
			...(signedUpMeanwhile ? { profilesBefore, signedUpMeanwhile } : {}),
		});
	}

	toString(): string {
		const { plan, retry } = this.retried;
		return `${describePlan(plan)}; if stopped, Executions → Retry${retry.times > 1 ? ' up to twice' : ''} with the ${retry.currentWorkflow ? 'current' : 'saved'} workflow, ${retry.causeRemoved ? 'the cause removed first' : 'the cause still there'}`;
	}
}

/** The step re-run: an earlier run's plan and items exactly, as a new execution, meeting a fault of its own. */
export interface RerunPlan {
	/** 0: the last run, 1: the one before, ... (the first run when there are fewer) */
	back: number;
	fault?: Fault;
}

export const rerunPlan: fc.Arbitrary<RerunPlan> = fc.record({
	back: weighted([0, 3], [1, 2], [2, 1]),
	fault: faultOf(BASE_FAULTS),
});

export class RerunStep implements Command {
	constructor(readonly rerun: RerunPlan) {}

	check(model: SequenceModel): boolean {
		return model.runs > 0;
	}

	async run(model: SequenceModel, real: SequenceReal): Promise<void> {
		const at = Math.max(0, real.plans.length - 1 - this.rerun.back);
		const { plan: earlier, label } = real.plans[at];
		const plan: RunPlan = { ...earlier, fault: this.rerun.fault, crash: undefined };
		real.rerunSteps++;
		await runPlan(plan, model, real, `${label} re-run as a new execution: ${describePlan(plan)}`);
	}

	toString(): string {
		return `the step re-run (${this.rerun.back === 0 ? 'the last run' : `${this.rerun.back + 1} runs back`})${this.rerun.fault ? `, ${faultName(this.rerun.fault)}` : ''}`;
	}
}

/** A webhook delivered twice, one delivery a few minutes after the other: the same items as two executions. */
export interface WebhookTwicePlan {
	plan: RunPlan;
	/** A fault the second delivery meets. */
	secondFault?: Fault;
}

export const webhookTwice = (maxItems: number): fc.Arbitrary<WebhookTwicePlan> =>
	fc.record({
		plan: fc.oneof(attributeSync(maxItems), newsletterRun(maxItems)).map((plan) => ({ ...plan, crash: undefined })),
		secondFault: faultOf(BASE_FAULTS),
	});

export class WebhookTwice implements Command {
	constructor(readonly twice: WebhookTwicePlan) {}

	check(): boolean {
		return true;
	}

	async run(model: SequenceModel, real: SequenceReal): Promise<void> {
		const { plan, secondFault } = this.twice;
		real.webhooksTwice++;
		await runPlan(plan, model, real, `a webhook: ${describePlan(plan)}`);
		const again = { ...plan, fault: secondFault };
		await runPlan(again, model, real, `the same webhook again: ${describePlan(again)}`, 0.05);
	}

	toString(): string {
		return `a webhook delivered twice: ${describePlan(this.twice.plan)}${this.twice.secondFault ? `; the second meets ${faultName(this.twice.secondFault)}` : ''}`;
	}
}
