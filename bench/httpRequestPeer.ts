import path from 'node:path';

import type { INodeParameters, IVersionedNodeType } from 'n8n-workflow';

import { ensureN8nApp } from '../test/e2e/support/n8nApp';

export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';

/**
 * n8n's own HTTP Request node, from the n8n-nodes-base of the pinned n8n application (the
 * version that matches our n8n-core), as the peer: how users do this without a dedicated node.
 */
export function loadHttpRequestNode(): IVersionedNodeType {
	const app = ensureN8nApp();
	const file = path.join(app.folder, 'node_modules/n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { HttpRequest } = require(file) as { HttpRequest: new () => IVersionedNodeType };
	return new HttpRequest();
}

/**
 * One POST per item with a JSON body, the API key as a Bearer header, and the node's own
 * batching option holding it to `perSecond` requests a second (the spec's rate limit).
 */
export function httpRequestParameters(
	url: string,
	apiKey: string,
	jsonBody: string,
	perSecond: number,
): INodeParameters {
	return {
		method: 'POST',
		url,
		sendHeaders: true,
		headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${apiKey}` }] },
		sendBody: true,
		specifyBody: 'json',
		jsonBody,
		options: { batching: { batch: { batchSize: perSecond, batchInterval: 1000 } } },
	};
}
