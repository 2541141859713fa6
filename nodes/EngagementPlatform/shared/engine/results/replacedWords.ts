import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';

import { counted } from './runWords';

/**
 * A chain of this package's nodes (Track Purchase → Update Attributes → Subscribe) with the same Output
 * Field Name: each node's words go where the node before it put its own. The earlier words stay readable
 * downstream through n8n's paired items (`$('Track Purchase').item`), and the run says so once, naming
 * the words it replaced and how to keep both in each row.
 */
export function replacedWordsHint(
	context: IExecuteFunctions,
	inputs: INodeExecutionData[],
	field: string,
): NodeExecutionHint | undefined {
	let replaced = 0;
	let status: string | undefined;
	for (const { json } of inputs) {
		const words = json[field];
		if (!isWords(words)) continue;
		replaced++;
		status ??= words.status;
	}
	if (replaced === 0) return undefined;
	const from = wordsNode(context);
	const readable = from
		? ` They stay readable downstream as {{ $('${from}').item.json.${field}.status }} ("${from}" gave them).`
		: '';
	return {
		message: `${counted(replaced, 'input item')} already held another Engagement Platform node's answer in "${field}" (status "${status}"): this node's answer replaces it in its output.${readable} To keep both in each row, set Options → Output Field Name on one of the nodes (e.g. "purchase").`,
		type: 'info',
		location: 'outputPane',
	};
}

/** A node's words, as an Output Field Name holds them: an object with its `status` in words. */
export function isWords(value: unknown): value is IDataObject & { status: string } {
	return (
		value !== null &&
		typeof value === 'object' &&
		!Array.isArray(value) &&
		typeof (value as IDataObject).status === 'string'
	);
}

/** How far back a chain is searched for the node that gave the words. */
const MAX_HOPS = 10;

/**
 * The nearest node of this package before this one (the node right before it first), or the node right
 * before it where n8n cannot say. n8n lists a node's parents deepest first, so they are asked for one
 * hop more at a time.
 */
function wordsNode(context: IExecuteFunctions): string | undefined {
	try {
		const name = context.getNode().name;
		const previous = context.getInputSourceData?.(0)?.previousNode;
		const isOurs = ({ type }: { type: string }) => type.split('.').pop()?.startsWith('engagementPlatform') === true;
		for (let depth = 1; depth <= MAX_HOPS; depth++) {
			const parents = context.getParentNodes?.(name, { depth }) ?? [];
			const ours = parents.filter(isOurs);
			if (ours.length > 0) return (ours.find((parent) => parent.name === previous) ?? ours[0]).name;
			if (parents.length === 0) break;
		}
		return previous;
	} catch {
		return undefined;
	}
}
