/**
 * A workflow of several of our nodes, as marketers build them: a profile sync split into two Update
 * Attributes nodes (each its own attributes, or some the same), a sync then the newsletter node, all
 * three in a chain, a form's responses through an IF into Subscribe and Unsubscribe, or an IF sending
 * each row to one sync or the other. n8n runs each node on all its items before the next, so what stays
 * is the later node's (the model: inExecutionOrder). Besides what every step checks:
 * - each node's rows come out as they came to it: in a chain, the later node's words take the place of
 *   the earlier node's, every other column kept (an earlier node's `error` too), and its run says once
 *   whose answer it replaced;
 * - `overrode`: an item says it set a group state that another node had set otherwise earlier in the
 *   execution only when one had, and does say so when the state it replaced is known (each earlier
 *   setter answered as applied);
 * - the next night, the same rows again: syncs with Send Only Changes that set different attributes send
 *   nothing (where Resend Everything Every is off: with it on, a contact's turn may come).
 */
import fc from 'fast-check';
import type { IConnections, IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { HarnessNode, RunResult } from '../harness';
import { runWorkflow } from '../harness';
import { SHAPE_STAND_INS } from '../harness/shapeStandIns';
import { answersAcrossRuns } from '../support/nodeShapes';
import { rowOf, wordsOf } from '../support/nodeWords';
import type { ItemIntent, PieceName, Violation } from './platformTruth';
import { GROUP, PIECES } from './platformTruth';
import type { RowPlan } from './rows';
import { describeRows, rowPlan, tallyRows, withRowColumns, wordsField } from './rows';
import type { NodeKey, Ran, RunPlan, SequenceModel, SequenceReal } from './workflowRuns';
import {
	baseJson,
	beginStep,
	describePlan,
	drainFaults,
	faultName,
	faultOf,
	BASE_FAULTS,
	injectFault,
	isNewsletter,
	lastSeq,
	NODES,
	often,
	parameters,
	pathOf,
	person,
	rarely,
	requestsSince,
	settleStep,
	valueOf,
	weighted,
} from './workflowRuns';
import type { Person } from './workspaces';
import { emailOf } from './workspaces';

const WORKFLOW_KINDS = [
	'two syncs in a chain',
	'a sync, then the newsletter node',
	'three in a chain',
	'an IF into Subscribe and Unsubscribe',
	'an IF into two syncs',
] as const;
type WorkflowKind = (typeof WORKFLOW_KINDS)[number];

export interface NodesPlan {
	kind: WorkflowKind;
	/** The nodes as wired: a chain in its order; an IF's true branch, then its false one. Each with the items it gets. */
	nodes: RunPlan[];
	/** Who each of the workflow's items is. */
	people: Person[];
	/** An IF's: which workflow items take the true branch. */
	trueBranch?: boolean[];
	/** Whether the syncs may set the same attributes (else each its own). */
	overlapping: boolean;
	rows: RowPlan;
	/** A fault on the path of the workflow's first node, for its first request(s). */
	fault?: RunPlan['fault'];
	/** The next night the same rows again, nothing changed. */
	nextNight: boolean;
}

/** The IF's column: true for the items of its true branch. */
const BRANCH = 'takesTrueBranch';
const IF_NODE = 'If';

// ---- generation -------------------------------------------------------------------------------

/** The attributes each of two syncs sets when they set different ones; no group where a newsletter node sets it. */
const ALLOTMENTS: Array<[PieceName[], PieceName[]]> = [
	[
		['tier', 'email_subscribe'],
		['city', GROUP],
	],
	[['city'], ['tier', 'email_subscribe', GROUP]],
];
const withoutGroup = (pieces: PieceName[]) => pieces.filter((piece) => piece !== GROUP);

/** An attribute item's values among `pieces`: an attribute often, email_subscribe and the group rarely; at least one. */
const setsAmong = (pieces: readonly PieceName[]): fc.Arbitrary<ItemIntent['sets']> =>
	fc
		.record(
			Object.fromEntries(
				pieces.map((piece) => [
					piece,
					piece === 'tier' || piece === 'city' ? often(valueOf(piece)) : rarely(valueOf(piece)),
				]),
			) as Record<PieceName, fc.Arbitrary<string | undefined>>,
		)
		.map((sets) => Object.fromEntries(Object.entries(sets).filter(([, value]) => value !== undefined)))
		.filter((sets) => Object.keys(sets).length > 0);

const nodeSettings = fc.record({
	sendOnlyChanges: weighted([true, 3], [false, 1]),
	batchSize: often(fc.integer({ min: 1, max: 3 })),
	parallelRequests: fc.integer({ min: 1, max: 8 }),
	volatile: weighted([false, 3], [true, 1]),
});

export const workflowOfNodes = (maxItems: number): fc.Arbitrary<NodesPlan> =>
	fc
		.record({
			kind: weighted<WorkflowKind>(
				['two syncs in a chain', 3],
				['a sync, then the newsletter node', 2],
				['three in a chain', 2],
				['an IF into Subscribe and Unsubscribe', 3],
				['an IF into two syncs', 2],
			),
			overlapping: fc.boolean(),
			allotment: fc.constantFrom(...ALLOTMENTS),
			swapped: fc.boolean(),
			workspace: weighted<0 | 1>([0, 4], [1, 1]),
			identifyBy: weighted<RunPlan['identifyBy']>(['external_id', 3], ['email', 1]),
			settings: fc.tuple(nodeSettings, nodeSettings, nodeSettings),
			oneState: fc.boolean(),
			people: fc.array(person, { minLength: 1, maxLength: maxItems }),
			seeds: fc.array(fc.nat(), { minLength: maxItems * 3, maxLength: maxItems * 3 }),
			rows: rowPlan(),
			fault: faultOf(BASE_FAULTS),
			nextNight: fc.boolean(),
		})
		// A workflow run again the next night is one whose quiet night is checked: each sync its own
		// attributes, with Send Only Changes, no changing values, no fault.
		.map((drawn): Drawn =>
			drawn.nextNight
				? {
						...drawn,
						overlapping: false,
						fault: undefined,
						settings: drawn.settings.map((settings) => ({ ...settings, sendOnlyChanges: true, volatile: false })),
					}
				: drawn,
		)
		.chain((drawn) =>
			fc
				.record({
					first: fc.array(setsAmong(piecesOf(drawn, 'crm')), { minLength: maxItems, maxLength: maxItems }),
					second: fc.array(setsAmong(piecesOf(drawn, 'webForm')), { minLength: maxItems, maxLength: maxItems }),
					states: fc.array(valueOf(GROUP), { minLength: maxItems, maxLength: maxItems }),
					branches: fc.array(fc.boolean(), { minLength: maxItems, maxLength: maxItems }),
				})
				.map((values) => planOf(drawn, values)),
		);

interface Drawn {
	kind: WorkflowKind;
	overlapping: boolean;
	allotment: [PieceName[], PieceName[]];
	swapped: boolean;
	workspace: 0 | 1;
	identifyBy: RunPlan['identifyBy'];
	settings: Array<{ sendOnlyChanges: boolean; batchSize?: number; parallelRequests: number; volatile: boolean }>;
	oneState: boolean;
	people: Person[];
	rows: RowPlan;
	fault?: RunPlan['fault'];
	nextNight: boolean;
}

/** The pieces a sync may set: any where the syncs overlap, else its allotment (less the group where a newsletter node sets it). */
function piecesOf(drawn: Drawn, sync: 'crm' | 'webForm'): PieceName[] {
	if (drawn.overlapping) return [...PIECES];
	const [crm, webForm] = drawn.swapped ? [drawn.allotment[1], drawn.allotment[0]] : drawn.allotment;
	const pieces = sync === 'crm' ? crm : webForm;
	const withNewsletter = drawn.kind === 'a sync, then the newsletter node' || drawn.kind === 'three in a chain';
	return withNewsletter ? withoutGroup(pieces) : pieces;
}

/** The plan the drawn choices make: each node's items, each sync's values among the pieces it may set. */
function planOf(
	drawn: Drawn,
	values: {
		first: Array<ItemIntent['sets']>;
		second: Array<ItemIntent['sets']>;
		states: string[];
		branches: boolean[];
	},
): NodesPlan {
	const { kind, people, workspace, identifyBy, rows } = drawn;
	const node = (key: NodeKey, index: number, items: ItemIntent[], extra: Partial<RunPlan> = {}): RunPlan => {
		const { volatile, ...settings } = drawn.settings[index];
		return {
			node: key,
			workspace,
			identifyBy,
			...settings,
			...(!isNewsletter(key) && { volatile, column: `attrs_${key}` }),
			rows,
			items,
			...extra,
		};
	};
	const syncItems = (which: 'first' | 'second', at: number[]) =>
		at.map((index) => ({ user: people[index], sets: values[which][index] }));
	const all = people.map((_, index) => index);
	const stateItems = (at: number[], state?: string) =>
		at.map((index) => ({ user: people[index], sets: { [GROUP]: state ?? values.states[index] } }));
	const newsletter = (index: number) =>
		drawn.oneState
			? node('newsletter', index, stateItems(all, values.states[0]), { oneState: true })
			: node('newsletter', index, stateItems(all));

	let nodes: RunPlan[];
	let trueBranch: boolean[] | undefined;
	if (kind === 'two syncs in a chain')
		nodes = [node('crm', 0, syncItems('first', all)), node('webForm', 1, syncItems('second', all))];
	else if (kind === 'a sync, then the newsletter node')
		nodes = [node('crm', 0, syncItems('first', all)), newsletter(1)];
	else if (kind === 'three in a chain')
		nodes = [node('crm', 0, syncItems('first', all)), node('webForm', 1, syncItems('second', all)), newsletter(2)];
	else if (kind === 'an IF into Subscribe and Unsubscribe') {
		trueBranch = people.map((_, index) => values.states[index] === 'subscribed');
		const [optedIn, optedOut] = [all.filter((index) => trueBranch![index]), all.filter((index) => !trueBranch![index])];
		nodes = [
			node('newsletter', 0, stateItems(optedIn), { oneState: true }),
			node('optOut', 1, stateItems(optedOut), { oneState: true }),
		];
	} else {
		trueBranch = people.map((_, index) => values.branches[index]);
		nodes = [
			node(
				'crm',
				0,
				syncItems(
					'first',
					all.filter((index) => trueBranch![index]),
				),
			),
			node(
				'webForm',
				1,
				syncItems(
					'second',
					all.filter((index) => !trueBranch![index]),
				),
			),
		];
	}
	return {
		kind,
		nodes,
		people,
		...(trueBranch && { trueBranch }),
		overlapping: drawn.overlapping,
		rows,
		...(drawn.fault && { fault: drawn.fault }),
		nextNight: drawn.nextNight,
	};
}

// ---- the workflow -------------------------------------------------------------------------------

/** Which workflow items each node gets, in order. */
function inputItemsOf(plan: NodesPlan, position: number): number[] {
	const all = plan.people.map((_, index) => index);
	if (!plan.trueBranch) return all;
	return all.filter((index) => plan.trueBranch![index] === (position === 0));
}

/** The workflow's rows: each node's columns for the items it gets, the IF's, and the rows' own. */
function workflowRows(plan: NodesPlan): IDataObject[] {
	return plan.people.map((who, index) => {
		let row: IDataObject = { id: who, email: emailOf(who) };
		plan.nodes.forEach((node, position) => {
			const at = inputItemsOf(plan, position).indexOf(index);
			if (at !== -1) row = { ...row, ...baseJson(node, node.items[at]) };
		});
		if (plan.trueBranch) row[BRANCH] = plan.trueBranch[index];
		return withRowColumns(row, plan.rows);
	});
}

function workflowOf(plan: NodesPlan, resendEveryDays: number): { nodes: HarnessNode[]; connections: IConnections } {
	const to = (name: string) => ({ node: name, type: 'main' as const, index: 0 });
	const nodes: HarnessNode[] = plan.nodes.map((node) => ({
		...NODES[node.node],
		parameters: parameters(node, resendEveryDays),
		continueOnFail: true,
	}));
	const names = nodes.map(({ name }) => name);
	if (plan.trueBranch) {
		return {
			nodes: [{ name: IF_NODE, type: 'n8n-nodes-base.if', parameters: { field: BRANCH } }, ...nodes],
			connections: {
				Start: { main: [[to(IF_NODE)]] },
				[IF_NODE]: { main: [[to(names[0])], [to(names[1])]] },
			},
		};
	}
	const connections: IConnections = { Start: { main: [[to(names[0])]] } };
	names.slice(1).forEach((name, index) => (connections[names[index]] = { main: [[to(name)]] }));
	return { nodes, connections };
}

function describeNodesPlan(plan: NodesPlan): string {
	const wiring = plan.trueBranch
		? `${IF_NODE} → true: ${NODES[plan.nodes[0].node].name}, false: ${NODES[plan.nodes[1].node].name}`
		: plan.nodes.map(({ node }) => NODES[node].name).join(' → ');
	const attributes = plan.kind.includes('sync')
		? plan.overlapping
			? ', the syncs may set the same attributes'
			: ', each sync its own attributes'
		: '';
	return [
		`a workflow of ${plan.nodes.length} nodes (${plan.kind}: ${wiring}${attributes}${describeRows(plan.rows) ? `, ${describeRows(plan.rows)}` : ''}${plan.fault ? `, ${faultName(plan.fault)}` : ''})`,
		...plan.nodes.map((node) => `${describePlan({ ...node, rows: undefined })}`),
	].join(' | ');
}

// ---- the step ----------------------------------------------------------------------------------

type Command = fc.AsyncCommand<SequenceModel, SequenceReal>;

export class WorkflowOfNodes implements Command {
	constructor(readonly plan: NodesPlan) {}

	check(): boolean {
		return true;
	}

	async run(model: SequenceModel, real: SequenceReal): Promise<void> {
		const { plan } = this;
		const first = await runNight(plan, model, real, this.toString(), plan.fault);
		if (!plan.nextNight) return;
		const firstNight = real.stepStartedAt;
		const workspace = real.workspaces[plan.nodes[0].workspace];
		const seq = await lastSeq(workspace);
		await runNight(plan, model, real, `the next night, the same rows again`, undefined, 24);
		const quiet = quietContacts(plan, real, firstNight);
		if (!first.clean || quiet.size === 0) return;
		real.quietNights++;
		const wasted = (await requestsSince(workspace, '/users/track', seq))
			.flatMap((request) => ((request.body as IDataObject).attributes as IDataObject[] | undefined) ?? [])
			.filter((object) => quiet.has(`${nodeOfObject(plan, object)} ${String(object.external_id ?? object.email)}`));
		if (wasted.length === 0) return;
		const violation: Violation = {
			kind: 'sent on a quiet night',
			message: `the next night, the same rows again with nothing changed, the syncs sent ${wasted.length} attribute objects of contacts none of whose values was due, e.g. ${JSON.stringify(wasted[0])}`,
		};
		real.violations.push({ ...violation, step: real.steps });
		if (real.stopAt?.(violation)) throw new Error(`step ${real.steps}: ${violation.message}`);
	}

	toString(): string {
		return `${describeNodesPlan(this.plan)}${this.plan.nextNight ? '; the next night the same rows again' : ''}`;
	}
}

/** The sync that sent an attribute object: the one whose items set its keys (each sync its own). */
function nodeOfObject(plan: NodesPlan, object: IDataObject): NodeKey | undefined {
	const pieces = Object.keys(object).map((key) => (key === 'subscription_groups' ? GROUP : key));
	return plan.nodes.find(
		({ node, items }) => !isNewsletter(node) && items.some(({ sets }) => pieces.some((piece) => piece in sets)),
	)?.node;
}

/**
 * What the first night left for the next: whether every item was answered as applied, and no node said
 * it could not trust what it recorded (then the next night sends everything, as its hint said).
 */
interface Night {
	clean: boolean;
}

/**
 * The contacts a quiet night sends nothing for (the syncs each set their own attributes with Send Only
 * Changes, no changing values, and the first night had every item answered as applied): every contact
 * where Resend Everything Every is off; with it on at 30 days on a daily schedule, those whose values the
 * first night accepted whole (due again at the earliest in the second half of the period). Elsewhere a
 * contact's turn may come on any night.
 */
function quietContacts(plan: NodesPlan, real: SequenceReal, firstNight: number): Set<string> {
	const everyDays = real.schedule?.resendEveryDays ?? 0;
	const quiet = new Set<string>();
	for (const node of plan.nodes) {
		if (isNewsletter(node.node)) continue;
		for (const { user } of node.items) {
			const contact = node.identifyBy === 'email' ? emailOf(user) : user;
			const accepted = real.lastAccepted.get(`${node.node} ${node.workspace} ${node.identifyBy} ${user}`);
			if (everyDays === 0 || (everyDays === 30 && real.schedule?.kind === 'daily' && accepted === firstNight))
				quiet.add(`${node.node} ${contact}`);
		}
	}
	return quiet;
}

async function runNight(
	plan: NodesPlan,
	model: SequenceModel,
	real: SequenceReal,
	description: string,
	fault: NodesPlan['fault'],
	gapHours?: number,
): Promise<Night> {
	const step = beginStep(real, gapHours);
	real.workflowsOfNodes++;
	real.log.push(description);
	for (const node of plan.nodes)
		if (node.items.length > 0) real.plans.push({ plan: node, label: `step ${step} (${NODES[node.node].name})` });
	const head = { ...plan.nodes[0], fault };
	const workspace = real.workspaces[head.workspace];
	await injectFault(head, real, workspace);
	const rows = workflowRows(plan);
	real.runs++;
	real.items += rows.length;
	if (plan.nodes.some(({ volatile }) => volatile)) real.volatileRuns++;
	tallyRows(real.rows, plan.rows);
	const result = await runWorkflow({
		workflowId: real.workflowId,
		...workflowOf(plan, real.schedule?.resendEveryDays ?? 0),
		nodeTypes: SHAPE_STAND_INS,
		items: rows,
		credentials: workspace.credentials,
	});
	if (fault) await drainFaults(workspace, pathOf(head));

	const field = wordsField(plan.rows);
	const names: string[] = plan.nodes.map(({ node }) => NODES[node].name);
	const ran = [...new Set(result.executionOrder.filter((name) => names.includes(name)))];
	const outputs = new Map(ran.map((name) => [name, byInputItem(answersAcrossRuns(result, name, 0, field))]));
	const entries: Ran[] = ran.map((name) => {
		const position = names.indexOf(name);
		const node = plan.nodes[position];
		const inputItems = inputItemsOf(plan, position);
		const before = plan.trueBranch || position === 0 ? undefined : outputs.get(names[position - 1]);
		return {
			plan: node,
			label: `${name}: `,
			result,
			inputItems,
			// As it came to the node: after a node before it in a chain, that node's row (its words aside).
			rows: inputItems.map((index) => (before?.get(index) ? rowOf(before.get(index)!.json, field) : rows[index])),
		};
	});
	const found = [
		...missingNodes(plan, names, ran),
		...replacedWordsSaid(plan, names, ran, result),
		...overrodeChecked(entries, outputs, field),
	];
	await settleStep(model, real, entries, { inOrder: true, alsoFound: found });
	// A run in doubt (another run unfinished, a value set twice) cannot trust what it records: it says so.
	const inDoubt = ran.some((name) =>
		(result.run.data.resultData.runData[name]?.[0]?.hints ?? []).some(
			({ message }) =>
				message.includes('the next run sends every item once more') ||
				message.includes('Send Only Changes sends every item once on the next run'),
		),
	);
	const clean = entries.every(({ plan: node, inputItems }) =>
		(inputItems ?? []).every((index) => {
			const words = wordsOf(outputs.get(NODES[node.node].name)?.get(index)?.json, field);
			return words.status !== 'failed' && !(Array.isArray(words.warnings) && words.warnings.length > 0);
		}),
	);
	return { clean: clean && !fault && !inDoubt };
}

/** A node's answers by the workflow item each answers. */
function byInputItem(output: INodeExecutionData[]): Map<number, INodeExecutionData> {
	return new Map(output.map((answer) => [(answer.pairedItem as { item: number }).item, answer]));
}

/** Every node given items ran. */
function missingNodes(plan: NodesPlan, names: string[], ran: string[]): Violation[] {
	return names
		.filter((name, position) => inputItemsOf(plan, position).length > 0 && !ran.includes(name))
		.map((name) => ({ kind: 'run', message: `${name} was given items and did not run` }));
}

/** In a chain, each node after the first says once that it replaced the answer of the node before it. */
function replacedWordsSaid(plan: NodesPlan, names: string[], ran: string[], result: RunResult): Violation[] {
	if (plan.trueBranch) return [];
	return names.slice(1).flatMap((name, index) => {
		if (!ran.includes(name)) return [];
		const hints = (result.run.data.resultData.runData[name]?.[0]?.hints ?? []).map(({ message }) => message);
		const said = hints.some(
			(message) =>
				message.includes("another Engagement Platform node's answer") && message.includes(`"${names[index]}"`),
		);
		return said
			? []
			: [
					{
						kind: 'words replaced unsaid',
						message: `${name} replaced the answers of "${names[index]}" in its rows and its hints do not say so: ${JSON.stringify(hints)}`,
					},
				];
	});
}

/**
 * `overrode`, over the nodes in the order n8n ran them: an item says it only where a node before it set
 * the same contact's group state otherwise; and an item of a newsletter node answered with the state it
 * set, its contact's only one in the node, says it where the last node before it to set that state did
 * so otherwise and was answered as applied (what the nodes note is the last proven setter's).
 */
function overrodeChecked(
	entries: Ran[],
	outputs: Map<string, Map<number, INodeExecutionData>>,
	field: string,
): Violation[] {
	const violations: Violation[] = [];
	const setters: Array<{ node: string; contact: string; value: string }> = [];
	const lastProven = new Map<string, { node: string; value: string } | undefined>();
	for (const { plan, inputItems = [] } of entries) {
		const name = NODES[plan.node].name;
		const contactOf = (user: Person) => (plan.identifyBy === 'email' ? emailOf(user) : user);
		const mine: typeof setters = [];
		plan.items.forEach(({ user, sets }, at) => {
			const value = sets[GROUP];
			if (value === undefined) return;
			const contact = contactOf(user);
			const words = wordsOf(outputs.get(name)?.get(inputItems[at])?.json, field);
			const said = words.overrode === undefined ? undefined : String(words.overrode);
			const earlier = setters.filter((setter) => setter.contact === contact && setter.value !== value);
			if (said !== undefined && !earlier.some(({ node }) => said.includes(`"${node}"`)))
				violations.push({
					kind: 'overrode',
					message: `${name}: item ${at} (${user}) says it overrode ${JSON.stringify(said)}, and no node before it set ${user}'s group state otherwise`,
				});
			const last = lastProven.get(contact);
			const alone = plan.items.filter((item) => item.user === user && item.sets[GROUP] !== undefined).length === 1;
			const applied = words.status === value && !(Array.isArray(words.warnings) && words.warnings.length > 0);
			if (isNewsletter(plan.node) && alone && applied && last && last.value !== value && said === undefined)
				violations.push({
					kind: 'overrode unsaid',
					message: `${name}: item ${at} (${user}) set the group ${value}, which "${last.node}" had set ${last.value} earlier in this execution, and does not say it overrode it`,
				});
			mine.push({ node: name, contact, value });
			if (words.replacedBy !== undefined || words.status === 'failed') return;
			const proven =
				(words.status === value || words.status === 'updated') &&
				!(Array.isArray(words.warnings) && words.warnings.length > 0) &&
				!Array.isArray(words.unchanged);
			lastProven.set(contact, proven ? { node: name, value } : undefined);
		});
		setters.push(...mine);
	}
	return violations;
}
