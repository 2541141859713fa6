import { unknownFieldsProblem } from '../badRequest';
import { isNonEmptyString, isPlainObject } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';

/** An optional array of a request (absent: empty), each element read in turn; the first problem wins. */
export function readList<T>(
	path: string,
	value: unknown,
	readItem: (itemPath: string, item: unknown) => Checked<T>,
): Checked<T[]> {
	if (value === undefined) return accept([]);
	if (!Array.isArray(value)) return refuse(`${path} must be an array`);
	const items: T[] = [];
	for (const [i, item] of value.entries()) {
		const read = readItem(`${path}[${i}]`, item);
		if (!read.ok) return read;
		items.push(read.value);
	}
	return accept(items);
}

/** Not shown: the full list of permission names. Any non-empty string is taken, as given. */
export function readPermissionNames(path: string, value: unknown): Checked<string[]> {
	return readList(path, value, (itemPath, item) =>
		isNonEmptyString(item) ? accept(item) : refuse(`${itemPath} must be a permission name (a non-empty string)`),
	);
}

/** An object with only the keys given, or the problem (a misspelt key would otherwise vanish silently). */
export function readObject(path: string, value: unknown, keys: readonly string[]): Checked<Record<string, unknown>> {
	if (!isPlainObject(value)) return refuse(`${path} must be an object { ${keys.join(', ')} }`);
	const unknown = unknownFieldsProblem(value, keys);
	return unknown ? refuse(`${path}: ${unknown}`) : accept(value);
}

/** The index of the first element whose key was already seen, or -1. */
export function firstRepeat<T>(items: readonly T[], keyOf: (item: T) => string): number {
	const seen = new Set<string>();
	return items.findIndex((item) => {
		const key = keyOf(item);
		if (seen.has(key)) return true;
		seen.add(key);
		return false;
	});
}
