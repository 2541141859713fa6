import { refuse, type Checked } from './checked';

/**
 * Event and purchase objects have fixed fields (custom data goes in `properties`), so an unknown key is
 * most likely a misspelling: it is refused rather than silently ignored.
 */
export function unknownFieldProblem(
	object: Record<string, unknown>,
	known: ReadonlySet<string>,
	what: string,
): Checked<never> | undefined {
	const unknown = Object.keys(object).find((key) => !known.has(key));
	if (unknown === undefined) return undefined;
	return refuse(`unknown field '${unknown}' in ${what} object (accepted: ${[...known].join(', ')})`);
}
