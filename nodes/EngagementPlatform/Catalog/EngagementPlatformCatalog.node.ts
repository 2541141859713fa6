import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeChosenOperation, operationProperties, operationSubtitle, testApiKeyCredential } from '../shared/engine';
import { withBuilderHints } from '../shared/descriptions/builderHints';
import { catalogOperations } from './operations';

/**
 * Hints for n8n's AI workflow builder on the parameters the shared builders declare (the item's
 * fields), by parameter name. Fields declared in this node's own files carry their hint where they are
 * declared, each operation's entry in the Operation list too (n8n refuses a hint on the list itself).
 */
const BUILDER_HINTS: Readonly<Record<string, string>> = {
	fieldsFields:
		"The catalog item's fields other than its ID, one entry per field with its name, value (usually mapped from the input item) and type. Replace Items writes the whole item, Edit Items only the fields given, where an array field can take an object with $add or $remove.",
};

export class EngagementPlatformCatalog implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform Catalog',
		name: 'engagementPlatformCatalog',
		icon: {
			light: 'file:../../../icons/engagementPlatform.svg',
			dark: 'file:../../../icons/engagementPlatform.dark.svg',
		},
		group: ['output'],
		// One version, the first published (CONTRIBUTING.md, Node versions).
		version: 2,
		subtitle: operationSubtitle(catalogOperations),
		description: 'Edit, replace and delete catalog items, 50 per request',
		defaults: { name: 'Engagement Platform Catalog' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		builderHint: {
			searchHint:
				'Use to write the items of a catalog kept in the platform (products, content): replace or create whole items, edit fields of existing ones, or delete them, one catalog item per input item, 50 to a request (no loop needed). It does not track purchases or user data: use the Engagement Platform User node for those.',
		},
		credentials: [{ name: 'engagementPlatformApi', required: true, testedBy: 'engagementPlatformApiTest' }],
		properties: withBuilderHints(
			operationProperties(catalogOperations, 'replaceItems', {
				name: 'Catalog Item',
				value: 'catalogItem',
				builderHint: {
					propertyHint: "The items of one catalog, edited, replaced or deleted in batches: this node's one resource.",
				},
			}),
			BUILDER_HINTS,
		),
	};

	methods = { credentialTest: { engagementPlatformApiTest: testApiKeyCredential } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, catalogOperations);
	}
}
