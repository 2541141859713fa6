/** What the conservation suite did and found, over all its runs; printed last. */
export const tally = {
	operations: new Set<string>(),
	runs: 0,
	items: 0,
	requests: 0,
	/** Items answered as applied or sent whose data is not in exactly one accepted request. */
	lost: 0,
	/** Requests over a per-request limit of the spec. */
	overLimit: 0,
	/** Pieces on the wire that belong to no item, carry other data than their item's, or whose item was not answered from their request. */
	astray: 0,
	/** Valid items answered with an error (from a request's answer, or refused before sending). */
	failedItems: 0,
};

const n = (value: number) => value.toLocaleString('en-US');

export function formatTally(): string {
	return (
		`conservation: ${tally.operations.size} operations, ${n(tally.runs)} runs, ${n(tally.items)} items, ${n(tally.requests)} requests; ` +
		`${n(tally.lost)} items lost, ${n(tally.overLimit)} requests over a limit, ${n(tally.astray)} pieces astray, ${n(tally.failedItems)} valid items answered with an error`
	);
}
