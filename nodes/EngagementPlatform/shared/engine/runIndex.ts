import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Which run of the node this is in its execution: n8n runs a node several times in one execution
 * (Loop Over Items, merged branches, an agent's tool calls), each with its own run index, and tries
 * one run again under Retry On Fail with the same one. n8n's execute context holds it as `runIndex`
 * (n8n 1.x and 2.x); where it does not, n8n's data proxy gives it, at a higher cost.
 */
export function runIndexOf(context: IExecuteFunctions): number {
	const held = (context as unknown as { runIndex?: unknown }).runIndex;
	if (typeof held === 'number') return held;
	return Number(context.getWorkflowDataProxy(0).$runIndex);
}
