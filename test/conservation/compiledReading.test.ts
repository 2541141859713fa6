/**
 * The compiled reading (fields/parameterSource.ts, the run's parameter sources): for every operation
 * of the conservation table, a batch run with each field dragged in (`{{ $json.event }}`, as n8n's
 * editor maps one) gives the same requests and the same items as the same batch with each field
 * written so that only n8n's expression engine can work it out (`{{ ($json.event) }}`); and n8n
 * evaluates no dragged field, which it does for every item where the reading leaves them to it
 * (seen: the counter's figure for the engine's form). Each field's braces are laid out with spaces,
 * tabs and line breaks inside them (still a dragged field) and now and then before or after them
 * (`{{ $json.event }} `, text for n8n's engine in both runs: a field of the engine's, and so is a
 * parameter holding one). Both readings hand the node the items' own objects, so neither run may change
 * them (inputsUnchanged.test.ts runs every operation for that alone).
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { Expression } from 'n8n-workflow';

import type { RecordedRequest } from '../../sandbox';
import { useSandbox } from '../integration/sandboxLifecycle';
import type { Layout } from '../support/draggedLayout';
import { laidOut, layout } from '../support/draggedLayout';
import { nodeName } from '../support/nodeTypes';
import type { ConservationCase } from './conservationCase';
import { CONSERVATION_OPERATIONS } from './operationsTable';
import { changesTo, prepareSandbox, runOnSandbox } from './sandboxRun';

const RUNS = Number(process.env.COMPILED_READING_RUNS ?? 1);
const SEED = 20_261_127;

/** `={{ $json.a.b }}` or `={{ $json["a b"] }}`: exactly one field of the item, as a dragged field is written. */
const DRAGGED = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*|\[(?:"[^"\\]*"|'[^'\\]*'|\d+)\])+)\s*\}\}$/;
/** One field of the item, whitespace around its braces or not: the layout's parts and the field's path. */
const LAID_OUT = /^=(\s*)\{\{(\s*)\$json((?:\.[A-Za-z_$][\w$]*|\[(?:"[^"\\]*"|'[^'\\]*'|\d+)\])+)(\s*)\}\}(\s*)$/;

/** The parameters with every field of the item, each laid out as it is, written for n8n's engine alone; the count rewritten. */
function forEngineAlone(value: unknown): { value: unknown; dragged: number } {
	if (typeof value === 'string') {
		const match = LAID_OUT.exec(value);
		if (!match) return { value, dragged: 0 };
		const [, before, open, field, close, after] = match;
		return { value: laidOut(`($json${field})`, { before, open, close, after }), dragged: 1 };
	}
	if (Array.isArray(value)) {
		const entries = value.map(forEngineAlone);
		return {
			value: entries.map((entry) => entry.value),
			dragged: entries.reduce((sum, entry) => sum + entry.dragged, 0),
		};
	}
	if (value && typeof value === 'object') {
		const entries = Object.entries(value).map(([key, entry]) => [key, forEngineAlone(entry)] as const);
		return {
			value: Object.fromEntries(entries.map(([key, entry]) => [key, entry.value])),
			dragged: entries.reduce((sum, [, entry]) => sum + entry.dragged, 0),
		};
	}
	return { value, dragged: 0 };
}

/**
 * A template is checked against n8n's value for the run's first item (parameterSource.ts), once for
 * its parameter and once more where it is a collection's option (Additional Fields' Subscription
 * Groups): n8n evaluates a dragged field that often per run, never once per item.
 */
const CHECKS_PER_RUN = 2;

/** Dragged fields n8n evaluated more often per run than its checks of them (those of a parameter of the engine's aside). */
function overOnce(evaluated: string[], { appearances, engines }: ReturnType<typeof draggedIn>): string[] {
	const counts = new Map<string, number>();
	for (const expression of evaluated)
		if (DRAGGED.test(expression) && !engines.has(expression)) counts.set(expression, (counts.get(expression) ?? 0) + 1);
	return [...counts]
		.filter(([expression, count]) => count > (appearances.get(expression) ?? 0) * CHECKS_PER_RUN)
		.map(([expression, count]) => `${expression} ×${count}`);
}

/**
 * Each dragged field of a parameter whose every expression is one, with how many times it appears; and
 * the dragged fields of the other parameters, which n8n's engine works out with the rest of theirs.
 */
function draggedIn(parameters: INodeParameters) {
	const appearances = new Map<string, number>();
	const engines = new Set<string>();
	for (const parameter of Object.values(parameters)) {
		const expressions = expressionsIn(parameter);
		const read = expressions.every((expression) => DRAGGED.test(expression));
		for (const expression of expressions.filter((each) => DRAGGED.test(each)))
			if (read) appearances.set(expression, (appearances.get(expression) ?? 0) + 1);
			else engines.add(expression);
	}
	return { appearances, engines };
}

function expressionsIn(value: unknown): string[] {
	if (typeof value === 'string') return value.startsWith('=') ? [value] : [];
	return value && typeof value === 'object' ? Object.values(value).flatMap(expressionsIn) : [];
}

/** The parameters with their dragged fields laid out, the n-th met as `layouts[n]`. */
function withLayouts(value: unknown, layouts: readonly Layout[], next = { index: 0 }): unknown {
	if (typeof value === 'string') {
		const match = DRAGGED.exec(value);
		return match ? laidOut(`$json${match[1]}`, layouts[next.index++]) : value;
	}
	if (Array.isArray(value)) return value.map((entry) => withLayouts(entry, layouts, next));
	if (value && typeof value === 'object')
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, withLayouts(entry, layouts, next)]));
	return value;
}

/** The expressions n8n's engine works out, recorded while `counting` is on. */
const evaluated: string[] = [];
let counting = false;
const resolve = Expression.prototype.resolveSimpleParameterValue;
beforeAll(() => {
	Expression.prototype.resolveSimpleParameterValue = function (this: Expression, value, ...rest) {
		if (counting && typeof value === 'string' && value.startsWith('=')) evaluated.push(value);
		return resolve.call(this, value, ...rest);
	};
});
afterAll(() => {
	Expression.prototype.resolveSimpleParameterValue = resolve;
});

/**
 * What a run gave, with what differs between two runs of the same batch named by its order of
 * appearance: the sandbox's own IDs (a profile's service ID, a dispatch ID, a dashboard user's UUID)
 * and the node's own send IDs; and the sandbox's clock (a time it stamps today) as one word.
 */
function comparable(output: INodeExecutionData[], requests: RecordedRequest[]): unknown {
	const seen = new Map<string, string>();
	const named = (id: string) => {
		if (!seen.has(id)) seen.set(id, `#${seen.size}`);
		return seen.get(id)!;
	};
	const today = new Date().toISOString().slice(0, 10);
	const text = JSON.stringify({
		items: output.map((item) => ({ json: item.json, pairedItem: item.pairedItem })),
		requests: requests.map((request) => ({ method: request.method, path: request.path, body: request.body })),
	})
		.replace(/\b[0-9a-f]{24}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, named)
		.replace(/("external_send_id":")([^"]+)/g, (_, key: string, id: string) => key + named(id))
		.replaceAll(new RegExp(`${today}T[0-9:.]+(?:Z|[+-]\\d{2}:\\d{2})`, 'g'), 'today');
	return JSON.parse(text) as unknown;
}

const { sandbox, client } = useSandbox();

async function runOnce(testCase: ConservationCase, generated: IDataObject[], parameters: INodeParameters) {
	const items = await prepareSandbox(client(), testCase, generated);
	// A copy made in this realm for each run of the batch: structuredClone's objects have another realm's prototype under jest.
	const given = JSON.parse(JSON.stringify(items)) as IDataObject[];
	const before = structuredClone(given);
	evaluated.length = 0;
	counting = true;
	const result = await runOnSandbox(sandbox().url, testCase.nodeType, given, parameters).finally(() => {
		counting = false;
	});
	if (result.error) throw result.error;
	return {
		compared: comparable(result.output(nodeName(testCase.nodeType)), await client().requests()),
		evaluated: [...evaluated],
		// Either reading, the node's or n8n's, hands the items' own objects over: neither run changes them.
		inputsChanged: changesTo(before, given),
	};
}

describe.each(CONSERVATION_OPERATIONS)('$name', (testCase) => {
	test('dragged fields read by the node give what n8n’s engine gives, and n8n evaluates none of them; neither reading’s run changes the input items', async () => {
		const { dragged } = forEngineAlone(testCase.parameters);
		expect(dragged).toBeGreaterThan(0);
		const layouts = fc.array(layout, { minLength: dragged, maxLength: dragged });
		await fc.assert(
			fc.asyncProperty(testCase.items, layouts, async (generated, laid) => {
				const parameters = withLayouts(testCase.parameters, laid) as INodeParameters;
				const mapped = draggedIn(parameters);
				const compiled = await runOnce(testCase, generated, parameters);
				const engine = await runOnce(testCase, generated, forEngineAlone(parameters).value as INodeParameters);

				expect(compiled.compared).toEqual(engine.compared);
				expect({ compiled: compiled.inputsChanged, engine: engine.inputsChanged }).toEqual({
					compiled: [],
					engine: [],
				});
				expect(overOnce(compiled.evaluated, mapped)).toEqual([]);
				// The counter sees the engine's work: it evaluates each field it reads for the items, and so more
				// than in the dragged run where the node reads dragged fields itself.
				expect(engine.evaluated.length).toBeGreaterThan(0);
				const theirs = new Set([...mapped.appearances.keys()].map((each) => forEngineAlone(each).value));
				if (engine.evaluated.some((each) => theirs.has(each)))
					expect(engine.evaluated.length).toBeGreaterThan(compiled.evaluated.length);
			}),
			{ seed: SEED, numRuns: RUNS, endOnFailure: true },
		);
	});
});
