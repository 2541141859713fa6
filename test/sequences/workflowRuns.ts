/**
 * The runs a sequence is made of, each one execution of a saved workflow in n8n's real engine:
 * an attribute sync by one of two User nodes, or a newsletter opt-in/out by the Subscription node,
 * against the workspace the workflow's credential points at, sometimes with the platform
 * stumbling on the run's first request(s).
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEMO_API_KEY } from '../../sandbox';
import type { FaultRule } from '../../sandbox/adminApiTypes';
import { runWorkflow } from '../harness';
import { SUBSCRIPTION_NODE, USER_NODE } from '../support/nodeTypes';
import type { ItemIntent, PieceName, Truth, Violation } from './platformTruth';
import { compareWithPlatform, GROUP, learnFromRun, PIECES, readAnswers } from './platformTruth';
import type { Workspace, WorkspaceIndex } from './workspaces';
import { emailOf, USERS, WORKSPACES, workspaceName } from './workspaces';

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

type FaultKind = 'status' | 'reset-before' | 'reset-after' | 'slow';
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
	items: ItemIntent[];
}

/** What a sequence tallies and keeps of its runs. */
export interface SequenceReal {
	workspaces: Workspace[];
	workflowId: string;
	runs: number;
	items: number;
	answers: Record<string, number>;
	faults: number;
	/** Each run's description, in order. */
	log: string[];
	/** Each run's plan, in order (a repeat run takes an earlier one's rows). */
	plans: RunPlan[];
	/** Stops the sequence after the first run with such a violation (while shrinking: later runs drop out). */
	stopAt?: (violation: Violation) => boolean;
	/** Each with the run it was found after (1-based). */
	violations: Array<Violation & { run: number }>;
}

export interface SequenceModel {
	truth: Truth;
	/** Runs so far. */
	runs: number;
}

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

const user = fc.constantFrom(...USERS);
const valueOf = (piece: PieceName) => fc.constantFrom(...VALUES[piece]);

const attributeItem: fc.Arbitrary<ItemIntent> = fc
	.record({
		user,
		tier: often(valueOf('tier')),
		city: often(valueOf('city')),
		email_subscribe: rarely(valueOf('email_subscribe')),
		[GROUP]: rarely(valueOf(GROUP)),
	})
	.filter((item) => PIECES.some((piece) => item[piece] !== undefined))
	.map(({ user: who, ...sets }) => ({
		user: who,
		sets: Object.fromEntries(Object.entries(sets).filter(([, value]) => value !== undefined)),
	}));

const groupStateItem: fc.Arbitrary<ItemIntent> = fc
	.record({ user, state: valueOf(GROUP) })
	.map(({ user: who, state }) => ({ user: who, sets: { [GROUP]: state } }));

const fault: fc.Arbitrary<Fault | undefined> = rarely(
	fc.record({
		kind: fc.constantFrom<FaultKind>('status', 'reset-after', 'reset-before', 'slow'),
		times: weighted<1 | 4>([1, 3], [4, 1]),
	}),
);

const runSettings = {
	workspace: weighted<WorkspaceIndex>([0, 4], [1, 1]),
	identifyBy: weighted<RunPlan['identifyBy']>(['external_id', 3], ['email', 1]),
	sendOnlyChanges: fc.boolean(),
	batchSize: often(fc.integer({ min: 1, max: 3 })),
	parallelRequests: fc.integer({ min: 1, max: 8 }),
	fault,
};

export const attributeSync = (maxItems: number): fc.Arbitrary<RunPlan> =>
	fc.record({
		node: weighted<NodeKey>(['crm', 3], ['webForm', 1]),
		...runSettings,
		items: fc.array(attributeItem, { minLength: 1, maxLength: maxItems }),
	});

export const newsletterRun = (maxItems: number): fc.Arbitrary<RunPlan> =>
	fc.record({
		node: fc.constant<NodeKey>('newsletter'),
		...runSettings,
		items: fc.array(groupStateItem, { minLength: 1, maxLength: maxItems }),
	});

// ---- description -------------------------------------------------------------------------------

export function describePlan(plan: RunPlan): string {
	const settings = [
		NODES[plan.node].name,
		`${workspaceName(plan.workspace)} workspace`,
		`by ${plan.identifyBy}`,
		plan.sendOnlyChanges ? 'Send Only Changes' : 'sends all',
		...(plan.batchSize !== undefined ? [`batch ${plan.batchSize}`] : []),
		`parallel ${plan.parallelRequests}`,
		...(plan.fault ? [`fault ${plan.fault.kind === 'status' ? '503' : plan.fault.kind}×${plan.fault.times}`] : []),
	];
	const items = plan.items.map(
		({ user: who, sets }, index) =>
			`#${index} ${who} ${Object.entries(sets)
				.map(([piece, value]) => `${piece}=${value}`)
				.join(',')}`,
	);
	return `${settings.join(', ')}: [${items.join('; ')}]`;
}

// ---- running -----------------------------------------------------------------------------------

function itemJson(plan: RunPlan, { user: who, sets }: ItemIntent): IDataObject {
	const base = { id: who, email: emailOf(who) };
	if (plan.node === 'newsletter') return { ...base, group: GROUP, state: sets[GROUP] };
	const attrs: IDataObject = {};
	if (sets.tier !== undefined) attrs.tier = sets.tier;
	if (sets.city !== undefined) attrs.city = sets.city;
	if (sets.email_subscribe !== undefined) attrs.email_subscribe = sets.email_subscribe;
	if (sets[GROUP] !== undefined)
		attrs.subscription_groups = [{ subscription_group_id: GROUP, subscription_state: sets[GROUP] }];
	return { ...base, attrs };
}

function parameters(plan: RunPlan): INodeParameters {
	const options: INodeParameters = {
		sendOnlyChanges: plan.sendOnlyChanges,
		parallelRequests: plan.parallelRequests,
		...(plan.batchSize !== undefined && { batchSize: plan.batchSize }),
	};
	const identify =
		plan.identifyBy === 'email'
			? { identifyBy: 'email', email: '={{ $json.email }}' }
			: { identifyBy: 'external_id', externalId: '={{ $json.id }}' };
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
		options,
	};
}

function faultRule(path: string, { kind, times }: Fault): FaultRule {
	if (kind === 'status') return { path, kind, times, status: 503 };
	if (kind === 'slow') return { path, kind, times, delayMs: 20 };
	return { path, kind, times };
}

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

/** Runs one plan: the fault first, the workflow, then its answers checked and the truth compared with both workspaces. */
async function runPlan(plan: RunPlan, model: SequenceModel, real: SequenceReal, description: string): Promise<void> {
	const run = ++real.runs;
	real.plans.push(plan);
	real.log.push(description);
	real.items += plan.items.length;
	const node = NODES[plan.node];
	const workspace = real.workspaces[plan.workspace];
	const path = PATHS[node.type];
	if (plan.fault) {
		real.faults++;
		await workspace.client.injectFaults([faultRule(path, plan.fault)]);
	}
	const violations: Violation[] = [];
	const result = await runWorkflow({
		workflowId: real.workflowId,
		nodes: [{ ...node, parameters: parameters(plan), continueOnFail: true }],
		connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		items: plan.items.map((item) => itemJson(plan, item)),
		credentials: workspace.credentials,
	});
	if (plan.fault) await drainFaults(workspace, path);
	if (result.error) violations.push({ kind: 'run', message: `the run stopped: ${result.error.message}` });

	const answers = readAnswers(plan.items, result.output(node.name), violations);
	for (const answer of answers) {
		const status = answer?.status ?? 'none';
		real.answers[status] = (real.answers[status] ?? 0) + 1;
	}
	const setters = learnFromRun(model.truth, plan.workspace, plan.items, answers);
	const states = await Promise.all(real.workspaces.map(async ({ client }) => await client.state()));
	for (const index of WORKSPACES) {
		compareWithPlatform(model.truth, index, states[index], index === plan.workspace ? setters : {}, violations);
	}
	model.runs++;
	real.violations.push(...violations.map((violation) => ({ ...violation, run })));
	const stopping = real.stopAt ? violations.filter(real.stopAt) : [];
	if (stopping.length > 0) throw new Error(`run ${run}: ${stopping.map(({ message }) => message).join('; ')}`);
}

/** A run of its own items and settings. */
export class WorkflowRun implements fc.AsyncCommand<SequenceModel, SequenceReal> {
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
	fault?: Fault;
}

export const repeatRun: fc.Arbitrary<RepeatPlan> = fc.record({
	back: fc.integer({ min: 0, max: 2 }),
	otherWorkspace: weighted([false, 3], [true, 1]),
	otherNode: weighted([false, 3], [true, 1]),
	fault,
});

/** An earlier run's rows again, with Send Only Changes on: most of them are what was sent last time. */
export class RepeatRun implements fc.AsyncCommand<SequenceModel, SequenceReal> {
	constructor(readonly repeat: RepeatPlan) {}

	check(model: SequenceModel): boolean {
		return model.runs > 0;
	}

	async run(model: SequenceModel, real: SequenceReal): Promise<void> {
		const { back, otherWorkspace, otherNode, fault: repeatFault } = this.repeat;
		const at = Math.max(0, real.plans.length - 1 - back);
		const earlier = real.plans[at];
		const node: NodeKey =
			otherNode && earlier.node !== 'newsletter' ? (earlier.node === 'crm' ? 'webForm' : 'crm') : earlier.node;
		const workspace: WorkspaceIndex = otherWorkspace ? (earlier.workspace === 0 ? 1 : 0) : earlier.workspace;
		const plan: RunPlan = { ...earlier, node, workspace, sendOnlyChanges: true, fault: repeatFault };
		await runPlan(plan, model, real, `again the rows of run ${at + 1}: ${describePlan(plan)}`);
	}

	toString(): string {
		const { back, otherWorkspace, otherNode, fault: repeatFault } = this.repeat;
		return `again the rows of ${back === 0 ? 'the last run' : `${back + 1} runs back`}${otherWorkspace ? ', other workspace' : ''}${otherNode ? ', other node' : ''}${repeatFault ? `, fault ${repeatFault.kind}×${repeatFault.times}` : ''}`;
	}
}
