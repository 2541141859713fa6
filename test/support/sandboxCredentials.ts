import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { DEMO_API_KEY, DEMO_SCIM_ORIGIN, DEMO_SCIM_TOKEN } from '../../sandbox';

export interface SandboxCredential {
	id: string;
	name: string;
	type: string;
	data: Record<string, string>;
}

/** The credentials the example workflows name (by id), pointing at a sandbox. */
export function sandboxCredentials(sandboxUrl: string): SandboxCredential[] {
	return [
		{
			id: 'epSandboxCredential',
			name: 'Engagement Platform (sandbox)',
			type: 'engagementPlatformApi',
			data: { restEndpoint: sandboxUrl, apiKey: DEMO_API_KEY },
		},
		{
			id: 'epSandboxScimCredential',
			name: 'Engagement Platform SCIM (sandbox)',
			type: 'engagementPlatformScimApi',
			data: { scimEndpoint: sandboxUrl, scimToken: DEMO_SCIM_TOKEN, requestOrigin: DEMO_SCIM_ORIGIN },
		},
	];
}

/** The same credentials by type, as the in-process harness takes them. */
export function sandboxCredentialsByType(sandboxUrl: string): Record<string, ICredentialDataDecryptedObject> {
	return Object.fromEntries(sandboxCredentials(sandboxUrl).map(({ type, data }) => [type, data]));
}
