import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { zoneClock } from '../../schemas/textValues';

/** How one parameter's value is had for each item. */
type Source = { kind: 'constant'; value: unknown } | { kind: 'field'; path: string[] } | { kind: 'expression' };

/** `={{ $json.customer.id }}` or `={{ $json["first name"] }}`: the whole value is one field of the item. */
const FIELD_REFERENCE = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*|\[(?:"[^"\\]*"|'[^'\\]*'|\d+)\])+)\s*\}\}\s*$/;
const PATH_STEP = /\.([A-Za-z_$][\w$]*)|\[(?:"([^"\\]*)"|'([^'\\]*)'|(\d+))\]/g;

/**
 * Reads node parameters for every item of a run at the cost of few expression evaluations,
 * which are most of n8n's time per item on large inputs:
 * - a parameter without expressions is the same for every item: read once per run;
 * - one that is exactly a field of the item (`{{ $json.email }}`, the mapping n8n's editor writes
 *   when a field is dragged in) is read from the item, as n8n's engine would resolve it;
 * - anything else, or a field that is absent or not plain JSON, goes through n8n's engine.
 * A constant object is copied for each item, so no item can change another's; a field is the
 * item's own value, which readers only read (schemas and bodies build new objects from it).
 */
export class ParameterReader {
	private readonly sources = new Map<string, Source>();
	private readonly items: INodeExecutionData[];
	private nodeVersion?: number;
	private workflowClock?: Intl.DateTimeFormat;

	constructor(private readonly context: IExecuteFunctions) {
		this.items = context.getInputData();
	}

	/** The node's version as the workflow saved it. */
	get version(): number {
		return (this.nodeVersion ??= this.context.getNode().typeVersion);
	}

	/** The wall clock of the workflow's timezone, where n8n's own date fields read zoneless times. */
	get clock(): Intl.DateTimeFormat {
		return (this.workflowClock ??= zoneClock(this.context.getTimezone()));
	}

	value(name: string, itemIndex: number, fallback?: unknown): unknown {
		const source = this.sourceOf(name, fallback);
		if (source.kind === 'constant') return copyOf(source.value);
		if (source.kind === 'field') {
			const value = fieldOf(this.items[itemIndex]?.json, source.path);
			if (value !== undefined && isPlainJson(value)) return value;
		}
		return this.context.getNodeParameter(name, itemIndex, fallback);
	}

	private sourceOf(name: string, fallback: unknown): Source {
		let source = this.sources.get(name);
		if (!source) {
			const raw = rawParameter(this.context.getNode().parameters, name);
			const reference = typeof raw === 'string' ? FIELD_REFERENCE.exec(raw) : null;
			if (reference) source = { kind: 'field', path: pathSteps(reference[1]) };
			else if (hasExpression(raw)) source = { kind: 'expression' };
			else source = { kind: 'constant', value: this.context.getNodeParameter(name, 0, fallback) };
			this.sources.set(name, source);
		}
		return source;
	}
}

function rawParameter(parameters: IDataObject, name: string): unknown {
	let value: unknown = parameters;
	for (const key of name.split('.'))
		value = value && typeof value === 'object' ? (value as IDataObject)[key] : undefined;
	return value;
}

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

function pathSteps(path: string): string[] {
	return [...path.matchAll(PATH_STEP)].map((step) => step[1] ?? step[2] ?? step[3] ?? step[4]);
}

function fieldOf(json: IDataObject | undefined, path: string[]): unknown {
	let value: unknown = json;
	for (const key of path) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

function isPlainJson(value: unknown): boolean {
	if (value === null || typeof value !== 'object')
		return typeof value !== 'function' && typeof value !== 'symbol' && typeof value !== 'bigint';
	const prototype = Object.getPrototypeOf(value) as unknown;
	return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/** A copy of a JSON value (what n8n parameters hold); cheaper than structuredClone for the small ones. */
function copyOf(value: unknown): unknown {
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map(copyOf);
	if (!isPlainJson(value)) return structuredClone(value);
	const copy: IDataObject = {};
	for (const key of Object.keys(value)) copy[key] = copyOf((value as IDataObject)[key]) as IDataObject[string];
	return copy;
}
