/**
 * What the platform last said about the current rate-limit window of one endpoint group: how many
 * requests it still takes (X-RateLimit-Remaining) and when the window resets (X-RateLimit-Reset).
 * Every client of the same key hears the same figures, so pacing from them shares the budget among
 * executions on one worker or many without any state of our own outside this run.
 */
/** More sharers than this are not told apart: the spacing is already many times the window's pace. */
const MAX_SHARERS = 64;
/** How long a spent window with a reset in the past is held (the backoff's floor, pacing/rateLimitWait.ts). */
const SPENT_WINDOW_FLOOR_MS = 500;

export class PlatformWindow {
	private remaining = 0;
	private resetAtMs = 0;
	/** The first figure this run heard of the current window, and its own answers since. */
	private firstRemaining = 0;
	private answersSinceFirst = 0;
	private sharersEstimate = 1;

	/**
	 * Takes in one answer's figures. Answers can arrive out of order: within one window the lowest
	 * remaining wins; a later window replaces an earlier one. A window spent whose reset is already
	 * past (the platform's clock behind ours) says nothing of when the next opens: it is held for the
	 * floor of every wait, as a 429 without headers is, never left open at once.
	 */
	observe(remaining: number, reportedResetAtMs: number, now: number): void {
		const resetAtMs = remaining <= 0 && reportedResetAtMs <= now ? now + SPENT_WINDOW_FLOOR_MS : reportedResetAtMs;
		if (resetAtMs > this.resetAtMs) {
			this.resetAtMs = resetAtMs;
			this.remaining = remaining;
			this.firstRemaining = remaining;
			this.answersSinceFirst = 0;
		} else if (resetAtMs === this.resetAtMs) {
			this.remaining = Math.min(this.remaining, remaining);
			this.answersSinceFirst++;
			// Each answer of ours is one request of ours counted; the rest of the drop is other clients'.
			if (this.answersSinceFirst >= 2) {
				const drop = this.firstRemaining - this.remaining;
				this.sharersEstimate = Math.min(MAX_SHARERS, Math.max(1, drop / this.answersSinceFirst));
			}
		}
	}

	/**
	 * How many clients spend this window's budget at our pace, ourselves included: the window's drop
	 * over our own share of it, carried from window to window.
	 */
	sharers(): number {
		return this.sharersEstimate;
	}

	/** Whether the platform has described a window that has not reset yet. */
	isOpen(now: number): boolean {
		return this.resetAtMs > now;
	}

	/** Whether a window was described and has since reset: nothing is known of the new one yet. */
	hasReset(now: number): boolean {
		return this.resetAtMs > 0 && this.resetAtMs <= now;
	}

	/** Requests the window still takes once this run's own unanswered ones are counted. */
	budget(inFlight: number): number {
		return this.remaining - inFlight;
	}

	/** Milliseconds until the window resets, never more than the documented window length. */
	untilReset(now: number, documentedWindowMs = Number.POSITIVE_INFINITY): number {
		return Math.min(this.resetAtMs - now, documentedWindowMs);
	}

	/**
	 * The pause between two starts that spreads the remaining budget evenly over the rest of the
	 * window. When every execution paces this way, their combined rate falls as the budget does and
	 * reaches the limit as the window ends, instead of all bursting at the reset and meeting 429s.
	 */
	spacingMs(now: number, inFlight: number, documentedWindowMs?: number): number {
		const budget = this.budget(inFlight);
		if (budget <= 0) return this.untilReset(now, documentedWindowMs);
		return (this.sharers() * this.untilReset(now, documentedWindowMs)) / (budget + 1);
	}
}
