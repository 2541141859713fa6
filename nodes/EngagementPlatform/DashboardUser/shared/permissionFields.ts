import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemReader } from '../../shared/engine';
import { asGiven, inputOf, jsonObject } from '../../shared/fields/inputs';
import { parseOrThrow } from '../../shared/schemas/parse';
import type { ScimPermissions } from './scimPermissions';
import { scimPermissions } from './scimPermissions';

const commaList = (displayName: string, name: string, example: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder: `e.g. ${example}`,
	description: 'Comma-separated',
});

const asFields = { show: { permissionsInput: ['fields'] } };

const GIVEN_AS = asGiven<unknown>(
	{
		displayName: 'Permissions Input',
		name: 'permissionsInput',
		type: 'options',
		options: [
			{ name: 'Fields Below', value: 'fields' },
			{ name: 'JSON', value: 'json' },
		],
		default: 'fields',
	},
	'fields',
);

const COMPANY_PERMISSIONS = asGiven<unknown>(
	{
		...commaList('Company Permissions', 'companyPermissions', 'basic_access, publish_cards'),
		displayOptions: asFields,
	},
	'',
);

const ROLES = asGiven<IDataObject>(
	{
		displayName: 'Roles',
		name: 'roles',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Role',
		default: {},
		displayOptions: asFields,
		options: [
			{
				displayName: 'Role',
				name: 'role',
				values: [
					{ displayName: 'Role Name', name: 'roleName', type: 'string', default: '' },
					{
						displayName: 'Role ID',
						name: 'roleId',
						type: 'string',
						default: '',
						description: 'Instead of, or with, the name',
					},
				],
			},
		],
	},
	{},
);

const APP_GROUPS = asGiven<IDataObject>(
	{
		displayName: 'App Groups',
		name: 'appGroups',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add App Group',
		default: {},
		displayOptions: asFields,
		options: [
			{
				displayName: 'App Group',
				name: 'appGroup',
				values: [
					{ displayName: 'App Group Name', name: 'appGroupName', type: 'string', default: '' },
					commaList('App Group Permissions', 'appGroupPermissions', 'view_campaigns, edit_campaigns'),
					{
						displayName: 'Permission Set',
						name: 'permissionSet',
						type: 'string',
						default: '',
						placeholder: 'e.g. Email Editors',
						description: 'A named set of app group permissions',
					},
					{
						displayName: 'Teams',
						name: 'teams',
						type: 'fixedCollection',
						typeOptions: { multipleValues: true },
						placeholder: 'Add Team',
						default: {},
						options: [
							{
								displayName: 'Team',
								name: 'team',
								values: [
									{ displayName: 'Team Name', name: 'teamName', type: 'string', default: '' },
									commaList('Team Permissions', 'teamPermissions', 'view_campaigns'),
								],
							},
						],
					},
				],
			},
		],
	},
	{},
);

const PERMISSIONS_JSON = jsonObject({
	displayName: 'Permissions (JSON)',
	name: 'permissionsJson',
	type: 'json',
	default: '{}',
	hint: 'The SCIM permissions object: companyPermissions, roles, appGroup',
	displayOptions: { show: { permissionsInput: ['json'] } },
});

/** An item's permissions, and whether they were given as the fields (Permissions Input set to Fields Below). */
export interface GivenPermissions {
	permissions: ScimPermissions;
	givenAsFields: boolean;
}

/**
 * The user's permissions, as structured fields (company permissions, roles, app groups with teams
 * and permission sets) or as JSON, checked against the spec's shape. Its problems are named by the
 * JSON field's label, Permissions, in either form.
 */
export const PERMISSIONS = inputOf(
	GIVEN_AS.name,
	PERMISSIONS_JSON.label,
	[GIVEN_AS, COMPANY_PERMISSIONS, ROLES, APP_GROUPS, PERMISSIONS_JSON].flatMap((input) => input.properties),
	(item, _, label): GivenPermissions => {
		const givenAs = GIVEN_AS.read(item);
		return { permissions: readPermissions(item, givenAs, label), givenAsFields: givenAs === 'fields' };
	},
);

function readPermissions(item: ItemReader, givenAs: unknown, label: string): ScimPermissions {
	if (givenAs === 'json') return parseOrThrow(scimPermissions, PERMISSIONS_JSON.read(item) ?? {}, label);
	const permissions: IDataObject = {};
	const companyPermissions = splitList(COMPANY_PERMISSIONS.read(item));
	if (companyPermissions.length > 0) permissions.companyPermissions = companyPermissions;
	const roles = entries(ROLES.read(item), 'role').map((role) =>
		dropEmpty({ roleName: role.roleName, roleId: role.roleId }),
	);
	if (roles.length > 0) permissions.roles = roles;
	const appGroups = entries(APP_GROUPS.read(item), 'appGroup').map((group) =>
		dropEmpty({
			appGroupName: group.appGroupName,
			appGroupPermissions: nonEmpty(splitList(group.appGroupPermissions)),
			appGroupPermissionSets: nonEmpty(
				splitList(group.permissionSet).map((name) => ({ appGroupPermissionSetName: name })),
			),
			team: nonEmpty(
				entries(group.teams, 'team').map((team) =>
					dropEmpty({ teamName: team.teamName, teamPermissions: nonEmpty(splitList(team.teamPermissions)) }),
				),
			),
		}),
	);
	if (appGroups.length > 0) permissions.appGroup = appGroups;
	return parseOrThrow(scimPermissions, permissions, label);
}

export function isEmptyPermissions(permissions: ScimPermissions): boolean {
	return !permissions.companyPermissions?.length && !permissions.roles?.length && !permissions.appGroup?.length;
}

function entries(value: unknown, key: string): IDataObject[] {
	const list = (value as IDataObject | undefined)?.[key];
	return Array.isArray(list) ? (list as IDataObject[]) : [];
}

/** "a, b ,c" → [a, b, c]; an array (from an expression) as it is. */
function splitList(value: unknown): string[] {
	if (Array.isArray(value)) return value.map((entry) => String(entry).trim()).filter(Boolean);
	if (typeof value !== 'string') return [];
	return value
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean);
}

function nonEmpty<T>(list: T[]): T[] | undefined {
	return list.length > 0 ? list : undefined;
}

function dropEmpty(object: Record<string, unknown>): IDataObject {
	return Object.fromEntries(
		Object.entries(object).filter(([, value]) => value !== undefined && value !== ''),
	) as IDataObject;
}
