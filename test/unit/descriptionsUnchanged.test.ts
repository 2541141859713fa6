/**
 * Every node's description, as n8n loads it from the package, is kept as a snapshot: a change to
 * what the editor shows or saves (a field, a default, a label, a display condition) fails here until
 * it is meant and the snapshot is updated (`npx jest -u test/unit/descriptionsUnchanged.test.ts`).
 * Reworking how the nodes read their inputs must leave every description byte-identical.
 */
import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import { loadPackageNodeTypes } from '../harness/package-types';

const nodeTypes = Object.entries(loadPackageNodeTypes()).filter(([type]) => type.includes('.'));

test.each(nodeTypes.map(([type, nodeType]) => [type.split('.').pop()!, nodeType] as const))(
	'%s: its description is as the snapshot holds it',
	(_, nodeType: INodeType | IVersionedNodeType) => {
		const versioned = (nodeType as IVersionedNodeType).nodeVersions;
		const descriptions = versioned
			? Object.fromEntries(Object.entries(versioned).map(([version, type]) => [version, type.description]))
			: { all: (nodeType as INodeType).description };
		expect(JSON.stringify(descriptions, null, 1)).toMatchSnapshot();
	},
);
