/** Reading what n8n's queue-mode processes logged (at info level) about the executions they handled. */

/** Our engine's line at the end of every operation run: `Engagement Platform /users/track: 4 items → 1 request: 4 succeeded, 0 failed`. */
export const NODE_SUMMARY = /Engagement Platform \/\S+: \d+ items? → \d+ requests?: \d+ succeeded, \d+ failed/;

/**
 * What a worker logged from `Worker started execution <id>` to `Worker finished execution <id>`
 * (other executions' lines included when it ran several at once), or undefined when that worker
 * did not finish it.
 */
export function executionLog(workerLog: string, executionId: string): string | undefined {
	const start = workerLog.indexOf(`Worker started execution ${executionId} (`);
	if (start < 0) return undefined;
	const finishLine = `Worker finished execution ${executionId} (`;
	const finish = workerLog.indexOf(finishLine, start);
	if (finish < 0) return undefined;
	return workerLog.slice(start, finish + finishLine.length);
}

/** Whether a main or webhook processor handed the execution to the workers (its log line when it enqueues one). */
export function enqueuedBy(processLog: string, executionId: string): boolean {
	return processLog.includes(`Enqueued execution ${executionId} (`);
}
