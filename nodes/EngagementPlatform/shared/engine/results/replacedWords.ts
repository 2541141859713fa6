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

/** The nearest node of this package before this one, or the node right before it where n8n cannot say. */
function wordsNode(context: IExecuteFunctions): string | undefined {
	try {
		const parents = context.getParentNodes?.(context.getNode().name) ?? [];
		const ours = parents.find(({ type }) => type.split('.').pop()?.startsWith('engagementPlatform'));
		return ours?.name ?? context.getInputSourceData?.(0)?.previousNode;
	} catch {
		return undefined;
	}
}
