/** One broken rule: the field as the user sees it (a path such as `Event Properties.price`), the rule, the fix. */
export interface InputProblem {
	field: string;
	rule: string;
	fix: string;
}

/**
 * One item's input breaks the spec's rules. Carries what the user needs to fix it: the field, the
 * rule and the fix of the first problem, and every problem found (`problems`, the first among them).
 */
export class ItemInputError extends Error {
	readonly problems: InputProblem[];
	/** Every item of the run broke this same rule: the run says it once (readItems). */
	ofEveryItem = false;

	constructor(
		readonly field: string,
		readonly rule: string,
		readonly fix: string,
		more: InputProblem[] = [],
	) {
		super(`${field}: ${rule}`);
		this.name = 'ItemInputError';
		this.problems = [{ field, rule, fix }, ...more];
	}
}
