import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The secret the platform must present when it posts a transactional email status postback to
 * the Engagement Platform Trigger. Nothing is sent with it: the trigger compares incoming requests
 * against it. Like n8n's own webhook credentials (Header Auth, Basic Auth) there is no service to
 * call for a test; the trigger's `testedBy` method checks the credential is usable instead.
 */
export class EngagementPlatformPostbackAuthApi implements ICredentialType {
	name = 'engagementPlatformPostbackAuthApi';

	displayName = 'Engagement Platform Postback Auth API';

	icon = { light: 'file:../icons/engagementPlatform.svg', dark: 'file:../icons/engagementPlatform.dark.svg' } as const;

	documentationUrl =
		'https://github.com/n8n-nodes-engagement-platform/n8n-nodes-engagement-platform/blob/main/docs/credentials.md#engagement-platform-postback-auth-api';

	properties: INodeProperties[] = [
		{
			displayName:
				'Fill in the pair that matches the trigger\'s Authentication: a header name and token for "Header Token", a user and password for "Basic Auth"',
			name: 'pairNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Header Name',
			name: 'headerName',
			type: 'string',
			default: 'X-Postback-Token',
			placeholder: 'X-Postback-Token',
			description: 'The header the platform sends the token in (for Header Token authentication)',
		},
		{
			displayName: 'Header Token',
			name: 'headerToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The value the platform sends in that header (for Header Token authentication). Use a long random value, at least 16 characters. Spaces, tabs and line breaks around it are left out, as HTTP leaves them out.',
		},
		{
			displayName: 'User',
			name: 'user',
			type: 'string',
			default: '',
			description:
				'The user the platform sends with Basic authentication (for Basic Auth authentication). Spaces, tabs and line breaks around it are left out, here and in each postback.',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The password that goes with the user (for Basic Auth authentication). Spaces, tabs and line breaks around it are left out, here and in each postback.',
		},
	];
}
