import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { RunSettings } from '../engine/operation';

/** Options every operation has: how long to wait, how many requests at once. */
export const requestOptionFields: INodeProperties[] = [
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 600 },
		default: 30,
		description: 'How long to wait for the platform to answer one request',
	},
	{
		displayName: 'Parallel Requests',
		name: 'parallelRequests',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 16 },
		default: 8,
		description: "How many requests may be under way at once. The platform's rate limits are respected either way.",
	},
	{
		displayName: 'Max Rate Limit Wait (Seconds)',
		name: 'maxRateLimitWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 300,
		description:
			'How long one request may wait out the rate limit in all. Past that its items fail with an error saying nothing was stored.',
	},
];

export interface RequestOptions {
	timeoutMs: number;
	parallelRequests: number;
	maxRateLimitWaitMs: number;
}

export function readRequestOptions(options: IDataObject): RequestOptions {
	return {
		timeoutMs: Number(options.timeoutSeconds ?? 30) * 1000,
		parallelRequests: Math.max(1, Math.floor(Number(options.parallelRequests ?? 8))),
		maxRateLimitWaitMs: Number(options.maxRateLimitWaitSeconds ?? 300) * 1000,
	};
}

/** The "Options" collection of an operation: `extra` options first, then the request options. */
export function optionsCollection(show: IDisplayOptions['show'], extra: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [...extra, ...requestOptionFields],
	};
}

/** Settings of an operation whose limits are the declared ones and whose options are the request options. */
export function requestOptionSettings(context: IExecuteFunctions): RunSettings {
	return { resendUnsafe: false, ...readRequestOptions(context.getNodeParameter('options', 0, {}) as IDataObject) };
}
