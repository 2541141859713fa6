import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { executeChosenOperation, operationProperties, operationSubtitle, testApiKeyCredential } from '../shared/engine';
import { translationOperations } from './operations';

export class EngagementPlatformTranslation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engagement Platform Translation',
		name: 'engagementPlatformTranslation',
		icon: {
			light: 'file:../../../icons/engagementPlatform.svg',
			dark: 'file:../../../icons/engagementPlatform.dark.svg',
		},
		group: ['input'],
		// One version, the first published (CONTRIBUTING.md, Node versions).
		version: 2,
		subtitle: operationSubtitle(translationOperations),
		description: 'Read the translations of campaign and canvas email messages',
		defaults: { name: 'Engagement Platform Translation' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		builderHint: {
			searchHint:
				"Use to read the translated texts of an email message: every locale (or one by name) of a campaign's message, or one locale of a canvas step's message, one output item per locale. It only reads; to send messages use the Engagement Platform Message node.",
		},
		credentials: [{ name: 'engagementPlatformApi', required: true, testedBy: 'engagementPlatformApiTest' }],
		properties: operationProperties(translationOperations, 'getCampaignTranslations', {
			name: 'Translation',
			value: 'translation',
			builderHint: { propertyHint: "The translations of campaign and canvas messages: this node's one resource." },
		}),
	};

	methods = { credentialTest: { engagementPlatformApiTest: testApiKeyCredential } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChosenOperation(this, translationOperations);
	}
}
