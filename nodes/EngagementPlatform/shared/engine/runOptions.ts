import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { OperationSpec, RunSettings } from './operation';
import type { RequestShape } from './requestShape';

/**
 * Every operation's Options, built from its declaration so that fields and packing cannot drift:
 * the operation's own options, Batch Size where its shape packs several pieces to a request (up to
 * the shape's limit), Send Only Changes where its pieces set state, and the options every request has. The engine reads them back the same way.
 */

const requestOptionFields: INodeProperties[] = [
	{
		displayName: 'Max Rate Limit Wait (Seconds)',
		name: 'maxRateLimitWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 300,
		description:
			'How long one request may wait out the rate limit in all. Past that its items fail with an error saying nothing was stored.',
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
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 600 },
		default: 30,
		description: 'How long to wait for the platform to answer one request',
	},
];

/** What "Send Only Changes" remembers by default: five times a 200,000-contact sync, so that a year of nightly changes fits. */
const DEFAULT_HISTORY_SIZE = 1_000_000;

/** The options of an operation whose pieces set state (see OperationSpec.stateSlots). */
const sendOnlyChangesFields: INodeProperties[] = [
	{
		displayName: 'Send Only Changes',
		name: 'sendOnlyChanges',
		type: 'boolean',
		default: false,
		description:
			'Whether to leave out an item whose user and values are exactly what this node last sent and the platform accepted. It is answered with status "unchanged". What was sent is kept in n8n\'s database for this node, across executions.',
	},
	{
		displayName: 'Forget What Was Sent',
		name: 'forgetSent',
		type: 'boolean',
		default: false,
		description:
			'Whether to clear what this node remembers before the run, with Send Only Changes on: every item is then sent, and remembered anew',
	},
	{
		displayName: 'History Size',
		name: 'historySize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 5_000_000 },
		default: DEFAULT_HISTORY_SIZE,
		description:
			'How many sent items Send Only Changes remembers. Past that the oldest are forgotten and sent again once. Keep it well above the number of users you sync.',
	},
];

/** The most pieces one request of this shape may pack, or undefined when each request is one piece. */
export function batchLimit(shape: RequestShape<unknown, unknown>): number | undefined {
	const packing = Object.values(shape.slots).filter((slot) => slot.form === 'list' || slot.form === 'elements');
	if (packing.length === 0 || shape.batch === undefined) return undefined;
	return Math.min(shape.total ?? Number.POSITIVE_INFINITY, Math.max(...packing.map((slot) => slot.max)));
}

function batchSizeField(shape: RequestShape<unknown, unknown>): INodeProperties[] {
	const limit = batchLimit(shape);
	if (limit === undefined) return [];
	return [
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: limit },
			default: limit,
			description: `Most ${shape.batch} per request (the platform allows ${limit})`,
		},
	];
}

/** The operation's Options collection, shown for that operation alone. */
export function optionsProperty(operationValue: string, spec: OperationSpec): INodeProperties {
	const fields = [
		...(spec.options?.fields ?? []),
		...batchSizeField(spec.shape),
		...(spec.stateSlots ? sendOnlyChangesFields : []),
		...requestOptionFields,
	];
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { operation: [operationValue] } },
		options: fields.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/** The run's settings from the operation's Options: the engine's own, then the operation's. */
export function readRunSettings(context: IExecuteFunctions, spec: OperationSpec): RunSettings {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const settings: RunSettings = {
		resendUnsafe: false,
		timeoutMs: Number(options.timeoutSeconds ?? 30) * 1000,
		parallelRequests: Math.max(1, Math.floor(Number(options.parallelRequests ?? 8))),
		maxRateLimitWaitMs: Number(options.maxRateLimitWaitSeconds ?? 300) * 1000,
	};
	const limit = batchLimit(spec.shape);
	if (limit !== undefined && options.batchSize !== undefined) {
		const batchSize = Math.min(limit, Math.max(1, Math.floor(Number(options.batchSize))));
		settings.lowered = { perSlot: batchSize, total: spec.shape.total === undefined ? undefined : batchSize };
	}
	if (spec.stateSlots && options.sendOnlyChanges === true) {
		settings.sentBefore = {
			forget: options.forgetSent === true,
			historySize: Math.max(1, Math.floor(Number(options.historySize ?? DEFAULT_HISTORY_SIZE))),
		};
	}
	return spec.options?.read?.(options, settings) ?? settings;
}
