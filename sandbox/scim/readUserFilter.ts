import { accept, refuse, type Checked } from '../track/checked';

// RFC 7644 §3.4.2.2: attribute names and operators are case-insensitive; the value is a JSON string.
const USER_NAME_EQUALS = /^\s*userName\s+eq\s+("(?:[^"\\]|\\.)*")\s*$/i;

/**
 * `filter` of GET /scim/v2/Users: undefined (no filter) or the userName looked for. Not shown: which
 * filters are taken. Only `userName eq "<value>"`, the one the spec and Braze document.
 */
export function readUserFilter(filter: string | undefined): Checked<string | undefined> {
	if (filter === undefined) return accept(undefined);
	const match = USER_NAME_EQUALS.exec(filter);
	const userName = match ? jsonString(match[1]) : undefined;
	if (userName === undefined)
		return refuse(
			`filter must be userName eq "<email address>" (the only filter supported), got ${JSON.stringify(filter)}`,
		);
	return accept(userName);
}

function jsonString(quoted: string): string | undefined {
	try {
		return JSON.parse(quoted) as string;
	} catch {
		return undefined;
	}
}
