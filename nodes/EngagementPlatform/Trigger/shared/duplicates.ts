import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * Postbacks already seen, kept in the node's workflow static data (which n8n saves with the
 * workflow after each webhook call): `seen` maps a short hash of (dispatch_id, status) to the
 * time it was first seen, in epoch milliseconds.
 *
 * Bounded: entries older than the window are pruned on every call, and at most MAX_SEEN entries
 * are kept (the oldest go first), so the static data stays under about 200 KB however busy the
 * workspace is. On a very busy workspace the cap, not the window, may then decide how far back
 * duplicates are recognised.
 */
const MAX_SEEN = 5000;

/** Hashes, not the ids themselves: a dispatch_id can be long, and 144 bits never collide in practice. */
function seenKey(dispatchId: string, status: string): string {
	return createHash('sha256')
		.update(JSON.stringify([dispatchId, status]))
		.digest('base64url')
		.slice(0, 24);
}

function readSeen(staticData: IDataObject): Record<string, number> {
	const stored = staticData.seen;
	const seen: Record<string, number> = {};
	if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return seen;
	for (const [key, time] of Object.entries(stored)) {
		if (typeof time === 'number' && Number.isFinite(time)) seen[key] = time;
	}
	return seen;
}

/**
 * Records a postback and says whether it is the first of its (dispatch_id, status) within the
 * window. A duplicate does not extend the window: it is measured from the first sighting.
 */
export function isFirstSighting(
	staticData: IDataObject,
	dispatchId: string,
	status: string,
	windowMinutes: number,
	now: number,
): boolean {
	const cutoff = now - windowMinutes * 60_000;
	const seen = readSeen(staticData);
	let changed = false;
	for (const [key, time] of Object.entries(seen)) {
		if (time <= cutoff || time > now) {
			delete seen[key];
			changed = true;
		}
	}

	const key = seenKey(dispatchId, status);
	const first = seen[key] === undefined;
	if (first) {
		seen[key] = now;
		changed = true;
		const entries = Object.entries(seen);
		if (entries.length > MAX_SEEN) {
			entries.sort(([, a], [, b]) => a - b);
			for (const [oldKey] of entries.slice(0, entries.length - MAX_SEEN)) delete seen[oldKey];
		}
	}
	// A fresh object, assigned: n8n notices the change and saves the static data (only then).
	if (changed) staticData.seen = seen;
	return first;
}
