/**
 * The valid value a refused one most likely means, for an error to offer ("did you mean EUR?"): the
 * same value in another case or with accents, a valid value it starts with or that starts with it
 * (`EURO` → `EUR`, `unsub` → `unsubscribed`), a name of one (`euro` → `EUR`), or the one valid value
 * a typo away. Undefined where no one value stands out: an error then lists the allowed values.
 */
export function nearestValue(
	value: unknown,
	candidates: readonly string[],
	names: ReadonlyMap<string, string> = new Map(),
): string | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const given = normalized(String(value));
	if (given === '') return undefined;
	const forms = candidates.map((candidate) => ({ candidate, form: normalized(candidate) }));
	const same = forms.find(({ form }) => form === given);
	if (same) return same.candidate;
	const named = names.get(given);
	if (named !== undefined) return named;
	if (given.length >= 3) {
		const starts = forms.filter(({ form }) => form.length >= 3 && (given.startsWith(form) || form.startsWith(given)));
		if (starts.length === 1) return starts[0].candidate;
		if (starts.length > 1) return undefined;
	}
	const allowed = given.length <= 4 ? 1 : 2;
	let best: string | undefined;
	let bestDistance = allowed + 1;
	let ties = 0;
	for (const { candidate, form } of forms) {
		const distance = editDistance(given, form, allowed);
		if (distance < bestDistance) [best, bestDistance, ties] = [candidate, distance, 1];
		else if (distance === bestDistance) ties++;
	}
	return ties === 1 ? best : undefined;
}

/** Lower case, accents dropped, anything but letters and digits as one space: how a value is compared. */
export function normalized(text: string): string {
	return text
		.normalize('NFD')
		.replace(/\p{Mn}/gu, '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim();
}

/** Levenshtein distance, or `limit + 1` as soon as it is plainly above `limit`. */
function editDistance(left: string, right: string, limit: number): number {
	if (Math.abs(left.length - right.length) > limit) return limit + 1;
	let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
	for (let row = 1; row <= left.length; row++) {
		const current = [row];
		let lowest = row;
		for (let column = 1; column <= right.length; column++) {
			const cost = left[row - 1] === right[column - 1] ? 0 : 1;
			current[column] = Math.min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + cost);
			lowest = Math.min(lowest, current[column]);
		}
		if (lowest > limit) return limit + 1;
		previous = current;
	}
	return previous[right.length];
}

/**
 * ISO 4217 codes and their English names (`euro` → EUR, `us dollar` → USD), as the runtime knows them
 * (Intl); made only for an error that needs them.
 */
export function currencyCodes(): { codes: readonly string[]; names: ReadonlyMap<string, string> } {
	const codes = Intl.supportedValuesOf('currency');
	const display = new Intl.DisplayNames(['en'], { type: 'currency' });
	const names = new Map<string, string>();
	for (const code of codes) {
		const name = display.of(code);
		if (name && name !== code) names.set(normalized(name), code);
	}
	return { codes, names };
}
