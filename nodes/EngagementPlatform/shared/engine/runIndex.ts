import type { IExecuteFunctions } from 'n8n-workflow';

const runIndexes = new WeakMap<IExecuteFunctions, number>();

/**
 * Which run of the node this is in its execution: n8n runs a node several times in one execution
 * (Loop Over Items, merged branches, an agent's tool calls), each with its own run index, and tries
 * one run again under Retry On Fail with the same one. Only n8n's data proxy gives it; read once per run.
 */
export function runIndexOf(context: IExecuteFunctions): number {
	let runIndex = runIndexes.get(context);
	if (runIndex === undefined) {
		runIndex = Number(context.getWorkflowDataProxy(0).$runIndex);
		runIndexes.set(context, runIndex);
	}
	return runIndex;
}
