import type { IDataObject } from 'n8n-workflow';

import { withoutRunOptions } from '../runOptionNames';

/** What an expression may read that gives another value each time it runs, as a marketer writes it. */
const CHANGING: Array<[written: string, found: RegExp]> = [
	['{{ $now }}', /\$now\b/],
	['{{ $today }}', /\$today\b/],
	['DateTime.now()', /\bDateTime\s*\.\s*now\b/],
	['Date.now()', /\bDate\s*\.\s*now\b/],
	['new Date()', /\bnew\s+Date\s*\(\s*\)/],
	['Math.random()', /\bMath\s*\.\s*random\b/],
	['$execution.id', /\$execution\s*\.\s*id\b/],
	['$runIndex', /\$runIndex\b/],
];

/**
 * The first parameter whose expression reads a value that changes every time it runs (`{{ $now }}`, a
 * random number, the execution's ID), with what it reads; undefined when none does. The Options that
 * only say how a run sends are not looked at.
 */
export function changingValueIn(parameters: IDataObject): { parameter: string; reads: string } | undefined {
	for (const [parameter, value] of Object.entries(withoutRunOptions(parameters))) {
		const reads = changingIn(value);
		if (reads) return { parameter, reads };
	}
	return undefined;
}

function changingIn(value: unknown): string | undefined {
	if (typeof value === 'string')
		return value.startsWith('=') ? CHANGING.find(([, found]) => found.test(value))?.[0] : undefined;
	if (value !== null && typeof value === 'object')
		for (const entry of Object.values(value)) {
			const reads = changingIn(entry);
			if (reads) return reads;
		}
	return undefined;
}
