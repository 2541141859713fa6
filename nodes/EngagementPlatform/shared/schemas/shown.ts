/** Shows a received value in an error, cut to 40 characters (whole ones: an emoji is never halved). */
export function shown(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return `'${text.length > 40 ? `${Array.from(text).slice(0, 40).join('')}…` : text}'`;
}
