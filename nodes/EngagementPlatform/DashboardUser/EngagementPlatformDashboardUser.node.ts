import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	executeChosenOperation,
	operationProperties,
	operationSubtitle,
	testScimTokenCredential,
} from '../shared/engine';
import { dashboardUserOperations } from './operations';

export class EngagementPlatformDashboardUser implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform Dashboard User',
		name: 'engagementPlatformDashboardUser',
		icon: {
			light: 'file:../../../icons/engagementPlatform.svg',
			dark: 'file:../../../icons/engagementPlatform.dark.svg',
		},
		group: ['output'],
		// One version, the first published (CONTRIBUTING.md, Node versions).
		version: 2,
		subtitle: operationSubtitle(dashboardUserOperations),
		description: 'Create, read, update, find and delete dashboard user accounts over SCIM 2.0',
		defaults: { name: 'Engagement Platform Dashboard User' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		builderHint: {
			searchHint:
				"Use to manage the accounts of people who log in to the platform's dashboard (staff, agencies) over SCIM: create, get, find by email, update and delete them with their permissions. It never touches customer profiles: for those use the Engagement Platform User node.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-engagement-platform.engagementPlatformUser',
					relationHint: 'Customer profiles, not dashboard accounts',
				},
			],
		},
		credentials: [{ name: 'engagementPlatformScimApi', required: true, testedBy: 'engagementPlatformScimApiTest' }],
		properties: operationProperties(dashboardUserOperations, 'create', {
			name: 'Dashboard User',
			value: 'dashboardUser',
			builderHint: {
				propertyHint: "The accounts of people who sign in to the dashboard (SCIM): this node's one resource.",
			},
		}),
	};

	methods = { credentialTest: { engagementPlatformScimApiTest: testScimTokenCredential } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, dashboardUserOperations);
	}
}
