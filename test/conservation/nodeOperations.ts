/** Every operation of every node of the package, read from the node descriptions n8n loads. */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { loadPackageNodeTypes, readPackageInfo } from '../harness/package-types';

export interface NodeOperation {
	nodeType: string;
	operation: string;
}

export const operationId = ({ nodeType, operation }: NodeOperation): string => `${nodeType} / ${operation}`;

export interface PackageNodes {
	/** Every value of every node's `operation` options. */
	operations: NodeOperation[];
	/** Nodes without an `operation` parameter, and whether n8n would treat each as a trigger. */
	withoutOperations: Array<{ nodeType: string; trigger: boolean }>;
}

function descriptionOf(nodeType: ReturnType<typeof loadPackageNodeTypes>[string]): INodeTypeDescription {
	return 'nodeVersions' in nodeType ? nodeType.nodeVersions[nodeType.currentVersion].description : nodeType.description;
}

export function packageNodes(): PackageNodes {
	const { name } = readPackageInfo();
	const types = loadPackageNodeTypes();
	const result: PackageNodes = { operations: [], withoutOperations: [] };
	for (const [key, type] of Object.entries(types)) {
		if (!key.startsWith(`${name}.`)) continue; // each type is also listed by its bare name
		const description = descriptionOf(type);
		const operationFields = description.properties.filter((property: INodeProperties) => property.name === 'operation');
		const values = new Set(
			operationFields.flatMap((property) =>
				(property.options ?? []).map((option) => String((option as { value: unknown }).value)),
			),
		);
		if (values.size === 0) {
			result.withoutOperations.push({
				nodeType: key,
				trigger: description.group.includes('trigger') || description.inputs.length === 0,
			});
			continue;
		}
		for (const operation of values) result.operations.push({ nodeType: key, operation });
	}
	return result;
}
