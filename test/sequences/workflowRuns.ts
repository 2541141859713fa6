/**
 * The steps a sequence is made of. Most are one execution of a saved workflow in n8n's real engine:
 * an attribute sync by one of two User nodes, or a newsletter opt-in/out by the Subscription node,
 * against the workspace the workflow's credential points at, sometimes with the platform stumbling on
 * the run's first request(s), or n8n's database going away before the run could record its end. The
 * others: two runs of the workflow at once (a manual run during the nightly one), and the newcomer
 * signing up in a workspace. While two runs overlap, n8n's store behaves as n8n's does under
 * concurrency: each call reads the row, waits a database round trip, then inserts or writes it back
 * whole (test/harness/deduplicationStore.ts, StoreRace).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEMO_API_KEY } from '../../sandbox';
import type { FaultRule, StateView } from '../../sandbox/adminApiTypes';
import type { RunResult } from '../harness';
import { runWorkflow } from '../harness';
import { moveClockBy, virtualNow } from './virtualClock';
import { deduplicationStore, raceWithRoundTrips } from '../harness/deduplicationStore';
import { answersAcrossRuns, shapedWorkflow } from '../support/nodeShapes';
import { SUBSCRIPTION_NODE, USER_NODE } from '../support/nodeTypes';
import type { Answer, ItemIntent, PieceName, RunShape, Truth, Violation } from './platformTruth';
import {
	compareWithPlatform,
	effectsOf,
	GROUP,
	learn,
	PIECES,
	profileOf,
	readAnswers,
	signedUp,
	tallyName,
} from './platformTruth';
import type { Person, Workspace, WorkspaceIndex } from './workspaces';
import { emailOf, NEWCOMER, signUp, WORKSPACES, workspaceName } from './workspaces';

/** The workflow's nodes: two attribute syncs and a newsletter node, each keeping its id from run to run. */
const NODES = {
	crm: { id: '5eed0000-0000-4000-8000-00000000000a', name: 'Sync CRM Attributes', type: USER_NODE },
	webForm: { id: '5eed0000-0000-4000-8000-00000000000b', name: 'Sync Web Form Attributes', type: USER_NODE },
	newsletter: { id: '5eed0000-0000-4000-8000-00000000000c', name: 'Newsletter Opt-In', type: SUBSCRIPTION_NODE },
} as const;
type NodeKey = keyof typeof NODES;

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
type FaultKind = 'status' | 'reset-before' | 'reset-after' | 'slow' | 'unplaced-error';
/** One fault rule on the run's path, for its first `times` requests (4: every attempt of one request). */
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

/** A step begins: the clock moves on by the schedule's gap before it. */
function beginStep(real: SequenceReal): number {
	const step = ++real.steps;
	moveClockBy((real.schedule?.gapsHours[step - 1] ?? 0) * HOUR_MS);
	real.stepStartedAt = virtualNow();
	return step;
}

const DAY_MS = 24 * HOUR_MS;
/** The node reads the clock a few milliseconds after the step begins: a minute of slack either way. */
const CLOCK_SLACK_MS = 60_000;

/**
 * Resend Everything Every (Days), per contact: an attribute object answered "unchanged" was last
 * accepted from this workflow, for that workspace and identifier, less than that many days before.
 * Checked before the step's own acceptances are learnt (the run decided what to leave out first).
 */
function checkFreshness(
	real: SequenceReal,
	ran: Ran[],
	answersOf: Map<Ran, Array<Answer | undefined>>,
	violations: Violation[],
): void {
	const everyDays = real.schedule?.resendEveryDays ?? 0;
	const keyOf = (plan: RunPlan, user: Person) => `${plan.workspace} ${plan.identifyBy} ${user}`;
	const attributeRuns = ran.filter(({ plan }) => plan.node !== 'newsletter');
	const acceptedNow = new Set<string>();
	for (const entry of attributeRuns)
		entry.plan.items.forEach((item, index) => {
			const answer = answersOf.get(entry)?.[index];
			if (answer?.status === 'applied' && !answer.warned) acceptedNow.add(keyOf(entry.plan, item.user));
		});
	for (const entry of attributeRuns) {
		entry.plan.items.forEach((item, index) => {
			if (everyDays === 0 || answersOf.get(entry)?.[index]?.status !== 'unchanged') return;
			const key = keyOf(entry.plan, item.user);
			// Accepted in this step: by an earlier run of the node (merged branches) or the overlapping run.
			if (acceptedNow.has(key)) return;
			const last = real.lastAccepted.get(key);
			const age = last === undefined ? undefined : real.stepStartedAt - last;
			if (age === undefined || age > everyDays * DAY_MS + CLOCK_SLACK_MS)
				violations.push({
					kind: 'stale',
					message: `${entry.label}item ${index} (${item.user}) is answered "unchanged", and its attributes were last accepted ${age === undefined ? 'never' : `${(age / DAY_MS).toFixed(2)} days`} before, past Resend Everything Every ${everyDays} days`,
				});
		});
	}
	for (const key of acceptedNow) real.lastAccepted.set(key, real.stepStartedAt);
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
const weighted = <T>(...choices: Array<[T, number]>): fc.Arbitrary<T> =>
	fc.oneof({ withCrossShrink: true }, ...choices.map(([value, weight]) => ({ arbitrary: fc.constant(value), weight })));
/** Absent three times in four: shrinks to absent. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
	fc.oneof({ withCrossShrink: true }, { arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary, weight: 1 });
/** Absent half the time: shrinks to absent. */
const often = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
	fc.option(arbitrary, { nil: undefined, freq: 2 });

const person = weighted<Person>(['u1', 3], ['u2', 3], ['u3', 3], [NEWCOMER, 2]);
const valueOf = (piece: PieceName) => fc.constantFrom(...VALUES[piece]);

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

const faultOf = (kinds: FaultKind[]): fc.Arbitrary<Fault | undefined> =>
	rarely(fc.record({ kind: fc.constantFrom(...kinds), times: weighted<1 | 4>([1, 3], [4, 1]) }));
const BASE_FAULTS: FaultKind[] = ['status', 'reset-after', 'reset-before', 'slow'];
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

/** The item with the first item's state: a run Subscribe or Unsubscribe makes of the same rows. */
const stateOf =
	(first: ItemIntent) =>
	(item: ItemIntent): ItemIntent => ({ ...item, sets: { [GROUP]: first.sets[GROUP] } });

// ---- description -------------------------------------------------------------------------------

const faultName = ({ kind, times }: Fault) => `fault ${kind === 'status' ? '503' : kind}×${times}`;

export function describePlan(plan: RunPlan): string {
	const settings = [
		NODES[plan.node].name,
		...(plan.oneState ? [plan.items[0].sets[GROUP] === 'subscribed' ? 'Subscribe' : 'Unsubscribe'] : []),
		`${workspaceName(plan.workspace)} workspace`,
		`by ${plan.identifyBy}`,
		plan.sendOnlyChanges && offersSendOnlyChanges(plan) ? 'Send Only Changes' : 'sends all',
		...(plan.batchSize !== undefined ? [`batch ${plan.batchSize}`] : []),
		`parallel ${plan.parallelRequests}`,
		...(plan.fault ? [faultName(plan.fault)] : []),
		...(plan.crash ? [`n8n's store gone after ${plan.crash} checks`] : []),
		...(plan.runsOfNode ? [`the node run ${plan.runsOfNode} times (merged branches)`] : []),
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
const offersSendOnlyChanges = (plan: RunPlan) => plan.node !== 'newsletter';

// ---- running -----------------------------------------------------------------------------------

const store = deduplicationStore();
/** Which run of an overlap a call to n8n's store comes from. */
const runOfCall = new AsyncLocalStorage<string>();

function itemJson(plan: RunPlan, { user: who, sets, updateOnly }: ItemIntent): IDataObject {
	const base = { id: who, email: emailOf(who) };
	if (plan.node === 'newsletter') return { ...base, group: GROUP, state: sets[GROUP] };
	const attrs: IDataObject = {};
	if (sets.tier !== undefined) attrs.tier = sets.tier;
	if (sets.city !== undefined) attrs.city = sets.city;
	if (sets.email_subscribe !== undefined) attrs.email_subscribe = sets.email_subscribe;
	if (sets[GROUP] !== undefined)
		attrs.subscription_groups = [{ subscription_group_id: GROUP, subscription_state: sets[GROUP] }];
	return { ...base, attrs, ...(updateOnly && { updateOnly }) };
}

function parameters(plan: RunPlan, resendEveryDays: number): INodeParameters {
	const options: INodeParameters = {
		...(offersSendOnlyChanges(plan) && { sendOnlyChanges: plan.sendOnlyChanges }),
		resendEveryDays,
		parallelRequests: plan.parallelRequests,
		...(plan.batchSize !== undefined && { batchSize: plan.batchSize }),
	};
	const identify =
		plan.identifyBy === 'email'
			? { identifyBy: 'email', email: '={{ $json.email }}' }
			: { identifyBy: 'external_id', externalId: '={{ $json.id }}' };
	if (plan.node === 'newsletter' && plan.oneState) {
		const operation = plan.items[0].sets[GROUP] === 'subscribed' ? 'subscribe' : 'unsubscribe';
		return { operation, subscriptionGroupId: '={{ $json.group }}', ...identify, options };
	}
	if (plan.node === 'newsletter') {
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
		attributesJson: '={{ $json.attrs }}',
		// Update Existing Only, mapped per item from the row.
		...(plan.items.some(({ updateOnly }) => updateOnly) && {
			additionalFields: { _update_existing_only: '={{ $json.updateOnly === true }}' },
		}),
		options,
	};
}

function faultRule(path: string, { kind, times }: Fault, delayMs = 20): FaultRule {
	if (kind === 'status') return { path, kind, times, status: 503 };
	if (kind === 'slow') return { path, kind, times, delayMs };
	return { path, kind, times };
}

const pathOf = (plan: RunPlan) => PATHS[NODES[plan.node].type];

/**
 * A fault rule the run did not use up would strike the next run: spend it on requests that change
 * nothing (an empty /users/track, a refused subscription body), so that each run meets only its own.
 */
async function drainFaults(workspace: Workspace, path: string): Promise<void> {
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

/** One run of the workflow with the plan's nodes and settings, its crash staged in n8n's store. */
async function execute(plan: RunPlan, real: SequenceReal, label = ''): Promise<RunResult> {
	real.runs++;
	real.items += plan.items.length;
	if (plan.runsOfNode && plan.items.length > 1) real.severalRunsOfNode++;
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
						{ ...node, parameters: parameters(plan, real.schedule?.resendEveryDays ?? 0), continueOnFail: true },
						plan.runsOfNode && plan.items.length > 1
							? { kind: 'branches', branches: Math.min(plan.runsOfNode, plan.items.length) }
							: { kind: 'once' },
					),
					items: plan.items.map((item) => itemJson(plan, item)),
					credentials: workspace.credentials,
				}),
		);
		if (result.logs.some(({ message }) => message.includes("could not record this run's end"))) real.crashes++;
		return result;
	} finally {
		if (plan.crash !== undefined) store.failWhen = undefined;
	}
}

const shapeOf = (plan: RunPlan, label: string): RunShape => ({
	workspace: plan.workspace,
	identifyBy: plan.identifyBy,
	ignoresUnknown: plan.node === 'newsletter' && plan.identifyBy === 'external_id',
	label,
});

/** Whether a run may create a profile the identifier `plan` uses finds for `user` (an attribute object creates one). */
const mayCreateFor = (plan: RunPlan, other: RunPlan) => (user: Person) =>
	other.node !== 'newsletter' &&
	other.workspace === plan.workspace &&
	other.identifyBy === plan.identifyBy &&
	other.items.some((item) => item.user === user);

/** What an item says when Send Only Changes could not read n8n's store (runOperation.ts). */
const STORE_UNREADABLE = 'could not check what this node sent before';

interface Ran {
	plan: RunPlan;
	/** "" for a run alone; "run 3a " and "run 3b " for overlapping ones */
	label: string;
	result: RunResult;
}

/**
 * After a step's runs: each run's answers checked, the truth learnt from them, and compared with
 * both workspaces. Throws (stopping the sequence) when a violation is one `stopAt` picks.
 */
async function settleStep(model: SequenceModel, real: SequenceReal, ran: Ran[]): Promise<void> {
	const step = real.steps;
	const violations: Violation[] = [];
	const answersOf = new Map<Ran, Array<Answer | undefined>>();
	const effects = ran.flatMap((entry) => {
		const { plan, label, result } = entry;
		const node = NODES[plan.node];
		if (result.error) violations.push({ kind: 'run', message: `${label}the run stopped: ${result.error.message}` });
		const output = answersAcrossRuns(result, node.name);
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
			plan.node === 'newsletter' ? (intent) => intent.sets[GROUP] : () => 'updated',
			plan.items.map((item) => itemJson(plan, item)),
		);
		answersOf.set(entry, answers);
		for (const answer of answers) {
			const name = tallyName(answer);
			real.answers[name] = (real.answers[name] ?? 0) + 1;
			if (answer?.refused) real.refused++;
		}
		const shape = shapeOf(plan, label);
		if (shape.ignoresUnknown)
			real.ignored += plan.items.filter(
				({ user }) => !profileOf(real.states[plan.workspace], user, 'external_id'),
			).length;
		const others = ran.filter((other) => other.plan !== plan);
		return effectsOf(model.truth, shape, plan.items, answers, real.states[plan.workspace], (user) =>
			others.some((other) => mayCreateFor(plan, other.plan)(user)),
		);
	});
	checkFreshness(real, ran, answersOf, violations);
	const setters = learn(effects);
	real.states = await Promise.all(real.workspaces.map(async ({ client }) => await client.state()));
	for (const index of WORKSPACES) compareWithPlatform(model.truth, index, real.states[index], setters, violations);
	model.runs += ran.length;
	real.violations.push(...violations.map((violation) => ({ ...violation, step })));
	const stopping = real.stopAt ? violations.filter(real.stopAt) : [];
	if (stopping.length > 0) throw new Error(`step ${step}: ${stopping.map(({ message }) => message).join('; ')}`);
}

/** Runs one plan: the fault first, the workflow, then its answers checked and the truth compared with both workspaces. */
async function runPlan(plan: RunPlan, model: SequenceModel, real: SequenceReal, description: string): Promise<void> {
	const step = beginStep(real);
	real.plans.push({ plan, label: `step ${step}` });
	real.log.push(description);
	const workspace = real.workspaces[plan.workspace];
	const path = pathOf(plan);
	if (plan.fault) {
		real.faults++;
		if (plan.fault.kind === 'unplaced-error') real.unplacedErrors++;
		await workspace.client.injectFaults([faultRule(path, plan.fault)]);
	}
	const result = await execute(plan, real);
	if (plan.fault) await drainFaults(workspace, path);
	await settleStep(model, real, [{ plan, label: '', result }]);
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
			otherNode && earlier.node !== 'newsletter' ? (earlier.node === 'crm' ? 'webForm' : 'crm') : earlier.node;
		const workspace: WorkspaceIndex = otherWorkspace ? (earlier.workspace === 0 ? 1 : 0) : earlier.workspace;
		const fault = node === 'newsletter' && repeatFault?.kind === 'unplaced-error' ? undefined : repeatFault;
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
		})
		.map(({ first, second, sameWorkspace, sendOnlyChanges: [firstSends, secondSends], ...rest }) => ({
			first: alone(first, firstSends),
			second: alone(sameWorkspace ? { ...second, workspace: first.workspace } : second, secondSends),
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
		return `two runs at once (the first's first request ${hold === '503' ? 'answered 503' : `slowed ${delayMs} ms`}, the second starting ${gapMs} ms later, n8n's store calls reading and writing ${roundTrip} apart): a: ${describePlan(first)} | b: ${describePlan(second)}`;
	}
}

/** The newcomer signs up in a workspace (is seeded with external ID and email), unless a profile finds them already. */
export class SignUp implements Command {
	constructor(readonly workspace: WorkspaceIndex) {}

	check(): boolean {
		return true;
	}

	async run(model: SequenceModel, real: SequenceReal): Promise<void> {
		beginStep(real);
		const index = this.workspace;
		const before = real.states[index];
		if (profileOf(before, NEWCOMER, 'external_id') || profileOf(before, NEWCOMER, 'email')) {
			real.log.push(`${this.toString()}: a profile finds ${NEWCOMER} already, so no sign-up`);
			return;
		}
		real.log.push(this.toString());
		real.signUps++;
		const workspace = real.workspaces[index];
		await signUp(workspace, NEWCOMER);
		real.states[index] = await workspace.client.state();
		signedUp(model.truth, index, real.states[index], NEWCOMER);
	}

	toString(): string {
		return `${NEWCOMER} signs up in the ${workspaceName(this.workspace)} workspace`;
	}
}

export const signUpStep: fc.Arbitrary<Command> = weighted<WorkspaceIndex>([0, 3], [1, 1]).map(
	(workspace) => new SignUp(workspace),
);
