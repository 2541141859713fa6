import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { apiKeyHeaders } from '../nodes/EngagementPlatform/shared/engine/send/secrets';

export class EngagementPlatformApi implements ICredentialType {
	name = 'engagementPlatformApi';

	displayName = 'Engagement Platform API';

	icon = { light: 'file:../icons/engagementPlatform.svg', dark: 'file:../icons/engagementPlatform.dark.svg' } as const;

	documentationUrl =
		'https://github.com/n8n-nodes-engagement-platform/n8n-nodes-engagement-platform/blob/main/docs/credentials.md#engagement-platform-api';

	properties: INodeProperties[] = [
		{
			displayName: 'REST Endpoint',
			name: 'restEndpoint',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://rest.your-instance.example.com',
			description:
				"Your workspace's REST endpoint URL. It must use https; plain http is accepted only for localhost (a local sandbox).",
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'A REST API key from the platform\'s API settings, with the permissions of the operations you use (for example "users.track")',
		},
	];

	/**
	 * A function rather than a generic header expression: n8n resolves such an expression for every
	 * request, building a fresh expression context each time (npm run bench shows what it costs).
	 * The key is sent trimmed (apiKeyHeaders): a header cannot carry the line break a paste may bring.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return { ...requestOptions, headers: { ...requestOptions.headers, ...apiKeyHeaders(credentials) } };
	}

	/**
	 * No declarative test, on purpose: the nodes test this credential (`testedBy`, see
	 * nodes/EngagementPlatform/shared/engine/send/credentialTest.ts, where the choice is explained),
	 * through the package's one transport, which follows no redirect and names its host. n8n takes a
	 * credential's `test` before any node's `testedBy`, so this one has none. Declared, as undefined,
	 * for code that reads a credential's `test`; a getter rather than a field, so that the
	 * community-nodes lint still checks that every node using the credential names its test.
	 */
	get test(): ICredentialTestRequest | undefined {
		return undefined;
	}
}
