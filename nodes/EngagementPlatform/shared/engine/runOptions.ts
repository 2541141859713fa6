import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationSpec, RunSettings } from './operation';
import type { RequestShape } from './plan/planner';
import { RUN_OPTION } from './runOptionNames';

/**
 * Every operation's Options, built from its declaration so that fields and packing cannot drift:
 * the operation's own options, Batch Size where its shape packs several pieces to a request (up to
 * the shape's limit), Send Only Changes where its pieces set state and an answer can prove some, and
 * the options every request has.
 * The engine reads them back the same way, each number held to its field's range.
 */

const maxRateLimitWaitField: INodeProperties = {
	displayName: 'Max Rate Limit Wait (Seconds)',
	name: RUN_OPTION.maxRateLimitWaitSeconds,
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 300,
	description:
		'How long one request may wait out the rate limit in all. Past that its items fail with an error saying nothing was stored.',
};

const parallelRequestsField: INodeProperties = {
	displayName: 'Parallel Requests',
	name: RUN_OPTION.parallelRequests,
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 16 },
	default: 8,
	description: "How many requests may be under way at once. The platform's rate limits are respected either way.",
};

const timeoutField: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: RUN_OPTION.timeoutSeconds,
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 600 },
	default: 30,
	description: 'How long to wait for the platform to answer one request',
};

const requestOptionFields = [maxRateLimitWaitField, parallelRequestsField, timeoutField];

/**
 * The field of each output item that holds what the node did with it, beside the input item's own
 * fields, which arrive unchanged: n8n's own nodes that enrich an item (Date & Time, Crypto) put their
 * result in one named field the same way, so that no column of the row (`status`, `id`) is overwritten.
 */
const DEFAULT_OUTPUT_FIELD = 'engagementPlatform';

const outputFieldField: INodeProperties = {
	displayName: 'Output Field Name',
	name: RUN_OPTION.outputField,
	type: 'string',
	default: DEFAULT_OUTPUT_FIELD,
	description:
		"The field of each output item that holds what the node did with it (status, counts, IDs); the input item's own fields arrive beside it unchanged. Give another name where the input already has this field, e.g. from an earlier Engagement Platform node.",
};

/**
 * What "Send Only Changes" remembers by default, in n8n's entries. A run writes per contact one entry per
 * attribute and group state it sets, one more, and with Resend Everything Every up to four asking when the
 * contact is due and one saying it: 14 for a contact of 8 attributes. While a run checks, n8n's store
 * holds the execution before's entries and the run's own: up to 28 for such a contact, 2,800,000 for
 * 100,000. 3,000,000 holds that, in a record of about 78 MB. Nothing is taken out between runs (n8n
 * takes entries out one at a time, each a search of the whole record), so past it the oldest go first;
 * everything a run reads was written by the execution before (see docs/delivery.md).
 */
export const DEFAULT_HISTORY_SIZE = 3_000_000;

const historySizeField: INodeProperties = {
	displayName: 'History Size',
	name: RUN_OPTION.historySize,
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 5_000_000 },
	default: DEFAULT_HISTORY_SIZE,
	description:
		"How many entries Send Only Changes keeps in n8n's database. A run needs, per contact, one per attribute and subscription group it sets and one more, for itself and for the execution before, plus up to five for Resend Everything Every: up to 28 for a contact of 8 attributes, so the default holds 100,000 such contacts (about 78 MB). Past that the oldest are forgotten and sent again once.",
};

/** Every user is sent again, whatever the store says, within this many days of its last send, by default. */
const DEFAULT_RESEND_EVERY_DAYS = 30;

const resendEveryField: INodeProperties = {
	displayName: 'Resend Everything Every (Days)',
	name: RUN_OPTION.resendEveryDays,
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 365 },
	default: DEFAULT_RESEND_EVERY_DAYS,
	description:
		"Sends each user's values again at least once in this many days after they were last sent, even if unchanged, to correct what Send Only Changes cannot see (a change made outside this workflow, the same person under another identifier). Holds on any schedule whose runs come no further apart than they recently did; users take turns, so a run resends only a share of them. 0 never resends.",
};

/**
 * Send Only Changes arrives on when added from Add Option: the marketer who picks it means it. Not
 * added, it is off (n8n saves a collection's values as they are, a default too).
 */
const sendOnlyChangesSwitch: INodeProperties = {
	displayName: 'Send Only Changes',
	name: RUN_OPTION.sendOnlyChanges,
	type: 'boolean',
	default: true,
	description:
		'Whether to send only the values that changed: attributes and subscription groups the platform holds already, as this workflow last had them accepted for the same user in the same workspace, are left out, and a changed contact sends its changed values alone (its answer lists the others under "unchanged"). An item with nothing new is answered with status "unchanged". What was accepted is kept in n8n\'s database for the workflow, across executions and shared by its nodes.',
};

/**
 * Preview arrives on when added from Add Option, as Send Only Changes does: the marketer who picks it
 * means it, and turns it off (or removes it) to send for real.
 */
const previewField: INodeProperties = {
	displayName: 'Preview (Send Nothing)',
	name: RUN_OPTION.preview,
	type: 'boolean',
	default: true,
	description:
		'Whether to check every item and show what would be sent, in which request, without sending anything or remembering anything. Turn it off to send for real.',
};

/** Shown only with Send Only Changes on: they tune what it remembers. */
const sendOnlyChangesTuning: INodeProperties[] = [
	{
		displayName: 'Forget What Was Sent',
		name: RUN_OPTION.forgetSent,
		type: 'boolean' as const,
		default: true,
		description:
			'Whether to clear what this workflow remembers before the run: every item is then sent, and remembered anew',
	},
	historySizeField,
	resendEveryField,
].map((field) => ({ ...field, displayOptions: { show: { sendOnlyChanges: [true] } } }));

/**
 * Whether Send Only Changes can leave anything out: only what an answer proves is remembered, so an
 * operation none of whose state an answer proves (a subscription group's: the endpoint accepts an
 * unknown user) would send every item with it on, so such an operation does not offer it.
 */
function canLeaveOut(spec: OperationSpec): boolean {
	return Object.values(spec.stateSlots ?? {}).some((slot) => slot.provenByAcceptance);
}

/** Send Only Changes and its tuning, for an operation whose pieces set state. */
function sendOnlyChangesOf(spec: OperationSpec): INodeProperties[] {
	return canLeaveOut(spec) ? [sendOnlyChangesSwitch, ...sendOnlyChangesTuning] : [];
}

/**
 * Track Once Per Key arrives on when added from Add Option, as Send Only Changes does; its Key, Remember
 * For and Forget tune it and are shown with it on.
 */
const trackOncePerKeySwitch: INodeProperties = {
	displayName: 'Track Once Per Key',
	name: RUN_OPTION.trackOncePerKey,
	type: 'boolean',
	default: true,
	description:
		'Whether to leave out events and purchases this node already got accepted with the same key (Key, e.g. an order ID) within Remember For (Days): running the workflow again after fixing a row, or a webhook delivered twice, records each once. Such items are answered with status "already_tracked". Only what the platform accepted is remembered, in the n8n database, for this node.',
};

const DEFAULT_REMEMBER_DAYS = 30;

const trackOncePerKeyTuning: INodeProperties[] = (
	[
		{
			displayName: 'Key',
			name: RUN_OPTION.trackOncePerKeyKey,
			type: 'string',
			default: '',
			placeholder: "e.g. {{ $json.order_id + '-' + $json.sku }}",
			description:
				'What makes two items the same event or purchase, e.g. the order ID and product of an order line. Empty: the whole input item as it came in, so that only an identical item is left out.',
		},
		{
			displayName: 'Remember For (Days)',
			name: RUN_OPTION.rememberDays,
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 365 },
			default: DEFAULT_REMEMBER_DAYS,
			description:
				'How long a key is remembered after it was accepted (up to a quarter longer): an item with the same key after that is tracked again',
		},
		{
			displayName: 'Forget What Was Tracked',
			name: RUN_OPTION.forgetTracked,
			type: 'boolean',
			default: true,
			description:
				'Whether to clear the keys this node remembers before the run: every item is then tracked, and remembered anew',
		},
	] satisfies INodeProperties[]
).map((field): INodeProperties => ({ ...field, displayOptions: { show: { [RUN_OPTION.trackOncePerKey]: [true] } } }));

function trackOncePerKeyOf(spec: OperationSpec): INodeProperties[] {
	return spec.occurrenceSlots?.length ? [trackOncePerKeySwitch, ...trackOncePerKeyTuning] : [];
}

/** The most pieces one request of this shape may pack, or undefined when each request is one piece. */
function batchLimit(shape: RequestShape<unknown, unknown>): number | undefined {
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
			name: RUN_OPTION.batchSize,
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
		...sendOnlyChangesOf(spec),
		...trackOncePerKeyOf(spec),
		...(spec.answersWithRecords ? [] : [outputFieldField]),
		previewField,
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
	const number = (field: INodeProperties) => wholeNumberOption(context, options, field);
	const settings: RunSettings = {
		outputField: outputFieldOf(context, options),
		resendUnsafe: false,
		timeoutMs: number(timeoutField) * 1000,
		parallelRequests: number(parallelRequestsField),
		maxRateLimitWaitMs: number(maxRateLimitWaitField) * 1000,
	};
	if (options.preview === true) settings.preview = true;
	const [batchSize] = batchSizeField(spec.shape);
	if (batchSize && options.batchSize !== undefined) {
		const most = number(batchSize);
		settings.lowered = { perSlot: most, total: spec.shape.total === undefined ? undefined : most };
	}
	if (options.sendOnlyChanges === true && canLeaveOut(spec)) {
		settings.sentBefore = {
			forget: options.forgetSent === true,
			historySize: number(historySizeField),
			resendEveryDays: number(resendEveryField),
		};
	}
	if (options.trackOncePerKey === true && spec.occurrenceSlots?.length) {
		settings.oncePerKey = {
			rememberDays: number(trackOncePerKeyTuning.find(({ name }) => name === RUN_OPTION.rememberDays)!),
			forget: options.forgetTracked === true,
		};
	}
	return spec.options?.read?.(options, settings) ?? settings;
}

/**
 * A number option, held to its field's own range: an expression may map any value into it, and a
 * value that is no whole number in range stops the node before anything is sent.
 */
function wholeNumberOption(context: IExecuteFunctions, options: IDataObject, field: INodeProperties): number {
	const given = options[field.name] ?? field.default;
	const value = typeof given === 'string' && given.trim() !== '' ? Number(given) : given;
	const min = (field.typeOptions?.minValue as number | undefined) ?? 0;
	const max = field.typeOptions?.maxValue as number | undefined;
	if (typeof value === 'number' && Number.isInteger(value) && value >= min && (max === undefined || value <= max))
		return value;
	const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
	throw new NodeOperationError(
		context.getNode(),
		`Options → ${field.displayName} must be a whole number ${range}, got ${JSON.stringify(given)}`,
		{ description: `Give a whole number ${range}, or leave the option out for its default, ${String(field.default)}.` },
	);
}

/** Output Field Name, trimmed; an empty one stops the node before anything is sent. */
function outputFieldOf(context: IExecuteFunctions, options: IDataObject): string {
	const given = options.outputField ?? DEFAULT_OUTPUT_FIELD;
	const name = typeof given === 'string' ? given.trim() : '';
	if (name !== '') return name;
	throw new NodeOperationError(context.getNode(), `Options → ${outputFieldField.displayName} is empty`, {
		description: `Give the name of the field each item's answer goes in, or leave the option out for "${DEFAULT_OUTPUT_FIELD}".`,
	});
}
