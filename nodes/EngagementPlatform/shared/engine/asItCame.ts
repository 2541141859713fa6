import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { canonicalValue } from '../objects/canonicalValue';
import { withoutRunOptions } from './runOptionNames';

/**
 * An item as it came in: its fields, with the node's parameters as written (the expressions, not what
 * they evaluate to). Each try n8n runs of the same item (Retry On Fail, Executions → Retry, the same
 * webhook delivered twice) gives the same, whatever an empty Time, `{{ $now }}`, `Math.random()` or
 * `$execution.id` evaluate to then; another item, or a node whose fields were changed, gives another.
 * The Options that only say how a run sends (Batch Size, Parallel Requests, Output Field Name …) and an
 * expression's spacing are not part of it: changing them changes no item.
 *
 * Worked out only where a run needs it (a run that may be tried again, a derived External Send ID):
 * each item's fields are hashed once, the parameters once a run.
 */
export type AsItCame = (itemIndex: number) => string;

export function itemsAsTheyCame(context: IExecuteFunctions): AsItCame {
	const items = context.getInputData();
	let parameters: string | undefined;
	const known = new Map<number, string>();
	return (itemIndex) => {
		let identity = known.get(itemIndex);
		if (identity !== undefined) return identity;
		parameters ??= canonicalValue(asWritten(withoutRunOptions(context.getNode().parameters ?? {})));
		identity = createHash('sha256')
			.update(parameters)
			.update('\n')
			.update(canonicalValue(asStored(items[itemIndex]?.json ?? {})))
			.digest('base64url')
			.slice(0, 32);
		known.set(itemIndex, identity);
		return identity;
	};
}

/** The parameters with every expression's spacing outside its quotes left out: `{{$json.id}}` is `{{ $json.id }}`. */
function asWritten(value: unknown): unknown {
	if (typeof value === 'string') return value.startsWith('=') ? withoutSpacing(value) : value;
	if (Array.isArray(value)) return value.map(asWritten);
	if (value !== null && typeof value === 'object')
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, asWritten(entry)]));
	return value;
}

function withoutSpacing(expression: string): string {
	let kept = '';
	let quote: string | undefined;
	for (let index = 0; index < expression.length; index++) {
		const character = expression[index];
		if (quote !== undefined) {
			kept += character;
			if (character === '\\') kept += expression[++index] ?? '';
			else if (character === quote) quote = undefined;
		} else if (character === '"' || character === "'" || character === '`') {
			quote = character;
			kept += character;
		} else if (!/\s/.test(character)) kept += character;
	}
	return kept;
}

/**
 * The item's fields as n8n saves them with an execution (JSON), so that an item read back from saved
 * run data (Executions → Retry) is the item it was: a Date becomes its ISO text, undefined goes.
 */
function asStored(json: IDataObject): unknown {
	return JSON.parse(JSON.stringify(json)) as unknown;
}
