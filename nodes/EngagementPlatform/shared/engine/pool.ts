/** Runs `work` over every task with at most `parallel` at once; `shouldStop` ends it early. */
export async function runPool<T>(
	tasks: T[],
	parallel: number,
	work: (task: T, index: number) => Promise<void>,
	shouldStop: () => boolean,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < tasks.length && !shouldStop()) {
			const index = next++;
			await work(tasks[index], index);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, tasks.length)) }, worker));
}
