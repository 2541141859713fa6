/**
 * The package's modules import each other without a circle, type-only imports included: a
 * declaration does not depend on the stages that run it (CONTRIBUTING.md, Layout).
 */
import { statSync } from 'node:fs';
import path from 'node:path';

import { relativeImportsOf, sourcesUnder } from '../support/sourceFiles';

const ROOT = path.resolve(__dirname, '../..');

function importsOf(file: string): string[] {
	return relativeImportsOf(file).map((target) =>
		statSync(`${target}.ts`, { throwIfNoEntry: false }) ? `${target}.ts` : path.join(target, 'index.ts'),
	);
}

/** Every circle, each once, as the files it passes through (relative to the project). */
function circles(files: string[]): string[][] {
	const graph = new Map(files.map((file) => [file, importsOf(file)]));
	const found = new Map<string, string[]>();
	const state = new Map<string, 'open' | 'done'>();
	const stack: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		stack.push(file);
		for (const next of graph.get(file) ?? []) {
			if (state.get(next) === 'open') {
				const circle = stack.slice(stack.indexOf(next)).map((member) => path.relative(ROOT, member));
				const key = [...circle].sort().join(' ');
				if (!found.has(key)) found.set(key, circle);
			} else if (!state.has(next)) visit(next);
		}
		stack.pop();
		state.set(file, 'done');
	};
	for (const file of files) if (!state.has(file)) visit(file);
	return [...found.values()];
}

test('no module of the nodes or credentials imports itself through others', () => {
	const files = [...sourcesUnder(path.join(ROOT, 'nodes')), ...sourcesUnder(path.join(ROOT, 'credentials'))];
	expect(files.length).toBeGreaterThan(50);
	// The imports are read: a pattern that found none would find no circle either.
	expect(files.flatMap(importsOf).length).toBeGreaterThan(files.length);
	expect(circles(files).map((circle) => circle.join(' → '))).toEqual([]);
});
