import type { SeedData } from './adminApiTypes';

/** The demo company's dashboard directory and SCIM dashboard users, by name and id. */
export const DEMO_DASHBOARD = {
	appGroups: {
		marketingProduction: {
			id: '665f1a2b3c4d5e6f70810001',
			name: 'Marketing Production',
			teams: {
				newsletters: { id: '665f1a2b3c4d5e6f70810011', name: 'Newsletters' },
				lifecycle: { id: '665f1a2b3c4d5e6f70810012', name: 'Lifecycle' },
			},
		},
		marketingStaging: { id: '665f1a2b3c4d5e6f70810002', name: 'Marketing Staging' },
	},
	roles: { campaignManager: { id: '665f1a2b3c4d5e6f70810101', name: 'Campaign Manager' } },
	permissionSets: { emailEditors: { id: '665f1a2b3c4d5e6f70810201', name: 'Email Editors' } },
	users: {
		/** Signed in on 2024-05-01; a role, a team and a permission set in Marketing Production. */
		ana: { id: 'c2b7e4a1-3f6d-4e8a-9b1c-5d2f7a8e0001', userName: 'ana.lopez@example.com' },
		/** Never signed in; basic access to Marketing Staging. */
		ben: { id: 'c2b7e4a1-3f6d-4e8a-9b1c-5d2f7a8e0002', userName: 'ben.okafor@example.com' },
	},
} as const;

const { marketingProduction, marketingStaging } = DEMO_DASHBOARD.appGroups;
const { campaignManager } = DEMO_DASHBOARD.roles;
const { emailEditors } = DEMO_DASHBOARD.permissionSets;

/** The part of the demo seed for the SCIM endpoints. */
export const DEMO_DASHBOARD_SEED: Pick<SeedData, 'dashboardDirectory' | 'dashboardUsers'> = {
	dashboardDirectory: {
		appGroups: [
			{ id: marketingProduction.id, name: marketingProduction.name, teams: Object.values(marketingProduction.teams) },
			{ id: marketingStaging.id, name: marketingStaging.name },
		],
		roles: [
			{
				id: campaignManager.id,
				name: campaignManager.name,
				appGroups: [marketingProduction.name, marketingStaging.name],
			},
		],
		permissionSets: [
			{
				id: emailEditors.id,
				name: emailEditors.name,
				permissions: ['view_campaigns', 'edit_campaigns', 'view_email_templates'],
			},
		],
	},
	dashboardUsers: [
		{
			...DEMO_DASHBOARD.users.ana,
			name: { givenName: 'Ana', familyName: 'Lopez' },
			department: 'marketing',
			lastSignInAt: '2024-05-01T09:30:00Z',
			permissions: {
				companyPermissions: ['manage_company_settings'],
				roles: [{ roleName: campaignManager.name }],
				appGroup: [
					{
						appGroupName: marketingProduction.name,
						appGroupPermissions: ['view_campaigns'],
						team: [{ teamName: marketingProduction.teams.newsletters.name, teamPermissions: ['edit_campaigns'] }],
						appGroupPermissionSets: [{ appGroupPermissionSetName: emailEditors.name }],
					},
				],
			},
		},
		{
			...DEMO_DASHBOARD.users.ben,
			name: { givenName: 'Ben', familyName: 'Okafor' },
			department: 'engineering',
			permissions: { appGroup: [{ appGroupName: marketingStaging.name, appGroupPermissions: ['basic_access'] }] },
		},
	],
};
