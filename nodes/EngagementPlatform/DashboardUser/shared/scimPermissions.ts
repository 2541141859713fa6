import { z } from 'zod/v4';
import { withoutKeys } from '../../shared/objects/withoutKeys';

/**
 * The SCIM user's `permissions` as the platform takes them. Keys only responses carry
 * (appGroupId, teamId, roleId's appGroup, a permission set's id and permissions) are accepted
 * and dropped, so a user read with Get can be changed and sent back with Update.
 */

const names = z.array(z.string().trim().min(1, 'must not be empty'));
const responseOnly = z.unknown().optional();

const role = z
	.object({
		roleName: z.string().trim().min(1, 'must not be empty').optional(),
		roleId: z.string().trim().min(1, 'must not be empty').optional(),
		appGroup: responseOnly,
	})
	.strict()
	.refine((value) => value.roleName !== undefined || value.roleId !== undefined, {
		message: 'needs a roleName or a roleId',
		params: { fix: 'Give the role by name or by ID.' },
	})
	.transform(({ roleName, roleId }) => ({ ...(roleName ? { roleName } : {}), ...(roleId ? { roleId } : {}) }));

const team = z
	.object({
		teamName: z.string().trim().min(1, 'must not be empty'),
		teamPermissions: names.optional(),
		teamId: responseOnly,
	})
	.strict()
	.transform((value) => withoutKeys(value, ['teamId']));

const permissionSet = z
	.object({
		appGroupPermissionSetName: z.string().trim().min(1, 'must not be empty'),
		appGroupPermissionSetId: responseOnly,
		permissions: responseOnly,
	})
	.strict()
	.transform(({ appGroupPermissionSetName }) => ({ appGroupPermissionSetName }));

const appGroup = z
	.object({
		appGroupName: z.string().trim().min(1, 'must not be empty'),
		appGroupPermissions: names.optional(),
		team: z.array(team).optional(),
		appGroupPermissionSets: z.array(permissionSet).optional(),
		appGroupId: responseOnly,
	})
	.strict()
	.transform((value) => withoutKeys(value, ['appGroupId']));

export const scimPermissions = z
	.object({
		companyPermissions: names.optional(),
		roles: z.array(role).optional(),
		appGroup: z.array(appGroup).optional(),
	})
	.strict();

export type ScimPermissions = z.infer<typeof scimPermissions>;
