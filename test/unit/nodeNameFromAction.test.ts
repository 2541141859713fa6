import type { INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { loadPackageNodeTypes } from '../harness/package-types';

/**
 * n8n 2.x names a node added through an action of the node panel by that action ("Update user
 * attributes"), as it names its own: the panel adds the node with the action's parameters (the
 * operation, and the resource its display condition names: useActionsGeneration's
 * resourceCategories), and the canvas names it with n8n-workflow's makeNodeName of those parameters
 * and their defaults (useNodeHelpers' getDefaultNodeName). makeNodeName reads an operation's action
 * only from an Operation list shown for a Resource, so each node declares its one resource.
 */
const withOperations = Object.entries(loadPackageNodeTypes())
	.filter(([type]) => type.startsWith('n8n-nodes-engagement-platform.'))
	.map(([, nodeType]) => (nodeType as INodeType).description)
	.filter((description) => description.properties.some((property) => property.name === 'operation'));

/** The parameters the node panel adds the node with for an action: its values and its display condition's. */
function actionParameters(operation: INodeProperties, option: INodePropertyOptions) {
	const resource = operation.displayOptions?.show?.resource?.[0];
	return { operation: option.value, ...(resource === undefined ? {} : { resource }) };
}

test.each(withOperations.map((description) => [description.displayName, description] as const))(
	'%s: added through an action of the node panel, the node is named by the action',
	(_, description) => {
		const operation = description.properties.find((property) => property.name === 'operation')!;
		const named = (operation.options as INodePropertyOptions[]).map((option) => {
			const parameters = NodeHelpers.getNodeParameters(
				description.properties,
				actionParameters(operation, option),
				true,
				false,
				{ typeVersion: description.version as number },
				description,
			);
			return [option.action, NodeHelpers.makeNodeName(parameters ?? {}, description)];
		});
		expect(named).toEqual(named.map(([action]) => [action, action]));
	},
);
