import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { scimHeaders } from '../nodes/EngagementPlatform/shared/engine/send/secrets';

export class EngagementPlatformScimApi implements ICredentialType {
	name = 'engagementPlatformScimApi';

	displayName = 'Engagement Platform SCIM API';

	icon = { light: 'file:../icons/engagementPlatform.svg', dark: 'file:../icons/engagementPlatform.dark.svg' } as const;

	documentationUrl =
		'https://github.com/n8n-nodes-engagement-platform/n8n-nodes-engagement-platform/blob/main/docs/credentials.md#engagement-platform-scim-api';

	properties: INodeProperties[] = [
		{
			displayName: 'SCIM Endpoint',
			name: 'scimEndpoint',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://rest.your-instance.example.com',
			description:
				"Your workspace's REST endpoint URL, used for /scim/v2. It must use https; plain http is accepted only for localhost.",
		},
		{
			displayName: 'SCIM Token',
			name: 'scimToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: "The SCIM token from the platform's security settings",
		},
		{
			displayName: 'Request Origin',
			name: 'requestOrigin',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'n8n.example.com',
			description: 'The origin of the calling service, as registered with the SCIM token (sent as X-Request-Origin)',
		},
	];

	/** A function, as for the REST credential: no expression to resolve for every request. Sent trimmed (scimHeaders). */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return { ...requestOptions, headers: { ...requestOptions.headers, ...scimHeaders(credentials) } };
	}

	/**
	 * No declarative test, on purpose: the Dashboard User node tests this credential (`testedBy`, see
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
