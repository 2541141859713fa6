/**
 * State convergence, as a marketer relies on it: after every run of a sync, for every workspace,
 * customer and piece of state (an attribute, the newsletter group's state, email_subscribe) the
 * platform holds what the LAST item of the run setting it said, whenever that item was answered
 * as applied ("updated" for an attribute sync, "subscribed" or "unsubscribed" for a newsletter
 * node) or "unchanged". An item answered with an error, or updated with `warnings` (an error the
 * platform's answer did not place on an object), may or may not have been applied: the piece is
 * unknown until a later run sets it. Two runs of the workflow at once that both set a piece may
 * leave either's value: checked to be one of them, then unknown. A customer nobody
 * has a profile for yet (the newcomer) holds nothing until a run creates one or they sign up; a group
 * state set for them by external ID before that is ignored by the platform.
 *
 * Each sequence runs on a schedule on a virtual clock (daily, every few days, weekly or irregular, with
 * manual runs in between) with Resend Everything Every (Days) at 0, 3, 7 or 30, and an item is answered
 * "unchanged" only within that many days of its contact's attributes last being accepted. A run may run
 * the node two or three times (merged branches), each run of the node its own.
 *
 * Workflows of several of our nodes (./workflowOfNodes.ts): two syncs in a chain, a sync then the
 * newsletter node, all three, an IF into Subscribe and Unsubscribe or into two syncs. n8n runs one node
 * after the other, so the platform holds the later node's value; each node's rows come out as they came
 * to it (the earlier node's words replaced, and the run says whose), `overrode` names an earlier node's
 * state exactly where one was replaced, and the next night with the same rows sends nothing where the
 * syncs set different attributes with Send Only Changes (and no contact's turn to be resent has come).
 *
 * fast-check generates sequences of steps (model-based: ./workflowRuns.ts): mostly one run, an
 * execution of a saved workflow in n8n's real WorkflowExecute, against in-process sandboxes over
 * loopback, with Send Only Changes on or off, by external ID or email, sometimes meeting a platform
 * fault (503s, resets, slow answers, a 2xx whose error names no object) or n8n's database going away
 * before the run's end is recorded; or two runs at once, during which n8n's store is read and written by
 * each call as n8n's is (a round trip between, so that one run's insert can fail on the row the other
 * created, and one run's write can go over the other's: no item may fail on it, and what the next runs
 * leave out must be held); or the newcomer signing up. And the ways marketers and n8n run a run again:
 * a run with On Error "Stop Workflow" that the node stopped (an Update Existing Only item for the
 * newcomer before they sign up, a fault on every attempt) retried from its saved data (*Executions →
 * Retry*, with the saved or the current workflow, after the cause is removed or not, once or twice);
 * the step re-run as a new execution of the same items; a webhook delivered twice, one after the other
 * or both at once; rows carrying their own `error` (null, false, "", a text) and columns named like the
 * node's words (`status`, `id`, `message`, `engagementPlatform` where Output Field Name is another),
 * under Retry On Fail by n8n 2.x's rule and by 1.x's. About half the attribute syncs stamp each object
 * with values that change on every evaluation (`synced_at: $now.toISO()`, `sync_nonce: Math.random()`),
 * so that each try, retry from saved data, re-run or delivery evaluates them anew: never held, they are
 * sent whenever their item's run sends it (with Send Only Changes as its changed parts, answered
 * "updated" with the rest listed `unchanged`, never "unchanged"). Besides convergence: an item answered
 * "unchanged" held its value before the step (so a try, or a retry from saved data, answers what its
 * earlier try had accepted "updated", as then), every row comes out as it came, nothing the platform
 * accepted is sent again by a run's tries or its retries from saved data (a volatile value known by the
 * item that sends it, not by what it evaluates to), and an item answered "updated" shows the volatile
 * values the platform holds (a retried item, those its earlier try sent). Every sequence
 * is run and its violations counted; then the first failing sequences (one per kind of violation, up
 * to STATE_SHRINK) are replayed by their fast-check path and shrunk, each candidate run up to
 * STATE_SHRINK_TRIES times (a race is not lost every time) and stopped at its first violating step
 * (so the steps after it drop out of the counterexample), for at most STATE_SHRINK_SECONDS each (then
 * the smallest found so far is shown). The tally printed counts what the sequences met.
 *
 *   STATE_SEQUENCES=20 npx jest test/sequences        quick check
 *   STATE_SEQUENCES=500 npx jest test/sequences       as CI runs it (the default when CI is set)
 *   STATE_SEQUENCES=5000 npx jest test/sequences      a longer hunt
 *   STATE_SEED=<seed>                                 replays the sequences of an earlier report
 *   STATE_VERBOSE=1                                   prints every sequence tried while shrinking
 *
 * The engine's retry backoff and pacing waits (n8n-workflow's sleep) are shortened 50 times
 * (STATE_WAIT_SCALE), so that a fault costs milliseconds; a retried request still arrives after the
 * requests sent meanwhile, as it would in production.
 */
import fc from 'fast-check';

import { deduplicationStore } from '../harness/deduplicationStore';
import type { RunPlan, Schedule, SequenceModel, SequenceReal } from './workflowRuns';
import {
	attributeSync,
	describeSchedule,
	scheduleOf,
	newsletterRun,
	OverlappingRuns,
	overlapRuns,
	RepeatRun,
	repeatRun,
	RerunStep,
	rerunPlan,
	RetriedExecution,
	retriedRun,
	signUpStep,
	webhookTwice,
	WebhookTwice,
	WorkflowRun,
} from './workflowRuns';
import { WorkflowOfNodes, workflowOfNodes } from './workflowOfNodes';
import type { Violation } from './platformTruth';
import { truthFrom } from './platformTruth';
import { resetWorkspace, useWorkspaces, WORKSPACES } from './workspaces';
import { installVirtualClock, virtualNow } from './virtualClock';

jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	const scale = Number(process.env.STATE_WAIT_SCALE ?? 0.02);
	return { ...actual, sleep: async (ms: number) => await actual.sleep(Math.ceil(ms * scale)) };
});

const numberFrom = (name: string, fallback: number) => {
	const value = Number(process.env[name]);
	return Number.isInteger(value) && value >= 0 && process.env[name] !== '' ? value : fallback;
};
const SEQUENCES = numberFrom('STATE_SEQUENCES', process.env.CI ? 500 : 100);
const SHRINK = numberFrom('STATE_SHRINK', 3);
const TRIES = Math.max(1, numberFrom('STATE_SHRINK_TRIES', 3));
const SHRINK_SECONDS = numberFrom('STATE_SHRINK_SECONDS', 30);
const VERBOSE = process.env.STATE_VERBOSE === '1';
const SEED =
	process.env.STATE_SEED === undefined ? Date.now() ^ (Math.random() * 0x100000000) : Number(process.env.STATE_SEED);
const MAX_STEPS = 10;
const MAX_ITEMS = 8;

// The node's, n8n's and the sandboxes' Date read the virtual clock, which each step's schedule moves on.
installVirtualClock();
const workspaces = useWorkspaces();
const store = deduplicationStore();

const run = (plan: fc.Arbitrary<RunPlan>) => plan.map((generated) => new WorkflowRun(generated));
const runs = fc.commands(
	[
		run(attributeSync(MAX_ITEMS)),
		run(attributeSync(MAX_ITEMS)),
		run(newsletterRun(MAX_ITEMS)),
		repeatRun.map((repeat) => new RepeatRun(repeat)),
		repeatRun.map((repeat) => new RepeatRun(repeat)),
		overlapRuns(MAX_ITEMS).map((overlap) => new OverlappingRuns(overlap)),
		signUpStep,
		retriedRun(MAX_ITEMS).map((retried) => new RetriedExecution(retried)),
		rerunPlan.map((rerun) => new RerunStep(rerun)),
		webhookTwice(MAX_ITEMS).map((twice) => new WebhookTwice(twice)),
		workflowOfNodes(MAX_ITEMS).map((plan) => new WorkflowOfNodes(plan)),
		workflowOfNodes(MAX_ITEMS).map((plan) => new WorkflowOfNodes(plan)),
	],
	{ maxCommands: MAX_STEPS },
);
/** A sequence: its steps, and the schedule they run on. */
const sequences = fc.tuple(runs, scheduleOf(MAX_STEPS));

const COUNTS = [
	'steps',
	'runs',
	'items',
	'faults',
	'unplacedErrors',
	'overlaps',
	'overlapsInterleaved',
	'creationRaces',
	'overwrites',
	'crashes',
	'signUps',
	'severalRunsOfNode',
	'refused',
	'ignored',
	'stoppedRuns',
	'retried',
	'retriedWithCurrentWorkflow',
	'stillStopped',
	'rerunSteps',
	'webhooksTwice',
	'webhooksTwiceAtOnce',
	'volatileRuns',
	'workflowsOfNodes',
	'quietNights',
] as const;
type Tally = Record<(typeof COUNTS)[number] | 'sequences' | 'violations', number> & {
	answers: Record<string, number>;
	bySchedule: Record<string, number>;
	triesAgain: Record<string, number>;
	rows: Record<string, number>;
};
const tally = (): Tally => ({
	...(Object.fromEntries(COUNTS.map((name) => [name, 0])) as Record<(typeof COUNTS)[number], number>),
	sequences: 0,
	violations: 0,
	answers: {},
	bySchedule: {},
	triesAgain: {},
	rows: {},
});
const addInto = (into: Record<string, number>, counts: Record<string, number>) => {
	for (const [key, count] of Object.entries(counts)) into[key] = (into[key] ?? 0) + count;
};

let sequenceCounter = 0;

/** Runs one sequence from both workspaces freshly seeded, n8n's store empty and a new workflow id. */
async function runSequence(
	[commands, schedule]: [Iterable<fc.AsyncCommand<SequenceModel, SequenceReal>>, Schedule],
	into: Tally,
	stopAt?: (violation: Violation) => boolean,
): Promise<SequenceReal> {
	store.reset();
	await Promise.all(workspaces().map(resetWorkspace));
	const states = await Promise.all(workspaces().map(async ({ client }) => await client.state()));
	const real: SequenceReal = {
		workspaces: workspaces(),
		workflowId: `nightly-sync-${++sequenceCounter}`,
		schedule,
		lastAccepted: new Map(),
		stepStartedAt: virtualNow(),
		steps: 0,
		runs: 0,
		items: 0,
		answers: {},
		faults: 0,
		unplacedErrors: 0,
		overlaps: 0,
		overlapsInterleaved: 0,
		creationRaces: 0,
		overwrites: 0,
		refused: 0,
		ignored: 0,
		crashes: 0,
		signUps: 0,
		severalRunsOfNode: 0,
		stoppedRuns: 0,
		retried: 0,
		retriedWithCurrentWorkflow: 0,
		stillStopped: 0,
		rerunSteps: 0,
		webhooksTwice: 0,
		webhooksTwiceAtOnce: 0,
		volatileRuns: 0,
		workflowsOfNodes: 0,
		quietNights: 0,
		triesAgain: { '2.x': 0, '1.x': 0 },
		rows: {},
		log: [],
		plans: [],
		states,
		stopAt,
		violations: [],
	};
	const model: SequenceModel = {
		truth: truthFrom({ [WORKSPACES[0]]: states[0], [WORKSPACES[1]]: states[1] }),
		runs: 0,
	};
	try {
		await fc.asyncModelRun(async () => ({ model, real }), commands);
	} catch (error) {
		if (!stopAt || !real.violations.some(stopAt)) throw error;
	}
	into.sequences++;
	into.bySchedule[`${schedule.kind}, resend ${schedule.resendEveryDays}`] =
		(into.bySchedule[`${schedule.kind}, resend ${schedule.resendEveryDays}`] ?? 0) + 1;
	for (const name of COUNTS) into[name] += real[name];
	into.violations += real.violations.length;
	addInto(into.answers, real.answers);
	addInto(into.triesAgain, real.triesAgain);
	addInto(into.rows, real.rows);
	return real;
}

/** A violation's kind: what the platform failed to hold, and what the item that set it was answered. */
function kindOf(violation: Violation): string {
	if (violation.kind === 'overlap') return "neither overlapping run's value";
	if (violation.kind !== 'held') return violation.kind;
	const piece = violation.piece === 'tier' || violation.piece === 'city' ? 'an attribute' : violation.piece;
	return `${piece} not held, answered ${violation.answered ?? '(not set in that run)'}`;
}
const kindsOf = ({ violations }: SequenceReal) => [...new Set(violations.map(kindOf))];

function failureReport(real: SequenceReal): string {
	return [
		...(real.schedule ? [`  on the schedule ${describeSchedule(real.schedule, real.steps)}`] : []),
		...real.log.map((step, index) => `  step ${index + 1}: ${step}`),
		...real.violations.map(({ step, message }) => `    after step ${step}: ${message}`),
	].join('\n');
}

describe('A marketer syncs customers to the platform night after night', () => {
	test(
		'after every run each customer holds what the run last said it applied, whatever the mix of attribute syncs, newsletter opt-ins and outs, two sync nodes, workflows of two and three nodes (chains, IF branches), a switched workspace, platform hiccups, overlapping runs, runs n8n could not close, customers with no profile yet, answers that prove nothing, and runs run again (Executions → Retry, the step re-run, a webhook twice, Retry On Fail on rows with their own error)',
		async () => {
			const started = performance.now();
			const counted = tally();
			const failing: Array<{ index: number; kinds: string[] }> = [];
			let index = 0;

			// 1. Every sequence, its violations counted.
			const checked = await fc.check(
				fc.asyncProperty(sequences, async (sequence) => {
					const real = await runSequence(sequence, counted);
					if (real.violations.length > 0) failing.push({ index, kinds: kindsOf(real) });
					index++;
				}),
				{ numRuns: SEQUENCES, seed: SEED },
			);
			// The property counts rather than fails: a failure here is the test's own (a sandbox that did not answer, ...).
			if (checked.failed) throw checked.errorInstance ?? new Error(fc.defaultReportMessage(checked));
			const elapsed = performance.now() - started;

			// 2. The first failing sequence of each kind, replayed by its path and shrunk.
			const shrinking = tally();
			const firstOfKind = new Map<string, number>();
			for (const { index: at, kinds } of failing)
				for (const kind of kinds) if (!firstOfKind.has(kind)) firstOfKind.set(kind, at);
			const toShrink = [...firstOfKind].slice(0, SHRINK);
			const counterexamples: string[] = [];
			for (const [kind, at] of toShrink) {
				let last = '';
				const details = await fc.check(
					fc.asyncProperty(sequences, async (sequence) => {
						// A race may not be lost every time: a candidate counts as passing after TRIES clean runs.
						for (let attempt = 0; attempt < TRIES; attempt++) {
							const real = await runSequence(sequence, shrinking, (violation) => kindOf(violation) === kind);
							if (VERBOSE) console.log(`${real.violations.length} violations: ${real.log.join(' || ')}`);
							// Only a violation of the same kind keeps a candidate: each counterexample shows its own defect.
							if (!kindsOf(real).includes(kind)) continue;
							last = failureReport(real);
							throw new Error(last);
						}
					}),
					{ numRuns: SEQUENCES, seed: SEED, path: String(at), interruptAfterTimeLimit: SHRINK_SECONDS * 1000 },
				);
				counterexamples.push(
					details.failed
						? `${kind} (sequence ${at}, shrunk ${details.numShrinks} times${details.interrupted ? ', stopped at the time limit' : ''}):\n${last}`
						: `${kind} (sequence ${at}): did not fail again when replayed`,
				);
			}

			console.log(
				[
					`State convergence (seed ${SEED}): ${counted.sequences} sequences, ${counted.steps} steps, ${counted.runs} runs, ${counted.items} items, ` +
						`${counted.faults} faults (${counted.unplacedErrors} unplaced errors), ${counted.overlaps} overlaps (${counted.overlapsInterleaved} interleaved in n8n's store: ${counted.creationRaces} creation races lost, ${counted.overwrites} writes over the other run's), ` +
						`${counted.crashes} crashes (the run's end not recorded), ${counted.signUps} sign-ups, ${counted.severalRunsOfNode} runs running the node several times, ${counted.refused} items refused for want of a profile, ` +
						`${counted.ignored} group states set by an external ID nobody had, ` +
						`${counted.violations} violations in ${failing.length} sequences ` +
						`(${(elapsed / 1000).toFixed(1)} s, ${(((elapsed / Math.max(1, counted.sequences)) * 100) / 1000).toFixed(1)} s per 100 sequences)`,
					`run again: ${counted.stoppedRuns} runs the node stopped (On Error: Stop Workflow), ${counted.retried} Executions → Retry from the saved data (${counted.retriedWithCurrentWorkflow} with the current workflow; ${counted.stillStopped} runs still stopped after them), ${counted.rerunSteps} steps re-run as a new execution, ${counted.webhooksTwice} webhooks delivered twice one after the other and ${counted.webhooksTwiceAtOnce} at once`,
					`runs whose rows carry: ${JSON.stringify(counted.rows)}; runs whose attributes carry {{ $now }} and Math.random(): ${counted.volatileRuns}`,
					`workflows of several nodes (chains, IF branches): ${counted.workflowsOfNodes} runs; next nights with nothing changed checked to send nothing: ${counted.quietNights}`,
					`Retry On Fail's tries beyond a run's first, by rule: ${JSON.stringify(counted.triesAgain)}`,
					`answers: ${JSON.stringify(counted.answers)}`,
					`sequences by schedule and Resend Everything Every (Days): ${JSON.stringify(counted.bySchedule)}`,
					`sequences by kind of violation: ${JSON.stringify(Object.fromEntries(countBy(failing.flatMap(({ kinds }) => kinds))))}`,
					...(toShrink.length > 0
						? [`shrinking took ${shrinking.sequences} sequences more`, ...counterexamples.map((text) => `\n${text}`)]
						: []),
				].join('\n'),
			);
			if (counted.violations > 0) {
				throw new Error(
					`${counted.violations} violations in ${failing.length} of ${counted.sequences} sequences (seed ${SEED}). Shrunk:\n\n${counterexamples.join('\n\n')}`,
				);
			}
		},
		30 * 60_000,
	);
});

function countBy(values: string[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
	return counts;
}
