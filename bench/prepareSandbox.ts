import type { RateLimit, SandboxClient, SeedData } from '../sandbox';

export type RateLimits = Record<string, RateLimit | null>;

/** An empty sandbox for one measurement: a fresh log and fresh windows, bodies unlogged, these limits, then the seed. */
export async function prepareSandbox(
	client: SandboxClient,
	latencyMs: number,
	rateLimits: RateLimits,
	seed?: SeedData,
): Promise<void> {
	await client.reset();
	await client.configure({ latencyMs, logBodies: false, rateLimits });
	if (seed) await client.seed(seed);
}

/** The sandbox enforces nothing here: the node's own pacing is what keeps it within the spec. */
export async function noLimits(client: SandboxClient): Promise<Record<string, null>> {
	const { rateLimits } = await client.configure({});
	return Object.fromEntries(Object.keys(rateLimits).map((group) => [group, null]));
}
