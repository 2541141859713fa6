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

	documentationUrl = 'https://github.com/n8n-nodes-engagement-platform/n8n-nodes-engagement-platform#credentials';

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
	 * An empty /users/track call stores nothing, and tells a refused key (401) from a key
	 * that works but lacks the users.track permission (403).
	 */
	test: ICredentialTestRequest = {
		request: {
			// Plain http to anything but this machine is sent as https: the test never carries the key unencrypted.
			baseURL:
				'={{$credentials.restEndpoint.replace(/\\/+$/, "").replace(/^http:\\/\\/(?!(localhost|127\\.0\\.0\\.1|\\[::1\\])(:|\\/|$))/i, "https://")}}',
			url: '/users/track',
			method: 'POST',
			body: { attributes: [] },
			json: true,
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'Error authenticating credentials: the platform refused this API key. Check the key and the endpoint.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API key is valid but lacks the "users.track" permission. Add it to the key in the platform\'s API settings.',
				},
			},
		],
	};
}
