const DEFAULT_ORDERS = 1000;
const USAGE = 'a whole number of orders above 0, e.g. npm run demo -- 10000 (or --orders 10000)';

/**
 * How many orders `npm run demo` runs: the number given after `--orders`, or the first argument that is
 * a number (`npm run demo -- 10000`, as the README says), else 1,000. Thousands separators are allowed.
 */
export function demoOrderCount(args: readonly string[]): number {
	const flag = args.indexOf('--orders');
	const given = flag >= 0 ? (args[flag + 1] ?? '') : args.find((arg) => !arg.startsWith('--'));
	if (given === undefined) return DEFAULT_ORDERS;
	const count = Number(given.replace(/[,_]/g, ''));
	if (!Number.isInteger(count) || count <= 0 || given.trim() === '') throw new Error(`"${given}" is not ${USAGE}`);
	return count;
}
