import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import type { SandboxClient, SeedData } from '../../sandbox';
import type { WorkflowFile } from '../harness/runExampleWorkflow';

const EXAMPLES = path.resolve(__dirname, '../../examples');

/** What an example workflow declares it does, in `<name>.expect.json` beside it. */
export interface ExampleExpectation {
	description: string;
	/** What the sandbox holds before the run (profiles to export, identify, rename ...). */
	seed?: SeedData;
	/**
	 * The node whose output items are checked. `each`, `first` and `last` match an item as it comes out:
	 * the input row's fields at the top, the node's words under `engagementPlatform` (an operation
	 * answering with the platform's records: the records).
	 */
	node: string;
	items: number;
	/** Fields every output item has. */
	each?: IDataObject;
	/** Fields the first output item has. */
	first?: IDataObject;
	/** Fields the last output item has. */
	last?: IDataObject;
	/** "METHOD /path" → how many requests the sandbox received. */
	requests?: Record<string, number>;
	/** Counts the sandbox's stats must show. */
	stats?: Record<string, number>;
	/** Profiles that must exist, matched by external_id, with at least these fields. */
	profiles?: IDataObject[];
	/** By a list of the sandbox's state (catalogs, preferenceCenters, dashboardUsers ...): entries some element must match. */
	state?: Record<string, IDataObject[]>;
	/** How many entries a list of the sandbox's state holds after the run. */
	stateCounts?: Record<string, number>;
}

export interface Example {
	name: string;
	file: string;
	workflow: WorkflowFile & { id: string };
	expectation: ExampleExpectation;
}

/** Every workflow in examples/, with its expectation. */
export function loadExamples(): Example[] {
	return readdirSync(EXAMPLES)
		.filter((file) => file.endsWith('.json') && !file.endsWith('.expect.json'))
		.map((file) => ({
			name: file.replace(/\.json$/, ''),
			file: path.join(EXAMPLES, file),
			workflow: JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Example['workflow'],
			expectation: JSON.parse(
				readFileSync(path.join(EXAMPLES, file.replace(/\.json$/, '.expect.json')), 'utf8'),
			) as ExampleExpectation,
		}));
}

/** Whether `actual` has every field of `expected` (recursively), with equal values. */
function matches(expected: unknown, actual: unknown): boolean {
	if (expected === null || typeof expected !== 'object') return expected === actual;
	if (actual === null || typeof actual !== 'object') return false;
	return Object.entries(expected).every(([key, value]) => matches(value, (actual as IDataObject)[key]));
}

/** Resets the sandbox to what the example starts from. */
export async function prepareSandbox(expectation: ExampleExpectation, client: SandboxClient): Promise<void> {
	await client.reset();
	if (expectation.seed) await client.seed(expectation.seed);
}

/** What differs between an example's expectation and what its run produced; empty when all holds. */
export async function expectationProblems(
	expectation: ExampleExpectation,
	output: IDataObject[],
	client: SandboxClient,
): Promise<string[]> {
	const problems: string[] = [];
	if (output.length !== expectation.items)
		problems.push(`${expectation.node} gave ${output.length} items, expected ${expectation.items}`);
	output.forEach((json, index) => {
		if (expectation.each && !matches(expectation.each, json)) problems.push(`item ${index} is ${JSON.stringify(json)}`);
	});
	if (expectation.first && !matches(expectation.first, output[0]))
		problems.push(`the first item is ${JSON.stringify(output[0])}`);
	if (expectation.last && !matches(expectation.last, output.at(-1)))
		problems.push(`the last item is ${JSON.stringify(output.at(-1))}`);

	const requests = await client.requests();
	for (const [route, count] of Object.entries(expectation.requests ?? {})) {
		const [method, requestPath] = route.split(' ');
		const seen = requests.filter((r) => r.method === method && r.path === requestPath).length;
		if (seen !== count) problems.push(`${route} was sent ${seen} times, expected ${count}`);
	}
	const stats = (await client.stats()) as unknown as Record<string, number>;
	for (const [key, count] of Object.entries(expectation.stats ?? {})) {
		if (stats[key] !== count) problems.push(`the sandbox holds ${stats[key]} ${key}, expected ${count}`);
	}
	const { profiles } = await client.state();
	for (const expected of expectation.profiles ?? []) {
		const profile = profiles.find((p) => p.external_id === expected.external_id);
		if (!matches(expected, profile))
			problems.push(`profile ${String(expected.external_id)} is ${JSON.stringify(profile)}`);
	}
	const state = (await client.state()) as unknown as Record<string, unknown>;
	for (const [list, entries] of Object.entries(expectation.state ?? {})) {
		const held = Array.isArray(state[list]) ? (state[list] as unknown[]) : [];
		for (const expected of entries) {
			if (!held.some((actual) => matches(expected, actual)))
				problems.push(`state.${list} has nothing like ${JSON.stringify(expected)}`);
		}
	}
	for (const [list, count] of Object.entries(expectation.stateCounts ?? {})) {
		const held = Array.isArray(state[list]) ? (state[list] as unknown[]).length : undefined;
		if (held !== count) problems.push(`state.${list} holds ${held} entries, expected ${count}`);
	}
	return problems;
}
