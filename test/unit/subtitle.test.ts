import type { INode, INodeProperties, INodeType, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { loadPackageNodeTypes } from '../harness/package-types';

/**
 * The canvas shows a node's subtitle under its name: the editor resolves the subtitle expression
 * with the node's parameters (useNodeHelpers' getNodeSubtitle). It must read as the operation's
 * name in the Operation list ("Track Purchase"), not its stored value (`trackPurchase`).
 */
function subtitleOf(type: string, nodeType: INodeType, operation: string): unknown {
	const node: INode = {
		id: 'subtitle-probe',
		name: 'Probe',
		type,
		typeVersion: nodeType.description.version as number,
		position: [0, 0],
		parameters: { operation },
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, nodeType.description.subtitle!, 'internal', {});
}

describe('the subtitle under a node on the canvas', () => {
	const withOperations = Object.entries(loadPackageNodeTypes())
		.filter(([type]) => type.startsWith('n8n-nodes-engagement-platform.'))
		.map(([type, nodeType]) => [type, nodeType as INodeType] as const)
		.filter(([, nodeType]) => nodeType.description.properties.some((property) => property.name === 'operation'));

	test.each(withOperations.map(([type, nodeType]) => [nodeType.description.displayName, type, nodeType]))(
		'%s: each operation by its name',
		(_, type, nodeType) => {
			const operation = nodeType.description.properties.find(
				(property) => property.name === 'operation',
			) as INodeProperties;
			for (const option of operation.options as Array<{ name: string; value: string }>) {
				expect(subtitleOf(type, nodeType, option.value)).toBe(option.name);
			}
		},
	);
});
