import { accept, refuse, type Checked } from '../track/checked';

export interface ListPage {
	/** 1-based. */
	startIndex: number;
	count: number;
}

const DEFAULT_COUNT = 100;
const MAX_COUNT = 1000;

/**
 * `startIndex` and `count` of GET /scim/v2/Users (RFC 7644 §3.4.2.4): a startIndex below 1 is read as 1 and
 * a negative count as 0, as the RFC says. Not shown: the page size. 100 by default and at most 1,000
 * (a larger count is lowered, which the RFC allows).
 */
export function readListPage(query: Record<string, string>): Checked<ListPage> {
	const startIndex = integerParameter('startIndex', query.startIndex, 1);
	if (!startIndex.ok) return startIndex;
	const count = integerParameter('count', query.count, DEFAULT_COUNT);
	if (!count.ok) return count;
	return accept({ startIndex: Math.max(1, startIndex.value), count: Math.min(MAX_COUNT, Math.max(0, count.value)) });
}

function integerParameter(name: string, text: string | undefined, fallback: number): Checked<number> {
	if (text === undefined) return accept(fallback);
	if (!/^-?\d{1,9}$/.test(text.trim())) return refuse(`${name} must be an integer, got ${JSON.stringify(text)}`);
	return accept(Number(text));
}
