import type { SandboxClient } from '../../sandbox';

/** The times of the events the platform holds, by customer (external ID), in the order stored. */
export async function eventTimesByCustomer(client: SandboxClient): Promise<Record<string, string[]>> {
	const state = await client.state();
	const times: Record<string, string[]> = {};
	for (const event of state.events) {
		const customer = state.profiles.find((profile) => profile.service_id === event.service_id)?.external_id ?? '?';
		(times[customer] ??= []).push(event.time);
	}
	return times;
}
