/**
 * Every entry Send Only Changes and Track Once Per Key keep in n8n's deduplication store, in one place
 * (CONTRIBUTING.md, The engine's words). n8n keeps an MD5 hash of each entry, so an entry is only ever
 * asked for, never read back: a format need only be distinct from the others and stay as it is (another
 * format is another memory, and every workflow would send everything once). Fields are joined by NUL,
 * which none of them holds.
 */
const JOIN = '\u0000';

// Send Only Changes, the workflow's record (sentBefore.ts): a generation is one execution's entries.

/** Asked for by every run when it starts and taken out at its end: found, another run has not finished. */
export const RUNNING_ENTRY = 'a run of this workflow has not finished';

/** A run's own entry while it runs: gone at its end, another run's write went over this run's. */
export function ownRunEntry(id: string): string {
	return `a run of this workflow started: ${id}`;
}

/** A user in a workspace (the workspace a keyed hash of the credential's endpoint). */
export function userIn(workspace: string, user: string): string {
	return `${workspace}${JOIN}${user}`;
}

/** A contact as one node sets one slot of it: each has its own turn to be resent. */
export function contactOf(user: string, slot: string, node: string): string {
	return `${user}${JOIN}${slot}${JOIN}${node}`;
}

/** `v`: a part's value, as an execution left it accepted. */
export function valueEntry(generation: number, user: string, slot: string, key: string, value: string): string {
	return ['v', generation, user, slot, key, value].join(JOIN);
}

/** `w`: that a node set a contact in an execution. */
export function contactSetByEntry(generation: number, user: string, slot: string, node: string): string {
	return ['w', generation, user, slot, node].join(JOIN);
}

/** `g`: that a part another endpoint sets too, or whose acceptance proves nothing, was set in an execution. */
export function partSetEntry(generation: number, user: string, key: string): string {
	return ['g', generation, user, key].join(JOIN);
}

/** `d`: that a contact is due to be resent in slice `due`, as an execution left it (freshness.ts). */
export function dueEntry(generation: number, contact: string, due: number): string {
	return ['d', generation, contact, due].join(JOIN);
}

// The registers, the node's record (registers.ts), and the workflow's entry confirming them.

/** That bit `bit` of a register is `value`. */
export function registerBitEntry(register: string, bit: number, value: 0 | 1): string {
	return `${register} ${bit} ${value}`;
}

/** The workflow's entry naming every register's value, in order ('-' for none). */
export function registersEntry(values: Array<number | undefined>): string {
	return `registers ${values.map((value) => value ?? '-').join(' ')}`;
}

// Track Once Per Key, the node's record (oncePerKey.ts).

/** What an occurrence's key is hashed from: the workspace, the slot, its place among its item's, the key. */
export function occurrenceKeySource(workspace: string, slot: string, place: number, key: string): string {
	return [workspace, slot, place, key].join(JOIN);
}

/** That an occurrence with this key was accepted, in a time slice of Remember For. */
export function trackedEntry(key: string, slice: number): string {
	return `tracked ${key} ${slice}`;
}

/** That the run which wrote `trackedEntry` recorded its end. */
export function trackedConfirmationEntry(key: string, slice: number): string {
	return `confirmed ${key} ${slice}`;
}
