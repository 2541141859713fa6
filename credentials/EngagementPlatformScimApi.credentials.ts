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

	documentationUrl = 'https://github.com/n8n-nodes-engagement-platform/n8n-nodes-engagement-platform#credentials';

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
	 * A userName filter reads without changing anything; SCIM answers 401 for a refused token
	 * or origin.
	 */
	test: ICredentialTestRequest = {
		request: {
			// Plain http to anything but this machine is sent as https: the test never carries the key unencrypted.
			baseURL:
				'={{$credentials.scimEndpoint.replace(/\\/+$/, "").replace(/^http:\\/\\/(?!(localhost|127\\.0\\.0\\.1|\\[::1\\])(:|\\/|$))/i, "https://")}}',
			url: '/scim/v2/Users',
			method: 'GET',
			qs: { filter: 'userName eq "credential-test@example.com"' },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The platform refused this SCIM token or request origin. Check both in the credential.',
				},
			},
		],
	};
}
