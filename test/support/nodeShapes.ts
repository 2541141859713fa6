/**
 * One of our nodes run in the shapes n8n runs a node in, in n8n's real WorkflowExecute:
 * - once: Start → node;
 * - branches: Start → Switch → node, every output wired into the node (both branches of an IF merged
 *   into one node): the node runs once per branch;
 * - loop: Start → Loop Over Items → node → back to the loop: the node runs once per batch;
 * each with or without Retry On Fail (n8n runs the node's run again when it throws, or when its first
 * item is an error item, with the same run index), by n8n-core 2.x's own rule or, with `retryRule:
 * '1.x'`, by n8n 1.x's (../harness/n8nLines.ts).
 *
 * Every item the node put out, over all its runs and outputs, comes back with the index of the
 * workflow's input item it answers (followed back through pairedItem), as a marketer reads them with
 * `$('…').item`.
 *
 * Give `workflowId` and `nodeId` to run the same saved workflow again (a schedule's next run): what
 * the node derives from them (a transactional email's External Send ID) is then the same run after run.
 * `again.retryOf` runs a failed execution again as *Executions → Retry* does, from its saved data (with
 * the workflow as it is now where `again.currentWorkflow`).
 */
import type { IDataObject, INodeExecutionData, IRun, IRunData, IConnections } from 'n8n-workflow';

import type { HarnessNode, RunResult } from '../harness';
import { runWorkflow } from '../harness';
import { SHAPE_STAND_INS } from '../harness/shapeStandIns';
import type { NodeRun } from './runNode';
import { nodeName } from './nodeTypes';
import { OUTPUT_FIELD, wordsOf } from './nodeWords';

/** With Retry On Fail: n8n-core's own rule (2.x), or n8n 1.x's (`'1.x'`). */
interface Retried {
	retryOnFail?: boolean;
	retryRule?: '1.x';
}
export type RunShape =
	| ({ kind: 'once' } & Retried)
	| ({ kind: 'branches'; branches: number } & Retried)
	| ({ kind: 'loop'; batchSize: number } & Retried);

/** Retry On Fail's settings in the shapes: two tries, a short wait (n8n-core waits it out for real). */
const RETRY_ON_FAIL = { maxTries: 2, waitBetweenTries: 10 };

interface ShapedAnswer {
	/** The workflow's input item this answers. */
	item: number;
	json: IDataObject;
	/** Which of the node's runs put it out. */
	run: number;
	output: number;
}

export interface ShapedRun {
	result: RunResult;
	answers: ShapedAnswer[];
	/** How many times the node ran (tries of Retry On Fail within a run are one run). */
	runs: number;
}

const SWITCH = 'Switch';
const LOOP = 'Loop Over Items';

export function describeShape(shape: RunShape): string {
	const retry = shape.retryOnFail ? `, Retry On Fail${shape.retryRule === '1.x' ? " (n8n 1.x's rule)" : ''}` : '';
	if (shape.kind === 'branches') return `${shape.branches} merged branches${retry}`;
	if (shape.kind === 'loop') return `a loop of ${shape.batchSize} per pass${retry}`;
	return `once${retry}`;
}

/** The workflow that runs `node` in `shape`: its nodes and connections, and the stand-ins it needs. */
export function shapedWorkflow(node: HarnessNode, shape: RunShape) {
	const { name } = node;
	const shaped: HarnessNode = {
		...node,
		...(shape.retryOnFail ? { retryOnFail: RETRY_ON_FAIL } : {}),
	};
	const to = (target: string) => ({ node: target, type: 'main' as const, index: 0 });
	let nodes: HarnessNode[] = [shaped];
	let connections: IConnections = { Start: { main: [[to(name)]] } };
	if (shape.kind === 'branches') {
		nodes = [{ name: SWITCH, type: 'n8n-nodes-base.switch', parameters: { branches: shape.branches } }, shaped];
		connections = {
			Start: { main: [[to(SWITCH)]] },
			[SWITCH]: { main: Array.from({ length: shape.branches }, () => [to(name)]) },
		};
	} else if (shape.kind === 'loop') {
		nodes = [{ name: LOOP, type: 'n8n-nodes-base.splitInBatches', parameters: { batchSize: shape.batchSize } }, shaped];
		connections = {
			Start: { main: [[to(LOOP)]] },
			[LOOP]: { main: [[], [to(name)]] },
			[name]: { main: [[to(LOOP)]] },
		};
	}
	return { nodes, connections, nodeTypes: SHAPE_STAND_INS };
}

/** A failed execution run again as *Executions → Retry* does: from its saved data, with the saved or the current workflow. */
export interface RunAgain {
	retryOf?: IRun;
	currentWorkflow?: boolean;
}

export async function runNodeInShape(
	type: string,
	run: NodeRun,
	shape: RunShape,
	again: RunAgain = {},
): Promise<ShapedRun> {
	const name = nodeName(type);
	const { items, parameters, continueOnFail, onError, workflowId, nodeId } = run;
	const { nodes, connections, nodeTypes } = shapedWorkflow(
		{ name, type, parameters, continueOnFail, onError, ...(nodeId ? { id: nodeId } : {}) },
		shape,
	);
	const result = await runWorkflow({
		nodes,
		connections,
		items,
		nodeTypes,
		workflowId,
		retryRule: shape.retryOnFail ? shape.retryRule : undefined,
		retryOf: again.retryOf,
		retryWithCurrentWorkflow: again.currentWorkflow,
		credentials:
			'credentials' in run
				? run.credentials
				: { engagementPlatformApi: { restEndpoint: run.endpoint, apiKey: run.apiKey } },
	});
	const runData = result.run.data.resultData.runData;
	const answers: ShapedAnswer[] = [];
	(runData[name] ?? []).forEach((task, runIndex) =>
		(task.data?.main ?? []).forEach((outputItems, output) =>
			(outputItems ?? []).forEach((answer) =>
				answers.push({ item: inputItemOf(runData, name, runIndex, answer), json: answer.json, run: runIndex, output }),
			),
		),
	);
	return { result, answers, runs: runData[name]?.length ?? 0 };
}

/**
 * Every item the node put out on `output` over all its runs, in run order, each paired with the workflow's
 * input item it answers: what one run of the node would have put out for all the items. `field`: where
 * the node's words are (Options → Output Field Name).
 */
export function answersAcrossRuns(
	result: RunResult,
	nodeName: string,
	output = 0,
	field = OUTPUT_FIELD,
): INodeExecutionData[] {
	const runData = result.run.data.resultData.runData;
	return (runData[nodeName] ?? []).flatMap((task, runIndex) =>
		(task.data?.main?.[output] ?? []).map((answer) => {
			// An answer naming another item of its run (`replacedBy`, in the node's words) names it by the
			// run's own index.
			const words = wordsOf(answer.json, field);
			const { replacedBy } = words;
			const json =
				typeof replacedBy === 'number'
					? {
							...answer.json,
							[field]: {
								...words,
								replacedBy: inputItemOf(runData, nodeName, runIndex, { json: {}, pairedItem: { item: replacedBy } }),
							},
						}
					: answer.json;
			return { ...answer, json, pairedItem: { item: inputItemOf(runData, nodeName, runIndex, answer) } };
		}),
	);
}

/** The workflow's input item an output item answers, followed back through each node's pairedItem. */
function inputItemOf(runData: IRunData, nodeName: string, runIndex: number, item: INodeExecutionData): number {
	const index = pairedIndex(item);
	// The loop pairs every batch with the items it was first given (see shapeStandIns.ts).
	const source = runData[nodeName]?.[nodeName === LOOP ? 0 : runIndex]?.source?.[0];
	if (!source || source.previousNode === 'Start') return index;
	const previous = runData[source.previousNode]?.[source.previousNodeRun ?? 0];
	const previousItem = previous?.data?.main?.[source.previousNodeOutput ?? 0]?.[index];
	if (!previousItem) return -1;
	return inputItemOf(runData, source.previousNode, source.previousNodeRun ?? 0, previousItem);
}

function pairedIndex(item: INodeExecutionData): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	if (typeof paired === 'number') return paired;
	return paired?.item ?? -1;
}

/**
 * How many times Retry On Fail ran a run of the node again in the execution: each try logs its summary
 * ("n items → m requests"), and each run of the node is one entry of its run data (an execution retried
 * from saved data holds the runs before the stopped one as they were saved, which it did not run).
 */
export function triesAgainIn(execution: RunResult, name: string, retryOf?: RunResult): number {
	const tries = execution.logs.filter(({ message }) => /^Engagement Platform \S+: \d+ items? → /.test(message)).length;
	const runs = execution.run.data.resultData.runData[name]?.length ?? 0;
	const saved = retryOf ? Math.max(0, (retryOf.run.data.resultData.runData[name]?.length ?? 0) - 1) : 0;
	return Math.max(0, tries - (runs - saved));
}
