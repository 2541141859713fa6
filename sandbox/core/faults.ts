import type { FaultRule } from '../adminApiTypes';

/** Injected faults, consumed in the order they were added: the first rule matching a request applies. */
export class FaultQueue {
	private rules: Array<FaultRule & { remaining: number }> = [];

	add(rules: readonly FaultRule[]): void {
		for (const rule of rules) this.rules.push({ ...rule, remaining: rule.times });
	}

	/** The rule for this request, if any; its count goes down by one. */
	take(method: string, path: string): FaultRule | undefined {
		const index = this.rules.findIndex(
			(rule) => rule.path === path && (rule.method === undefined || rule.method.toUpperCase() === method),
		);
		if (index === -1) return undefined;
		const rule = this.rules[index];
		rule.remaining--;
		if (rule.remaining <= 0) this.rules.splice(index, 1);
		return rule;
	}

	/** Drops every rule still pending. */
	clear(): void {
		this.rules = [];
	}

	get pending(): number {
		return this.rules.length;
	}
}

/** Why a fault rule is unusable, or undefined when it is fine. */
export function faultRuleProblem(rule: unknown): string | undefined {
	if (typeof rule !== 'object' || rule === null) return 'a fault rule must be an object';
	const r = rule as Partial<FaultRule>;
	if (typeof r.path !== 'string' || !r.path.startsWith('/')) return 'path must be an exact path starting with /';
	if (!Number.isInteger(r.times) || (r.times as number) < 1) return 'times must be an integer of at least 1';
	if (
		!['status', 'reset-before', 'reset-after', 'slow', 'unplaced-error', 'answer', 'headers'].includes(r.kind as string)
	) {
		return 'kind must be status, reset-before, reset-after, slow, unplaced-error, answer or headers';
	}
	if (r.kind === 'headers' && (typeof r.answerHeaders !== 'object' || r.answerHeaders === null)) {
		return "a 'headers' fault needs answerHeaders";
	}
	if (
		r.kind === 'answer' &&
		r.status !== undefined &&
		!(Number.isInteger(r.status) && r.status >= 200 && r.status <= 599)
	)
		return "an 'answer' fault's status must be between 200 and 599";
	if (
		r.kind === 'status' &&
		!(Number.isInteger(r.status) && (r.status as number) >= 400 && (r.status as number) <= 599)
	) {
		return "a 'status' fault needs status between 400 and 599";
	}
	if (r.queuedMs !== undefined && !(r.kind === 'reset-after' && typeof r.queuedMs === 'number' && r.queuedMs >= 0)) {
		return "queuedMs is a number of milliseconds, on a 'reset-after' fault";
	}
	if (r.kind === 'slow' && !(typeof r.delayMs === 'number' && r.delayMs >= 0)) {
		return "a 'slow' fault needs delayMs";
	}
	if (r.kind === 'unplaced-error' && r.message !== undefined && typeof r.message !== 'string') {
		return "an 'unplaced-error' fault's message must be a string";
	}
	if (r.retryAfter !== undefined && typeof r.retryAfter !== 'string') return 'retryAfter must be a string';
	if (r.method !== undefined && typeof r.method !== 'string') return 'method must be a string';
	return undefined;
}
