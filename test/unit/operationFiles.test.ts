/**
 * A node's `operations/` folder holds one file per operation and its list (CONTRIBUTING.md, Layout): each
 * file but index.ts is an operation, named for its value, exporting `option`, `description` and
 * `operation`; what several operations share lives in the node's `shared/`.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import type { INodePropertyOptions } from 'n8n-workflow';

const NODES = path.resolve(__dirname, '../../nodes/EngagementPlatform');

const operationFolders = readdirSync(NODES)
	.map((entry) => path.join(NODES, entry, 'operations'))
	.filter((folder) => statSync(folder, { throwIfNoEntry: false })?.isDirectory());

test("every file in a node's operations/ but its list is an operation named for its value", () => {
	expect(operationFolders.length).toBeGreaterThanOrEqual(7);
	const misplaced: string[] = [];
	for (const folder of operationFolders)
		for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts') && name !== 'index.ts')) {
			const module = require(path.join(folder, file)) as {
				option?: INodePropertyOptions;
				description?: unknown;
				operation?: unknown;
			};
			const named = module.option?.value === path.basename(file, '.ts');
			if (!named || !Array.isArray(module.description) || module.operation === undefined)
				misplaced.push(path.relative(NODES, path.join(folder, file)));
		}
	expect(misplaced).toEqual([]);
});
