/**
 * Every node's description, as n8n loads it from the package, is kept as a snapshot: a change to
 * what the editor shows or saves (a field, a default, a label, a display condition) fails here until
 * it is meant and the snapshot is updated (`npx jest -u test/unit/descriptionsUnchanged.test.ts`).
 * Reworking how the nodes read their inputs must leave every description byte-identical.
 */
import type { INodeType } from 'n8n-workflow';

import { loadPackageNodeTypes } from '../harness/package-types';

const nodeTypes = Object.entries(loadPackageNodeTypes()).filter(([type]) => type.includes('.'));

test.each(nodeTypes.map(([type, nodeType]) => [type.split('.').pop()!, nodeType] as const))(
	'%s: its description is as the snapshot holds it',
	(_, nodeType) => {
		// Each node has one version; `all` names the description every saved version of it reads.
		expect(JSON.stringify({ all: (nodeType as INodeType).description }, null, 1)).toMatchSnapshot();
	},
);
