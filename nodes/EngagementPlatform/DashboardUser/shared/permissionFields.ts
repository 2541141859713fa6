import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemReader } from '../../shared/engine/read/readItems';
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

/** Permissions as structured fields (company permissions, roles, app groups with teams and permission sets) or as JSON. */
export function permissionFields(): INodeProperties[] {
	const asFields = { show: { permissionsInput: ['fields'] } };
	return [
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
		{
			...commaList('Company Permissions', 'companyPermissions', 'basic_access, publish_cards'),
			displayOptions: asFields,
		},
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
		{
			displayName: 'Permissions (JSON)',
			name: 'permissionsJson',
			type: 'json',
			default: '{}',
			hint: 'The SCIM permissions object: companyPermissions, roles, appGroup',
			displayOptions: { show: { permissionsInput: ['json'] } },
		},
	];
}

/** The permissions of one item, checked against the spec's shape. */
export function readPermissions(item: ItemReader): ScimPermissions {
	if (item.raw('permissionsInput', 'fields') === 'json') {
		const label = item.labelOf('permissionsJson');
		return parseOrThrow(scimPermissions, item.jsonObject('permissionsJson') ?? {}, label);
	}
	const permissions: IDataObject = {};
	const companyPermissions = splitList(item.raw('companyPermissions', ''));
	if (companyPermissions.length > 0) permissions.companyPermissions = companyPermissions;
	const roles = entries(item.raw('roles', {}), 'role').map((role) =>
		dropEmpty({ roleName: role.roleName, roleId: role.roleId }),
	);
	if (roles.length > 0) permissions.roles = roles;
	const appGroups = entries(item.raw('appGroups', {}), 'appGroup').map((group) =>
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
	return parseOrThrow(scimPermissions, permissions, 'Permissions');
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
