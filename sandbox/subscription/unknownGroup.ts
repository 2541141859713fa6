import type { PlatformState } from '../state/platformState';
import type { AttributeUpdate } from '../track/attributes';

/**
 * The spec makes a valid group ID the condition of a group state change, and does not show the answer to
 * an invalid one. Our choice, after Braze (which keeps its groups on the dashboard's Subscription Groups
 * page and refuses an ID it does not have rather than creating a group): the request, or on /users/track
 * the object, is refused with a message naming the field's path and the ID, and nothing of it is applied.
 */
export function unknownGroupProblem(
	state: PlatformState,
	groupIds: readonly string[],
	path: string,
): string | undefined {
	const index = groupIds.findIndex((groupId) => !state.subscriptionGroups.has(groupId));
	if (index < 0) return undefined;
	return `${path}[${index}].subscription_group_id ${JSON.stringify(groupIds[index])} is not a subscription group of this workspace`;
}

/** The first recipient whose `attributes` set a group the workspace does not have; `pathOf` names its attributes. */
export function recipientGroupsProblem(
	state: PlatformState,
	attributes: ReadonlyArray<AttributeUpdate | undefined>,
	pathOf: (index: number) => string,
): string | undefined {
	for (const [index, update] of attributes.entries()) {
		const groupIds = (update?.subscriptionGroups ?? []).map((group) => group.groupId);
		const problem = unknownGroupProblem(state, groupIds, `${pathOf(index)}.subscription_groups`);
		if (problem) return problem;
	}
	return undefined;
}
