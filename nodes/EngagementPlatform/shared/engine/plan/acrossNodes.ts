import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import type { OperationSpec, Piece, PieceOutcome } from '../operation';
import { counted } from '../results/runWords';

/**
 * The last word across the nodes of one execution. A form's responses go through an IF into Subscribe
 * and Unsubscribe: n8n runs one branch, then the other, so the platform ends on the state the later
 * node set, whichever response came later. Each node notes, in the execution's own context, the states
 * it set that another endpoint sets too (a group's state); a later node that sets one otherwise says so
 * on the item (`overrode`) and once in its hint, with what to use instead.
 */
export function noteStatesAcrossNodes(
	context: IExecuteFunctions,
	spec: OperationSpec,
	answers: Map<Piece, PieceOutcome>,
): Map<Piece, PieceOutcome> {
	const flow = context.getContext('flow') as IDataObject;
	// Kept with the execution's data: per state a short hash, and who set it to what.
	const setBy = (flow.statesSetByNode ??= {}) as Record<string, [node: string, value: string]>;
	const node = context.getNode().name;
	const overridden = new Map<string, Set<string>>();
	const noted = new Map(answers);
	for (const [piece, outcome] of answers) {
		if (!outcome.ok || outcome.replacedBy !== undefined) continue;
		const said: string[] = [];
		for (const part of spec.stateSlots?.[piece.slot]?.parts(piece) ?? []) {
			if (part.alsoSetElsewhere !== true) continue;
			const key = createHash('sha256').update(`${part.user}\u0000${part.key}`).digest('base64url').slice(0, 16);
			const [earlierNode, earlierValue] = setBy[key] ?? [];
			if (earlierNode !== undefined && earlierNode !== node && earlierValue !== part.value) {
				said.push(`${part.label} was ${earlierValue}, set by "${earlierNode}" earlier in this execution`);
				(overridden.get(earlierNode) ?? overridden.set(earlierNode, new Set()).get(earlierNode)!).add(part.user);
			}
			setBy[key] = [node, part.value];
		}
		if (said.length > 0) noted.set(piece, { ...outcome, overrode: said.join('; ') });
	}
	if (overridden.size > 0) context.addExecutionHints(overriddenHint(overridden));
	return noted;
}

function overriddenHint(overridden: Map<string, Set<string>>): NodeExecutionHint {
	const who = [...overridden].map(([node, users]) => `${counted(users.size, 'user')} "${node}" had set`);
	return {
		message: `This node set another state for ${who.join(', and ')} earlier in this execution (see "overrode" on those items): the platform keeps this node's, since n8n ran it later, whichever response came later. Where the latest response should win, use one Set Group State node taking the state from a column instead of one node per state.`,
		type: 'warning',
		location: 'outputPane',
	};
}
