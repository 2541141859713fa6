import type { IDataObject, INodeProperties } from 'n8n-workflow';

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
		default: 4,
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
		parallelRequests: Math.max(1, Math.floor(Number(options.parallelRequests ?? 4))),
		maxRateLimitWaitMs: Number(options.maxRateLimitWaitSeconds ?? 300) * 1000,
	};
}
