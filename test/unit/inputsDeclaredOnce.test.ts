/**
 * Every input is declared once (CONTRIBUTING.md, "Adding a field"): an operation reads an input
 * through its declaration (`shared/fields/inputs.ts`), so no node folder names a parameter to a
 * reader, and no error outside `shared/fields/` is labelled with text typed again: labels come from
 * the inputs' properties.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const NODES = path.resolve(__dirname, '../../nodes/EngagementPlatform');
const FIELDS = path.join(NODES, 'shared', 'fields');

function sources(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const file = path.join(folder, name);
		if (statSync(file).isDirectory()) return sources(file);
		return file.endsWith('.ts') ? [file] : [];
	});
}

/** Where `pattern` matches in `files`, as `file:line: text`. */
function matches(files: string[], pattern: RegExp): string[] {
	return files.flatMap((file) => {
		const text = readFileSync(file, 'utf8');
		return [...text.matchAll(pattern)].map((match) => {
			const line = text.slice(0, match.index).split('\n').length;
			return `${path.relative(NODES, file)}:${line}: ${match[0].replace(/\s+/g, ' ')}`;
		});
	});
}

const READER = /\bitem\.(?:raw|rawPart)\(\s*['"`]/g;
const TYPED_LABEL =
	/new ItemInputError\(\s*(?:'|"|`(?!\$\{))|parseOrThrow\(\s*[^,()]+,\s*[^,()]+,\s*(?:'|"|`(?!\$\{))/g;

const nodeFolders = readdirSync(NODES)
	.filter((name) => name !== 'shared' && statSync(path.join(NODES, name)).isDirectory())
	.map((name) => path.join(NODES, name));
const nodeFiles = nodeFolders.flatMap(sources);
const outsideFields = sources(NODES).filter((file) => !file.startsWith(FIELDS + path.sep));

test('the patterns see the code they look for', () => {
	expect(nodeFiles.length).toBeGreaterThan(40);
	// The readers are used where they belong, and the patterns find what they describe.
	expect(matches(sources(FIELDS), READER).length).toBeGreaterThan(0);
	expect("item.raw('campaignId')").toMatch(new RegExp(READER.source));
	expect("new ItemInputError('Price', 'is required', 'Fill it in.')").toMatch(new RegExp(TYPED_LABEL.source));
	expect("parseOrThrow(trackPurchase, value, 'Purchase')").toMatch(new RegExp(TYPED_LABEL.source));
	expect('new ItemInputError(`${PRICE.label}[0]`, rule, fix)').not.toMatch(new RegExp(TYPED_LABEL.source));
});

test('no node folder reads a parameter by a name typed in a reader call', () => {
	expect(matches(nodeFiles, READER)).toEqual([]);
});

test('no error outside shared/fields is labelled with text typed again', () => {
	const TYPED_LABEL =
		/new ItemInputError\(\s*(?:'|"|`(?!\$\{))|parseOrThrow\(\s*[^,()]+,\s*[^,()]+,\s*(?:'|"|`(?!\$\{))/g;
	expect(matches(outsideFields, TYPED_LABEL)).toEqual([]);
});
