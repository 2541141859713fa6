/**
 * The package's modules import each other without a circle, type-only imports included: a
 * declaration does not depend on the stages that run it (CONTRIBUTING.md, Layout).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const IMPORT = /^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm;

function sourcesUnder(folder: string): string[] {
	return readdirSync(folder).flatMap((entry) => {
		const file = path.join(folder, entry);
		if (statSync(file).isDirectory()) return sourcesUnder(file);
		return file.endsWith('.ts') && !file.endsWith('.d.ts') ? [file] : [];
	});
}

function importsOf(file: string): string[] {
	return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map(([, specifier]) => {
		const target = path.resolve(path.dirname(file), specifier);
		return statSync(`${target}.ts`, { throwIfNoEntry: false }) ? `${target}.ts` : path.join(target, 'index.ts');
	});
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
