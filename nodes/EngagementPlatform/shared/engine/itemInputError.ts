/**
 * One item's input breaks one of the spec's rules. Carries what the user needs to fix it:
 * the field (a path such as `properties.price`), the rule, and the fix.
 */
export class ItemInputError extends Error {
	constructor(
		readonly field: string,
		readonly rule: string,
		readonly fix: string,
	) {
		super(`${field}: ${rule}`);
		this.name = 'ItemInputError';
	}
}
