/**
 * A constant made the first time it is needed rather than when the module loads: a table built from the
 * runtime's own data (Intl's names of every country, about 100 ms), which n8n's start and a run that never
 * meets a country should not pay. The same for every execution, and read-only: no execution can change it.
 */
export function onFirstUse<T>(make: () => T): () => T {
	let made: { value: T } | undefined;
	return () => (made ??= { value: make() }).value;
}
