import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { NodeOperation } from '../shared/engine/nodeOperations';
import { executeChosenOperation, operationProperties } from '../shared/engine/nodeOperations';
import * as create from './operations/create';
import * as remove from './operations/delete';
import * as findByEmail from './operations/findByEmail';
import * as get from './operations/get';
import * as update from './operations/update';

const operations: NodeOperation[] = [create, remove, findByEmail, get, update];

export class EngagementPlatformDashboardUser implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform Dashboard User',
		name: 'engagementPlatformDashboardUser',
		icon: { light: 'file:../../../icons/engagementPlatform.svg', dark: 'file:../../../icons/engagementPlatform.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Create, read, update, find and delete dashboard user accounts over SCIM 2.0',
		defaults: { name: 'Engagement Platform Dashboard User' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'engagementPlatformScimApi', required: true }],
		properties: operationProperties(operations, 'create'),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, operations);
	}
}
