/**
 * Work an endpoint leaves running after it has answered (transactional status changes and their
 * postbacks). A reset or the sandbox closing stops it all: pending timers are cleared, outgoing
 * requests aborted, and nothing new starts, so no stale postback reaches a later test.
 */
export class BackgroundTasks {
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly aborter = new AbortController();

	/** Aborted when the tasks are stopped: pass it to outgoing requests. */
	get signal(): AbortSignal {
		return this.aborter.signal;
	}

	get stopped(): boolean {
		return this.aborter.signal.aborted;
	}

	/** Runs `task` after `delayMs`, unless stopped first. A task's failure is swallowed: it must never reach the server. */
	after(delayMs: number, task: () => void | Promise<void>): void {
		if (this.stopped) return;
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			if (this.stopped) return;
			Promise.resolve()
				.then(task)
				.catch(() => undefined);
		}, delayMs);
		// A pending status change does not keep a test process (or the CLI after SIGTERM) alive.
		timer.unref();
		this.timers.add(timer);
	}

	stop(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.aborter.abort();
	}
}
