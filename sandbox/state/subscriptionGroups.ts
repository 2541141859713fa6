import type { SubscriptionState } from '../adminApiTypes';

/** The workspace's subscription groups, their names, and their states: group id → profile service_id → state. */
export class SubscriptionGroupStore {
	private readonly groups = new Map<string, Map<string, SubscriptionState>>();
	private readonly groupNames = new Map<string, string>();

	/** Creates the group (as the dashboard does), or renames it when a name is given. */
	ensure(groupId: string, name?: string): void {
		if (!this.groups.has(groupId)) this.groups.set(groupId, new Map());
		if (name !== undefined || !this.groupNames.has(groupId)) this.groupNames.set(groupId, name ?? groupId);
	}

	has(groupId: string): boolean {
		return this.groups.has(groupId);
	}

	/** Sets a state in the group; the endpoints check first that it exists (`unknownGroupProblem`). */
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

	names(): Record<string, string> {
		return Object.fromEntries(this.groupNames);
	}

	toJSON(): Record<string, Record<string, SubscriptionState>> {
		const out: Record<string, Record<string, SubscriptionState>> = {};
		for (const [groupId, members] of this.groups) out[groupId] = Object.fromEntries(members);
		return out;
	}
}
