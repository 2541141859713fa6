/** Reads one route of n8n's REST API as the signed-in owner and returns its `data`. */
export type RestRead = <T>(route: string) => Promise<T>;

/** How many postbacks the trigger's static data records as seen, as n8n has stored the workflow. */
export async function storedSightings(read: RestRead, workflowId: string, triggerName: string): Promise<number> {
	const { staticData } = await read<{ staticData?: Record<string, { seen?: Record<string, number> } | undefined> }>(
		`/workflows/${workflowId}`,
	);
	return Object.keys(staticData?.[`node:${triggerName}`]?.seen ?? {}).length;
}

/**
 * Waits until n8n has stored `count` sightings. The trigger answers a postback just before n8n saves
 * its static data, so a postback sent the instant the previous one is answered can still read the
 * static data from before it (docs/operations.md's "Not atomic"). A test of what a later postback finds
 * sends it once the earlier one is stored.
 */
export async function untilStored(
	read: RestRead,
	workflowId: string,
	triggerName: string,
	count: number,
	timeoutMs = 15_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const stored = await storedSightings(read, workflowId, triggerName);
		if (stored === count) return;
		if (Date.now() > deadline)
			throw new Error(`n8n stored ${stored} sightings of trigger "${triggerName}" after ${timeoutMs} ms, not ${count}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
