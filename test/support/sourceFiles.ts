import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every TypeScript source under a folder (declaration files left out), for the tests that read the code. */
export function sourcesUnder(folder: string): string[] {
	return readdirSync(folder).flatMap((entry) => {
		const file = path.join(folder, entry);
		if (statSync(file).isDirectory()) return sourcesUnder(file);
		return file.endsWith('.ts') && !file.endsWith('.d.ts') ? [file] : [];
	});
}

const RELATIVE_IMPORT = /^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm;

/** A file's relative imports and re-exports, type-only ones included, each as the path it names (no `.ts`). */
export function relativeImportsOf(file: string): string[] {
	return [...readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)].map(([, specifier]) =>
		path.resolve(path.dirname(file), specifier),
	);
}
