import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ItemFailure } from './itemResults';

/**
 * n8n's error for one item, as n8n's own nodes carry it: an input the node refused is a
 * NodeOperationError, anything the platform or the connection did is a NodeApiError. On an item
 * it sends the item down the error branch of "Continue (using error output)".
 */
export function itemError(
	context: IExecuteFunctions,
	failure: ItemFailure,
	note = '',
): NodeOperationError | NodeApiError {
	const description = `${failure.description}${note}`;
	if (failure.delivery === 'invalid') {
		return new NodeOperationError(context.getNode(), failure.message, { itemIndex: failure.itemIndex, description });
	}
	const response: JsonObject = (failure.response as JsonObject | undefined) ?? { message: failure.message };
	return new NodeApiError(context.getNode(), response, {
		message: failure.message.startsWith(`Item ${failure.itemIndex}:`)
			? failure.message
			: `Item ${failure.itemIndex}: ${failure.message}`,
		description,
		itemIndex: failure.itemIndex,
		httpCode: failure.httpCode ? String(failure.httpCode) : undefined,
	});
}
