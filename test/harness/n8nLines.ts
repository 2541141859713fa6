/**
 * What differs between n8n's lines in how they run a node again, for tests run by n8n-core 2.41.
 *
 * Retry On Fail: n8n-core 2.x tries a node's run again when it throws or when its first output item's
 * `json.error` is anything but undefined, null or false (`isErrorValue`, workflow-execute.js); n8n-core
 * 1.x when it is anything but undefined (1.123.81: `runNodeData.data?.[0]?.[0]?.json?.error !==
 * undefined`), so a row's own `error: null` makes 1.x run it again. `useRetryRuleOf1x` puts 1.x's loop
 * around n8n-core's own `runNode` and takes 2.x's out (`getRetryParams` → one try), so the node runs as
 * 1.x runs it: the same tries, waits and run index.
 *
 * Executions → Retry: `retriedExecutionData` is what n8n's ExecutionService.retry hands to the workflow
 * runner from a failed execution (2.41.1 and 1.123.81 alike): the saved run data, the node's context
 * included, without the run's error and without the failed node's last run, which is run again. With
 * the currently saved workflow (`current`), n8n's ExecutionService.retry (`loadWorkflow`) puts that
 * workflow's nodes, found by name, in place of the saved ones on the execution's stack, so that the
 * node runs again with its parameters as they are now.
 */
import type { IRun, IRunExecutionData, IRunNodeResponse, Workflow } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import type { WorkflowExecute } from 'n8n-core';

type RunNode = (...args: unknown[]) => Promise<IRunNodeResponse>;

export function useRetryRuleOf1x(workflowExecute: WorkflowExecute): void {
	const engine = workflowExecute as unknown as {
		runNode: RunNode;
		getRetryParams: (executionData: unknown) => [number, number];
	};
	const runNode = engine.runNode.bind(workflowExecute);
	const retryParams = engine.getRetryParams.bind(workflowExecute);
	engine.getRetryParams = () => [1, 0];
	engine.runNode = async (...args: unknown[]) => {
		const [maxTries, waitBetweenTries] = retryParams(args[1]);
		for (let tryIndex = 0; ; tryIndex++) {
			try {
				if (tryIndex !== 0) await sleep(waitBetweenTries);
				let result = await runNode(...args);
				// n8n-core 1.x: `error` anything but undefined.
				while (result.data?.[0]?.[0]?.json?.error !== undefined && tryIndex < maxTries - 1) {
					await sleep(waitBetweenTries);
					result = await runNode(...args);
					tryIndex++;
				}
				return result;
			} catch (error) {
				if (tryIndex >= maxTries - 1) throw error;
			}
		}
	};
}

export function retriedExecutionData(failed: IRun, current?: Workflow): IRunExecutionData {
	// n8n saves the execution and reads it back as JSON before it retries it.
	const data = JSON.parse(JSON.stringify(failed.data)) as IRunExecutionData;
	if (current) {
		for (const stack of data.executionData?.nodeExecutionStack ?? []) {
			const node = current.getNode(stack.node.name);
			if (!node)
				throw new Error(
					`Could not find the node "${stack.node.name}" in workflow. It probably got deleted or renamed. Without it the workflow can sadly not be retried.`,
				);
			stack.node = node;
		}
	}
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const nodeRunData = data.resultData.runData?.[lastNodeExecuted];
		if (nodeRunData && nodeRunData.length > 0 && nodeRunData[nodeRunData.length - 1].error !== undefined)
			nodeRunData.pop();
	}
	return data;
}
