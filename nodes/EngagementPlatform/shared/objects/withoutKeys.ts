/** A copy of the object without the named keys. */
export function withoutKeys<T extends object, K extends keyof T>(object: T, keys: readonly K[]): Omit<T, K> {
	const dropped = new Set<PropertyKey>(keys);
	return Object.fromEntries(Object.entries(object).filter(([key]) => !dropped.has(key))) as Omit<T, K>;
}
