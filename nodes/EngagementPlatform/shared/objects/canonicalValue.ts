/** A value in one canonical text: object keys in one order, so that reordered columns compare equal. */
export function canonicalValue(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalValue).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, entry]) => entry !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalValue(entry)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
