/**
 * Node folders use the engine through its door, shared/engine/index.ts, and nothing else of it: what an
 * operation may use is what the door exports (CONTRIBUTING.md, Layout). The engine imports no node folder.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import { relativeImportsOf as importsOf, sourcesUnder } from '../support/sourceFiles';

const NODES = path.resolve(__dirname, '../../nodes/EngagementPlatform');
const SHARED = path.join(NODES, 'shared');
const ENGINE = path.join(SHARED, 'engine');

const nodeFolders = readdirSync(NODES)
	.map((entry) => path.join(NODES, entry))
	.filter((entry) => statSync(entry).isDirectory() && entry !== SHARED);

test('node folders import the engine through shared/engine/index.ts alone', () => {
	const files = nodeFolders.flatMap(sourcesUnder);
	expect(files.length).toBeGreaterThan(50);
	const throughTheDoor = files.flatMap(importsOf).filter((target) => target === ENGINE);
	// The imports are read: node files do use the engine.
	expect(throughTheDoor.length).toBeGreaterThan(20);
	const past = files.flatMap((file) =>
		importsOf(file)
			.filter((target) => target.startsWith(`${ENGINE}${path.sep}`))
			.map((target) => `${path.relative(NODES, file)} imports ${path.relative(NODES, target)}`),
	);
	expect(past).toEqual([]);
});

test('the engine imports no node folder', () => {
	const files = sourcesUnder(ENGINE);
	expect(files.length).toBeGreaterThan(20);
	const intoNodes = files.flatMap((file) =>
		importsOf(file)
			.filter((target) => nodeFolders.some((folder) => target === folder || target.startsWith(`${folder}${path.sep}`)))
			.map((target) => `${path.relative(NODES, file)} imports ${path.relative(NODES, target)}`),
	);
	expect(intoNodes).toEqual([]);
});
