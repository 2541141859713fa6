import type { IDataObject } from 'n8n-workflow';

/**
 * The names of the Options every operation gets from the engine (runOptions.ts builds their fields): how
 * a run sends and answers (batching, pacing, memory, the output field), never what an item's request
 * carries. Changing one does not make an item another (asItCame.ts).
 */
export const RUN_OPTION = {
	maxRateLimitWaitSeconds: 'maxRateLimitWaitSeconds',
	parallelRequests: 'parallelRequests',
	timeoutSeconds: 'timeoutSeconds',
	outputField: 'outputField',
	historySize: 'historySize',
	resendEveryDays: 'resendEveryDays',
	sendOnlyChanges: 'sendOnlyChanges',
	preview: 'preview',
	forgetSent: 'forgetSent',
	batchSize: 'batchSize',
	trackOncePerKey: 'trackOncePerKey',
	trackOncePerKeyKey: 'trackOncePerKeyKey',
	rememberDays: 'rememberDays',
	forgetTracked: 'forgetTracked',
} as const;

const RUN_OPTION_NAMES: ReadonlySet<string> = new Set(Object.values(RUN_OPTION));

/** The node's parameters less the engine's Options: what its items' requests are made of. */
export function withoutRunOptions(parameters: IDataObject): IDataObject {
	const options = parameters.options;
	if (options === null || typeof options !== 'object' || Array.isArray(options)) return parameters;
	const kept = Object.fromEntries(Object.entries(options).filter(([name]) => !RUN_OPTION_NAMES.has(name)));
	return { ...parameters, options: kept };
}
