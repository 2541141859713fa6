import type { ApiResponse, Endpoint, Piece, PieceOutcome, PlannedRequest } from '../../shared/engine';
import { answerRemaining, platformMessage, responseError } from '../../shared/engine';

/** Where a marketer finds a group's ID; the field's hint says the same. */
const GROUP_ID_FIX =
	"use the ID from the dashboard's Subscription Groups page (Audience → Subscriptions: open the group and copy its Subscription Group ID, a UUID such as 7f2c9a4e-…), not the group's name";

interface WithGroup {
	subscription_group_id: string;
}

/**
 * A refused request that names one of its subscription group IDs: the platform has no such group (a
 * name typed for the ID, an ID of another workspace). The spec makes a valid group ID the condition of
 * the change and does not show the refusal's words, so the group is found by its ID in the message.
 * The items of that group fail naming the field and the fix; the others of the request were refused
 * with it, not for their own values, and say so. Any other refusal is answered as every operation's.
 */
export function readGroupRefusal<Group, Payload extends WithGroup>(
	response: ApiResponse,
	request: PlannedRequest<Group, Payload>,
	endpoint: Pick<Endpoint, 'permission' | 'credentialType'>,
): Map<Piece<Group, Payload>, PieceOutcome> {
	const base = responseError(response, endpoint, false);
	const message = platformMessage(response.body, response.statusCode);
	const refused = base.ofTheRun ? undefined : refusedGroup(message, groupsOf(request));
	if (refused === undefined) return answerRemaining(request, { ok: false, error: base });

	const outcomes = new Map<Piece<Group, Payload>, PieceOutcome>();
	request.slots.forEach((pieces) => {
		for (const piece of pieces) {
			const atFault = piece.payload.subscription_group_id === refused;
			outcomes.set(piece, {
				ok: false,
				error: atFault
					? {
							...base,
							message: `Subscription Group ID "${refused}" was refused by the platform: ${message}`,
							description: `Nothing was set. The workspace has no subscription group with this ID: ${GROUP_ID_FIX}. Then run this item again.`,
						}
					: {
							...base,
							message: `Not sent: the platform refused the whole request for another item's Subscription Group ID "${refused}"`,
							description:
								"Nothing of the request was set; this item's own values were not refused. Correct that item's Subscription Group ID (or leave it out), then run this item again.",
						},
			});
		}
	});
	return outcomes;
}

function groupsOf<Group, Payload extends WithGroup>(request: PlannedRequest<Group, Payload>): string[] {
	const groups = new Set<string>();
	request.slots.forEach((pieces) => pieces.forEach((piece) => groups.add(piece.payload.subscription_group_id)));
	return [...groups];
}

/** The request's group the message names (quoted first, then anywhere), when it speaks of a group at all. */
function refusedGroup(message: string, groups: string[]): string | undefined {
	if (!/group/i.test(message)) return undefined;
	const quoted = groups.find((group) => message.includes(`"${group}"`) || message.includes(`'${group}'`));
	if (quoted !== undefined) return quoted;
	// The longest first: "newsletter" is inside "newsletter-weekly".
	return [...groups].sort((a, b) => b.length - a.length).find((group) => message.includes(group));
}
