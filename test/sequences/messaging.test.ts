/**
 * Every answer read to the letter, over sequences: a marketer's workflow tracks events and purchases,
 * renames external IDs, exports profiles, sends receipts (with its own External Send IDs or the
 * node's), Send Now messages and campaign and canvas triggers, run after run, while the platform, a
 * proxy or the network answers badly (./messageRuns.ts lists how), and runs them again as n8n and
 * marketers do: a run the node stopped (On Error "Stop Workflow": a fault, a receipt to a customer with
 * no profile yet) retried from its saved data (*Executions → Retry*, with the saved or the current
 * workflow, after the cause is removed or not, once or twice), the step re-run as a new execution of
 * the same items, a webhook delivered twice; with rows carrying their own `error` (null, false, "", a
 * text) and columns named like the node's words (`status`, `id`, `message`, `engagementPlatform` where
 * Output Field Name is another), under Retry On Fail by n8n 2.x's rule and by 1.x's. In about half the
 * runs the node reads volatile values each try evaluates anew, in every one of those ways of running it
 * again: Time empty (the time of the run), `{{ $now }}` and `Math.random()` in the events' and
 * purchases' properties, a receipt's trigger properties, a campaign's or canvas's recipient properties.
 * After every run, whatever the sequence:
 * - each recipient got at most one message from each item, whether n8n ran the node once, behind merged
 *   branches or in a loop (several runs of the node in one execution), with or without Retry On Fail; an item answered `sent` got exactly one,
 *   the one its dispatch_id names; `queued` was received exactly once; an event or purchase answered
 *   `tracked` is stored once by that execution, and the platform holds each item's as many times as
 *   executions answered it tracked (a new execution of the same items stores it again; a try of Retry
 *   On Fail or a retry from saved data is the same execution); with Track Once Per Key (half the track
 *   runs), an item an earlier execution with the option answered tracked is never tracked again, and
 *   one answered `already_tracked` was tracked by such an execution (or one that stopped around it), so
 *   none is lost; `renamed` is renamed; `found` is the customer asked for, `not_found` nobody;
 * - nothing the platform accepted is sent again within an execution, its retries from saved data
 *   included, whatever its volatile values evaluate to in a later try: a retried item is answered as
 *   the try that got it accepted (`sent` with its dispatch);
 * - the events and purchases one run of the node stored, over its tries and retries, carry one time:
 *   the one the first try gave the run;
 * - every run executes the same saved workflow: a receipt whose External Send ID the node derives is
 *   one email per item however many runs send that item within 24 hours (the same ID each time,
 *   volatile trigger properties or not); `duplicate` names an email the platform had before the run,
 *   and nothing new went out;
 * - each item's row comes out as it went in, every column of it (its own `error`, `status`, `id`,
 *   `message`, `engagementPlatform`) unchanged, the node's words beside it in their own field (a failed
 *   item's `error` the node's reason);
 * - an item that says running it again is safe (`not_applied`, `invalid`, `not_sent`) left nothing on
 *   the platform; one whose fate is unknown (`maybe_applied`) says so and says to check first;
 * - no External Send ID went out twice; the API key is in no item, error, log or thrown error; a
 *   redirect brought nothing to another host;
 * - no second of a run sends more requests than its requests and their resends can (see checkPace).
 *
 * fast-check generates the sequences (model-based commands) and shrinks a failing one.
 *
 *   MESSAGING_SEQUENCES=20 npx jest test/sequences/messaging    quick check
 *   MESSAGING_SEQUENCES=500 npx jest test/sequences/messaging   as CI runs it (the default when CI is set)
 *   MESSAGING_SEQUENCES=5000 npx jest test/sequences/messaging  a longer hunt
 *   MESSAGING_SEED=<seed>                                       replays the sequences of an earlier report
 *
 * Waits run on a virtual clock (./virtualClock.ts): a sleep takes 1/50 of its time for real, and the
 * node's and sandbox's clocks move on by the whole of it, so pacing is measured as production has it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';

import type { Sandbox } from '../../sandbox';
import { DEMO_API_KEY, SandboxClient, startSandbox } from '../../sandbox';
import type {
	CheckedRun,
	FaultPlan,
	HowRun,
	MessageRunPlan,
	MessagingModel,
	RerunPlan,
	RetryPlan,
	RunContext,
} from './messageRuns';
import {
	CUSTOMERS,
	describePlan,
	describeRetry,
	messageRunPlan,
	readsVolatileValues,
	RENAMED,
	rerunPlan,
	retriedRunPlan,
	runAndCheck,
	webhookTwicePlan,
} from './messageRuns';
import { deduplicationStore } from '../harness/deduplicationStore';
import { PLAIN_ROWS, tallyRows } from './rows';
import { installVirtualClock } from './virtualClock';

jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	const clock = jest.requireActual<typeof import('./virtualClock')>('./virtualClock');
	return { ...actual, sleep: clock.virtualSleep(Number(process.env.MESSAGING_WAIT_SCALE ?? 0.02)) };
});
installVirtualClock();

const numberFrom = (name: string, fallback: number) => {
	const value = Number(process.env[name]);
	return Number.isInteger(value) && value >= 0 && process.env[name] !== '' ? value : fallback;
};
const SEQUENCES = numberFrom('MESSAGING_SEQUENCES', process.env.CI ? 500 : 100);
const SEED =
	process.env.MESSAGING_SEED === undefined
		? Date.now() ^ (Math.random() * 0x100000000)
		: Number(process.env.MESSAGING_SEED);

interface Real {
	context: RunContext;
	log: string[];
}

interface Tally {
	sequences: number;
	runs: number;
	executions: number;
	items: number;
	requests: number;
	faultsMet: number;
	byOperation: Record<string, number>;
	byShape: Record<string, number>;
	answers: Record<string, number>;
	/** Runs again: Executions → Retry, the step re-run, the webhook twice. */
	again: Record<string, number>;
	/** Runs whose rows carry their own error (by kind), columns named like the node's words, Output Field Name. */
	rows: Record<string, number>;
	/** Tries of Retry On Fail beyond a run's first, by n8n line's rule. */
	triesAgain: Record<string, number>;
	/** Runs whose node reads volatile values, and of them those n8n ran again within the execution. */
	volatile: Record<string, number>;
}
const tally: Tally = {
	sequences: 0,
	runs: 0,
	executions: 0,
	items: 0,
	requests: 0,
	faultsMet: 0,
	byOperation: {},
	byShape: {},
	answers: {},
	again: {},
	rows: {},
	triesAgain: {},
	volatile: {},
};
const bump = (counts: Record<string, number>, key: string, by = 1) => (counts[key] = (counts[key] ?? 0) + by);

/** One step of a sequence: one run, or a run and how it is run again. */
abstract class MessagingStep implements fc.AsyncCommand<MessagingModel, Real> {
	check(_model: Readonly<MessagingModel>): boolean {
		return true;
	}

	abstract run(model: MessagingModel, real: Real): Promise<void>;

	/** Runs and checks one run (with its retries), tallies it, and stops the sequence at a violation. */
	protected async runOne(plan: MessageRunPlan, real: Real, how: HowRun = {}, label?: string): Promise<CheckedRun> {
		real.context.model.runs++;
		real.context.runNumber++;
		const checked = await runAndCheck(plan, real.context, how);
		real.log.push(`${label ?? checked.label} → ${checked.answers.join(', ')}`);
		tally.runs++;
		tally.executions += checked.executions;
		tally.items += checked.answers.length;
		tally.requests += checked.requests;
		tally.faultsMet += checked.faultsMet;
		bump(tally.byOperation, plan.operation);
		bump(
			tally.byShape,
			`${plan.shape.kind}${plan.shape.retryOnFail ? ` + Retry On Fail (${plan.shape.retryRule ?? '2.x'})` : ''}`,
		);
		for (const answer of checked.answers) bump(tally.answers, answer);
		tallyRows(tally.rows, plan.rows);
		if (plan.shape.retryOnFail) bump(tally.triesAgain, `${plan.shape.retryRule ?? '2.x'} rule`, checked.triesAgain);
		if (plan.shape.retryOnFail && plan.shape.retryRule === '1.x') bump(tally.again, 'runs under 1.x Retry On Fail');
		if (readsVolatileValues(plan)) tallyVolatile(plan, checked);
		if (checked.violations.length > 0) {
			throw new Error(
				`After run ${real.log.length}:\n  ${checked.violations.join('\n  ')}\nThe sequence:\n${real.log.map((line, index) => `  ${index + 1}. ${line}`).join('\n')}`,
			);
		}
		return checked;
	}
}

/** A run whose node reads volatile values, by operation, and whether n8n ran it again (a try, Executions → Retry). */
function tallyVolatile(plan: MessageRunPlan, checked: CheckedRun): void {
	bump(tally.volatile, 'runs');
	if (checked.triesAgain > 0 || checked.executions > 1) {
		bump(tally.volatile, 'run again within the execution');
		bump(tally.volatile, `run again: ${plan.operation}`);
	}
}

class MessagingRun extends MessagingStep {
	constructor(readonly plan: MessageRunPlan) {
		super();
	}

	async run(_model: MessagingModel, real: Real): Promise<void> {
		await this.runOne(this.plan, real);
	}

	toString(): string {
		return describePlan(this.plan);
	}
}

/** A run with On Error "Stop Workflow"; where the node stops it, Executions → Retry from its saved data. */
class RetriedRun extends MessagingStep {
	constructor(
		readonly plan: MessageRunPlan,
		readonly retry: RetryPlan,
	) {
		super();
	}

	async run(_model: MessagingModel, real: Real): Promise<void> {
		const retried = await this.runOne(this.plan, real, { retry: this.retry }, this.toString());
		if (retried.stopped.first) bump(tally.again, 'runs stopped, to retry');
		bump(tally.again, 'Executions → Retry', retried.executions - 1);
		if (retried.executions > 1 && this.retry.currentWorkflow)
			bump(tally.again, 'of them with the current workflow', retried.executions - 1);
		if (retried.executions > 1 && !this.retry.causeRemoved)
			bump(tally.again, 'of them with the cause still there', retried.executions - 1);
		if (retried.stopped.first && retried.stopped.last) bump(tally.again, 'still stopped after the retries');
	}

	toString(): string {
		return `${describePlan(this.plan)}; if stopped, ${describeRetry(this.retry)}`;
	}
}

/** The step re-run: an earlier run's items again as a new execution of the same workflow (a fresh context). */
class RerunStep extends MessagingStep {
	constructor(readonly rerun: RerunPlan) {
		super();
	}

	check(model: Readonly<MessagingModel>): boolean {
		return model.runs > 0;
	}

	async run(_model: MessagingModel, real: Real): Promise<void> {
		const history = real.context.history ?? [];
		const at = Math.max(0, history.length - 1 - this.rerun.back);
		const { plan, intents } = history[at];
		bump(tally.again, 'steps re-run');
		await this.runOne(
			{ ...plan, faults: this.rerun.faults },
			real,
			{ intents },
			`${this.toString()}: ${describePlan({ ...plan, faults: this.rerun.faults })}`,
		);
	}

	toString(): string {
		return `the step re-run (${this.rerun.back === 0 ? 'the last run' : `${this.rerun.back + 1} runs back`}) as a new execution of its items`;
	}
}

/** A webhook delivered twice: the same items as two executions, one after the other. */
class WebhookTwice extends MessagingStep {
	constructor(
		readonly plan: MessageRunPlan,
		readonly secondFaults: FaultPlan[],
	) {
		super();
	}

	async run(_model: MessagingModel, real: Real): Promise<void> {
		bump(tally.again, 'webhooks delivered twice');
		const first = await this.runOne(this.plan, real, {}, `webhook: ${describePlan(this.plan)}`);
		const second = { ...this.plan, faults: this.secondFaults };
		await this.runOne(second, real, { intents: first.intents }, `the same webhook again: ${describePlan(second)}`);
	}

	toString(): string {
		return `a webhook delivered twice: ${describePlan(this.plan)}`;
	}
}

let sandbox: Sandbox;
let client: SandboxClient;
let trap: Server;
let trapReceived = 0;

beforeAll(async () => {
	sandbox = await startSandbox();
	client = new SandboxClient(sandbox.url);
	trap = createServer((request, response) => {
		trapReceived++;
		request.resume();
		response.end('{"message": "success"}');
	});
	// Another host of loopback: what a redirect to a foreign origin would reach.
	await new Promise<void>((resolve) => trap.listen(0, '127.0.0.2', resolve));
});
afterAll(async () => {
	await sandbox.close();
	await new Promise((resolve) => trap.close(resolve));
});

async function freshWorkspace(): Promise<void> {
	// What the node remembers in n8n's store (Track Once Per Key) belongs to the workspace just emptied.
	deduplicationStore().reset();
	await client.reset();
	await client.seed({
		profiles: [...CUSTOMERS, ...RENAMED].map((name) => ({ external_id: name, email: `${name}@shop.example` })),
		campaigns: [{ id: 'welcome' }, { id: 'receipt', kind: 'transactional' }],
		canvases: [{ id: 'onboarding' }],
	});
}

describe('A marketer messages and tracks customers run after run, whatever the platform answers', () => {
	test(
		'every item says what became of it: sent once or said otherwise, received when queued, stored once when tracked, nothing left where it says run again, no key leaves, no tight loop',
		async () => {
			// Real time: Date reads the virtual clock.
			const started = performance.now();
			const { port } = trap.address() as AddressInfo;
			const runs = fc.commands(
				[
					messageRunPlan.map((plan): MessagingStep => new MessagingRun(plan)),
					messageRunPlan.map((plan): MessagingStep => new MessagingRun(plan)),
					messageRunPlan.map((plan): MessagingStep => new MessagingRun(plan)),
					retriedRunPlan.map(({ plan, retry }): MessagingStep => new RetriedRun(plan, retry)),
					rerunPlan.map((rerun): MessagingStep => new RerunStep(rerun)),
					webhookTwicePlan.map(({ plan, secondFaults }): MessagingStep => new WebhookTwice(plan, secondFaults)),
				],
				{ maxCommands: 6 },
			);
			const checked = await fc.check(
				fc.asyncProperty(runs, async (commands) => {
					await freshWorkspace();
					const model: MessagingModel = {
						currentIds: Object.fromEntries(RENAMED.map((name) => [name, name])),
						receipts: {},
						runs: 0,
					};
					const real: Real = {
						context: {
							client,
							endpoint: sandbox.url,
							apiKey: DEMO_API_KEY,
							trap: { url: `http://127.0.0.2:${port}`, received: () => trapReceived },
							runNumber: 0,
							model,
							history: [],
						},
						log: [],
					};
					tally.sequences++;
					await fc.asyncModelRun(async () => ({ model, real }), commands);
				}),
				{ numRuns: SEQUENCES, seed: SEED },
			);
			const elapsed = (performance.now() - started) / 1000;
			console.log(
				[
					`Messaging sequences (seed ${SEED}): ${tally.sequences} sequences tried, ${tally.runs} runs (${tally.executions} executions), ${tally.items} items, ` +
						`${tally.requests} requests, ${tally.faultsMet} of them answered by a fault, ` +
						`${checked.failed ? 'a violation (shrunk below)' : '0 violations'} (${elapsed.toFixed(1)} s)`,
					`runs by operation: ${JSON.stringify(tally.byOperation)}`,
					`runs by how n8n ran the node: ${JSON.stringify(tally.byShape)}`,
					`answers: ${JSON.stringify(tally.answers)}`,
					`run again: ${JSON.stringify(tally.again)}`,
					`runs whose rows carry: ${JSON.stringify(tally.rows)}`,
					`Retry On Fail's tries beyond a run's first: ${JSON.stringify(tally.triesAgain)}`,
					`runs reading volatile values: ${JSON.stringify(tally.volatile)}`,
				].join('\n'),
			);
			if (checked.failed) {
				const why =
					checked.errorInstance instanceof Error ? checked.errorInstance.message : String(checked.errorInstance);
				throw new Error(`${fc.defaultReportMessage(checked)}\n\n${why}`);
			}
		},
		30 * 60_000,
	);
});

/** Sequences the suite once failed on, kept in their shrunk form (the first try of each is the one that failed). */
describe('shrunk sequences, kept', () => {
	const plan = (overrides: Partial<MessageRunPlan>): MessageRunPlan => ({
		operation: 'sendNow',
		people: [0],
		ownSendIds: false,
		orders: [0, 0, 0, 0, 0],
		duplicateId: false,
		withGhost: false,
		batchSize: 1,
		parallelRequests: 1,
		faults: [],
		shape: { kind: 'once' },
		rows: PLAIN_ROWS,
		...overrides,
	});
	const cases: Array<[string, MessageRunPlan]> = [
		[
			'Retry On Fail after a refused first item: Send Now does not send the second item again',
			plan({
				people: [0, 1],
				shape: { kind: 'once', retryOnFail: true },
				faults: [
					{ kind: 'echoes the key', times: 1, status: 400 },
					{ kind: '429', times: 1, header: 'reset now' },
				],
			}),
		],
		[
			'Retry On Fail after a lost answer: Trigger Campaign does not send the message again',
			plan({
				operation: 'triggerCampaign',
				shape: { kind: 'once', retryOnFail: true },
				faults: [{ kind: 'lost answer', times: 1 }],
			}),
		],
		[
			'two merged branches, the second item repeating the first item’s External Send ID: refused, not answered as sent',
			plan({
				operation: 'sendTransactionalEmail',
				people: [0, 1],
				ownSendIds: true,
				duplicateId: true,
				shape: { kind: 'branches', branches: 2 },
				faults: [{ kind: 'lost answer', times: 1 }],
			}),
		],
	];
	const contextOf = (): RunContext => {
		const { port } = trap.address() as AddressInfo;
		return {
			client,
			endpoint: sandbox.url,
			apiKey: DEMO_API_KEY,
			trap: { url: `http://127.0.0.2:${port}`, received: () => trapReceived },
			runNumber: 1,
			model: { currentIds: Object.fromEntries(RENAMED.map((name) => [name, name])), receipts: {}, runs: 0 },
		};
	};
	test.each(cases)('%s', async (_, shrunk) => {
		await freshWorkspace();
		const checked = await runAndCheck(shrunk, contextOf());
		expect(checked.violations).toEqual([]);
	});

	test.each([
		['', false],
		[', $now and Math.random() in its trigger properties', true],
	])(
		'the saved workflow sends the same items again (no External Send ID of its own%s): one email each, the repeats answered duplicate; new orders are new emails',
		async (_, volatile) => {
			await freshWorkspace();
			const context = contextOf();
			const receipts = plan({ operation: 'sendTransactionalEmail', people: [0, 1], volatile });
			const first = await runAndCheck(receipts, context);
			// The platform moves the first emails on from `queued` (its postbacks' pace) before the next run.
			await new Promise((resolve) => setTimeout(resolve, 300));
			context.runNumber++;
			const newItem = { person: CUSTOMERS[2], json: { id: CUSTOMERS[2], tag: `run${context.runNumber}-item2` } };
			const again = await runAndCheck({ ...receipts, people: [1, 0, 2] }, context, {
				intents: [first.intents[1], first.intents[0], newItem],
			});
			context.runNumber++;
			const newOrders = await runAndCheck(receipts, context);

			expect([first.violations, again.violations, newOrders.violations]).toEqual([[], [], []]);
			expect([first.answers, again.answers, newOrders.answers]).toEqual([
				['sent', 'sent'],
				['duplicate', 'duplicate', 'sent'],
				['sent', 'sent'],
			]);
			expect((await client.state()).transactionalSends).toHaveLength(5);
		},
	);
});
