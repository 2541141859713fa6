import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { updateDisplayOptions } from '../descriptions/displayOptions';
import type { OperationSpec } from './operation';
import { optionsProperty } from './runOptions';

/** One operation of a node: its entry in the Operation list, its fields, and its declaration (which gives its Options). */
export interface NodeOperation {
	option: INodePropertyOptions;
	description: INodeProperties[];
	operation: OperationSpec;
}

/**
 * The node's one Resource, the Operation selector shown for it, then every operation's fields. The
 * Resource is there for n8n's editor: it names a node added through an action of the node panel by
 * that action ("Update user attributes"), as it names its own, only when the Operation list is shown
 * for a resource (n8n-workflow's makeNodeName; CONTRIBUTING.md, Node names).
 */
export function operationProperties(
	operations: NodeOperation[],
	defaultOperation: string,
	resource: INodePropertyOptions & { value: string },
): INodeProperties[] {
	const { value: resourceValue } = resource;
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: [resource],
			default: resourceValue,
		},
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			options: operations.map(({ option }) => option),
			default: defaultOperation,
			displayOptions: { show: { resource: [resourceValue] } },
		},
		// Each operation's fields are shown for it alone: the one place that says so.
		...operations.flatMap(({ option, description, operation }) => [
			...updateDisplayOptions({ show: { operation: [option.value] } }, description),
			optionsProperty(String(option.value), operation),
		]),
	];
}

/**
 * The subtitle under the node on the canvas: the chosen operation's name ("Track Purchase"), where
 * `$parameter["operation"]` alone would show its stored value (`trackPurchase`).
 */
export function operationSubtitle(operations: NodeOperation[]): string {
	const names = Object.fromEntries(operations.map(({ option }) => [String(option.value), option.name]));
	return `={{ (${JSON.stringify(names)})[$parameter["operation"]] }}`;
}
