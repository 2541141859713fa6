import type { SubscriptionState } from '../adminApiTypes';

/** Subscription group states: group id → profile service_id → state. */
export class SubscriptionGroupStore {
	private readonly groups = new Map<string, Map<string, SubscriptionState>>();

	ensure(groupId: string): void {
		if (!this.groups.has(groupId)) this.groups.set(groupId, new Map());
	}

	has(groupId: string): boolean {
		return this.groups.has(groupId);
	}

	set(groupId: string, serviceId: string, state: SubscriptionState): void {
		this.ensure(groupId);
		this.groups.get(groupId)?.set(serviceId, state);
	}

	/** Drops a removed profile's states. */
	forget(serviceId: string): void {
		for (const members of this.groups.values()) members.delete(serviceId);
	}

	/** The groups this profile has a state in. */
	statesOf(serviceId: string): Record<string, SubscriptionState> {
		const out: Record<string, SubscriptionState> = {};
		for (const [groupId, members] of this.groups) {
			const state = members.get(serviceId);
			if (state) out[groupId] = state;
		}
		return out;
	}

	toJSON(): Record<string, Record<string, SubscriptionState>> {
		const out: Record<string, Record<string, SubscriptionState>> = {};
		for (const [groupId, members] of this.groups) out[groupId] = Object.fromEntries(members);
		return out;
	}
}
