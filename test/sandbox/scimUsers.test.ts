import { DEMO_DASHBOARD, type ScimUserView } from '../../sandbox';
import { useSandbox } from './sandboxTestKit';
import { DIRECTORY, filterPath, LIST_SCHEMA, scimCaller, scimErrorBody, USER_SCHEMA } from './scimTestKit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('sandbox: SCIM dashboard users (/scim/v2/Users)', () => {
	const sandbox = useSandbox();
	const scim = scimCaller(sandbox);
	const create = (body: unknown) => scim('POST', '/scim/v2/Users', body);
	const users = async () => (await sandbox.admin.state()).dashboardUsers;
	const directoryIds = async () => {
		const { appGroups, roles, permissionSets } = (await sandbox.admin.state()).dashboardDirectory;
		const [production, staging] = appGroups;
		return { production, staging, web: production.teams[0], editor: roles[0], viewers: permissionSets[0] };
	};
	const FULL = {
		schemas: [USER_SCHEMA],
		userName: 'Dana.Reyes@Example.com',
		name: { givenName: 'Dana', familyName: 'Reyes' },
		department: 'finance',
		permissions: {
			companyPermissions: ['manage_company_settings'],
			roles: [{ roleName: 'Editor' }],
			appGroup: [
				{
					appGroupName: 'Production',
					appGroupPermissions: ['view_campaigns', 'edit_campaigns'],
					team: [{ teamName: 'Web', teamPermissions: ['admin'] }],
					appGroupPermissionSets: [{ appGroupPermissionSetName: 'Viewers' }],
				},
				{ appGroupName: 'Staging' },
			],
		},
	};

	beforeEach(async () => {
		await sandbox.admin.seed({ dashboardDirectory: DIRECTORY });
	});

	describe('POST', () => {
		it('creates the user: 201, the full object with a UUID, ids for every name, lastSignInAt null, a Location', async () => {
			const answer = await create(FULL);
			const { production, staging, web, editor, viewers } = await directoryIds();
			expect(answer.status).toBe(201);
			expect(answer.body).toEqual({
				schemas: [USER_SCHEMA],
				id: expect.stringMatching(UUID),
				userName: 'Dana.Reyes@Example.com',
				name: { givenName: 'Dana', familyName: 'Reyes' },
				department: 'finance',
				lastSignInAt: null,
				permissions: {
					companyPermissions: ['manage_company_settings'],
					roles: [
						{
							roleName: 'Editor',
							roleId: editor.id,
							appGroup: [
								{ appGroupId: production.id, appGroupName: 'Production' },
								{ appGroupId: staging.id, appGroupName: 'Staging' },
							],
						},
					],
					appGroup: [
						{
							appGroupId: production.id,
							appGroupName: 'Production',
							appGroupPermissions: ['view_campaigns', 'edit_campaigns'],
							team: [{ teamId: web.id, teamName: 'Web', teamPermissions: ['admin'] }],
							appGroupPermissionSets: [
								{
									appGroupPermissionSetName: 'Viewers',
									appGroupPermissionSetId: viewers.id,
									permissions: ['view_campaigns', 'view_segments'],
								},
							],
						},
						{
							appGroupId: staging.id,
							appGroupName: 'Staging',
							appGroupPermissions: [],
							team: [],
							appGroupPermissionSets: [],
						},
					],
				},
			});
			expect(answer.headers.get('location')).toBe(`${sandbox.url}/scim/v2/Users/${answer.body.id}`);
			expect(await users()).toEqual([answer.body]);
		});

		it('needs only schemas and userName: name and department stay absent, permissions empty', async () => {
			const answer = await create({ schemas: [USER_SCHEMA], userName: 'min@example.com' });
			expect(answer.status).toBe(201);
			expect(answer.body).toEqual({
				schemas: [USER_SCHEMA],
				id: expect.stringMatching(UUID),
				userName: 'min@example.com',
				lastSignInAt: null,
				permissions: { companyPermissions: [], roles: [], appGroup: [] },
			});
		});

		it('names a role by roleId, or by both when they agree', async () => {
			const { editor } = await directoryIds();
			const byId = await create({
				schemas: [USER_SCHEMA],
				userName: 'a@example.com',
				permissions: { roles: [{ roleId: editor.id }] },
			});
			expect(byId.body.permissions.roles[0]).toMatchObject({ roleName: 'Editor', roleId: editor.id });
			const byBoth = await create({
				schemas: [USER_SCHEMA],
				userName: 'b@example.com',
				permissions: { roles: [{ roleName: 'Editor', roleId: editor.id }] },
			});
			expect(byBoth.status).toBe(201);
		});

		it.each(['Dana.Reyes@Example.com', 'dana.reyes@example.com', 'DANA.REYES@EXAMPLE.COM'])(
			'refuses the userName %s once taken: 409',
			async (userName) => {
				await create(FULL);
				const answer = await create({ schemas: [USER_SCHEMA], userName });
				expect(answer.status).toBe(409);
				expect(answer.body).toEqual(scimErrorBody(409, 'User already exists in the database.'));
				expect(await users()).toHaveLength(1);
			},
		);

		it.each([
			['no body', undefined, /Request body must be a JSON object/],
			[
				'no schemas',
				{ userName: 'x@example.com' },
				/^schemas must be an array of strings containing 'urn:ietf:params:scim:schemas:core:2.0:User'/,
			],
			['schemas without the user URN', { schemas: ['urn:other'], userName: 'x@example.com' }, /^schemas must/],
			['no userName', { schemas: [USER_SCHEMA] }, /^userName is required: the user's email address/],
			[
				'a userName that is not an email',
				{ schemas: [USER_SCHEMA], userName: 'dana' },
				/^userName is required: the user's email address, got "dana"/,
			],
			['an id', { schemas: [USER_SCHEMA], userName: 'x@example.com', id: 'mine' }, /^id must not be sent/],
			[
				'an unknown field',
				{ schemas: [USER_SCHEMA], userName: 'x@example.com', emails: [] },
				/Unknown request field\(s\): emails/,
			],
			[
				'a read-only field',
				{ schemas: [USER_SCHEMA], userName: 'x@example.com', lastSignInAt: null },
				/Unknown request field\(s\): lastSignInAt/,
			],
			[
				'a name without familyName',
				{ schemas: [USER_SCHEMA], userName: 'x@example.com', name: { givenName: 'X' } },
				/^name\.familyName is required: a string/,
			],
			[
				'a department that is not a string',
				{ schemas: [USER_SCHEMA], userName: 'x@example.com', department: 7 },
				/^department must be a non-empty string/,
			],
			[
				'permissions that are not an object',
				{ schemas: [USER_SCHEMA], userName: 'x@example.com', permissions: [] },
				/^permissions must be an object/,
			],
			[
				'a misspelt permissions key',
				{ schemas: [USER_SCHEMA], userName: 'x@example.com', permissions: { appGroups: [] } },
				/^permissions: Unknown request field\(s\): appGroups/,
			],
			[
				'an empty permission name',
				{ schemas: [USER_SCHEMA], userName: 'x@example.com', permissions: { companyPermissions: [''] } },
				/^permissions\.companyPermissions\[0\] must be a permission name/,
			],
			[
				'a misspelt team key',
				{
					schemas: [USER_SCHEMA],
					userName: 'x@example.com',
					permissions: { appGroup: [{ appGroupName: 'Production', teams: [] }] },
				},
				/^permissions\.appGroup\[0\]: Unknown request field\(s\): teams/,
			],
			[
				'a role with neither name nor id',
				{ schemas: [USER_SCHEMA], userName: 'x@example.com', permissions: { roles: [{}] } },
				/^permissions\.roles\[0\] must name a role by roleName, roleId or both/,
			],
		])('refuses %s: 400 naming the field and the rule', async (_case, body, detail) => {
			const answer = await create(body);
			expect(answer.status).toBe(400);
			expect(answer.body).toEqual(scimErrorBody(400, detail, 'invalidValue'));
			expect(await users()).toEqual([]);
		});

		it.each([
			[
				'an unknown app group',
				{ appGroup: [{ appGroupName: 'Nowhere' }] },
				"permissions.appGroup[0].appGroupName: no app group is named 'Nowhere'",
			],
			[
				'a team of another app group',
				{ appGroup: [{ appGroupName: 'Staging', team: [{ teamName: 'Web' }] }] },
				"permissions.appGroup[0].team[0].teamName: app group 'Staging' has no team named 'Web'",
			],
			[
				'an unknown role name',
				{ roles: [{ roleName: 'Owner' }] },
				"permissions.roles[0].roleName: no role is named 'Owner'",
			],
			['an unknown role id', { roles: [{ roleId: 'nope' }] }, "permissions.roles[0].roleId: no role has the id 'nope'"],
			[
				'an unknown permission set',
				{
					appGroup: [{ appGroupName: 'Production', appGroupPermissionSets: [{ appGroupPermissionSetName: 'Admins' }] }],
				},
				"permissions.appGroup[0].appGroupPermissionSets[0].appGroupPermissionSetName: no permission set is named 'Admins'",
			],
			[
				'two permission sets for one app group',
				{
					appGroup: [
						{
							appGroupName: 'Production',
							appGroupPermissionSets: [
								{ appGroupPermissionSetName: 'Viewers' },
								{ appGroupPermissionSetName: 'Viewers' },
							],
						},
					],
				},
				'permissions.appGroup[0].appGroupPermissionSets holds at most one permission set, got 2',
			],
			[
				'an app group given twice',
				{ appGroup: [{ appGroupName: 'Staging' }, { appGroupName: 'Staging' }] },
				"permissions.appGroup[1]: app group 'Staging' is given twice",
			],
		])('refuses %s by name: 400', async (_case, permissions, detail) => {
			const answer = await create({ schemas: [USER_SCHEMA], userName: 'x@example.com', permissions });
			expect(answer.status).toBe(400);
			expect(answer.body).toEqual(scimErrorBody(400, detail, 'invalidValue'));
		});

		it('refuses a roleName and roleId naming different roles', async () => {
			await sandbox.admin.seed({
				dashboardDirectory: {
					...DIRECTORY,
					roles: [
						{ id: 'r1', name: 'Editor' },
						{ id: 'r2', name: 'Viewer' },
					],
				},
			});
			const answer = await create({
				schemas: [USER_SCHEMA],
				userName: 'x@example.com',
				permissions: { roles: [{ roleName: 'Editor', roleId: 'r2' }] },
			});
			expect(answer.body.detail).toBe("permissions.roles[0]: roleName 'Editor' and roleId 'r2' are different roles");
		});
	});

	describe('GET /scim/v2/Users/{id}', () => {
		it('answers the full user object', async () => {
			const created = await create(FULL);
			const answer = await scim('GET', `/scim/v2/Users/${created.body.id}`);
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual(created.body);
		});

		it('answers an unknown id 404 "User not found"', async () => {
			const answer = await scim('GET', '/scim/v2/Users/3f1e0f7c-0000-4000-8000-000000000000');
			expect(answer.status).toBe(404);
			expect(answer.body).toEqual(scimErrorBody(404, 'User not found'));
		});
	});

	describe('PUT /scim/v2/Users/{id}', () => {
		const REPLACEMENT = {
			schemas: [USER_SCHEMA],
			name: { givenName: 'Dana', familyName: 'Reyes-Smith' },
			department: 'engineering',
			permissions: { appGroup: [{ appGroupName: 'Staging', team: [{ teamName: 'QA' }] }] },
		};

		it('replaces name, department and permissions whole, keeping id, userName and lastSignInAt: 200', async () => {
			const created = await create(FULL);
			const answer = await scim('PUT', `/scim/v2/Users/${created.body.id}`, REPLACEMENT);
			const { staging } = await directoryIds();
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual({
				schemas: [USER_SCHEMA],
				id: created.body.id,
				userName: 'Dana.Reyes@Example.com',
				name: { givenName: 'Dana', familyName: 'Reyes-Smith' },
				department: 'engineering',
				lastSignInAt: null,
				permissions: {
					companyPermissions: [],
					roles: [],
					appGroup: [
						{
							appGroupId: staging.id,
							appGroupName: 'Staging',
							appGroupPermissions: [],
							team: [{ teamId: staging.teams[0].id, teamName: 'QA', teamPermissions: [] }],
							appGroupPermissionSets: [],
						},
					],
				},
			});
			expect(await users()).toEqual([answer.body]);
		});

		it('takes the userName and id sent back unchanged (userName in any case)', async () => {
			const created = await create(FULL);
			const answer = await scim('PUT', `/scim/v2/Users/${created.body.id}`, {
				...REPLACEMENT,
				id: created.body.id,
				userName: 'dana.reyes@example.com',
			});
			expect(answer.status).toBe(200);
			expect(answer.body.userName).toBe('Dana.Reyes@Example.com');
		});

		it('refuses a change of userName: 400, nothing changed', async () => {
			const created = await create(FULL);
			const answer = await scim('PUT', `/scim/v2/Users/${created.body.id}`, {
				...REPLACEMENT,
				userName: 'someone.else@example.com',
			});
			expect(answer.status).toBe(400);
			expect(answer.body).toEqual(
				scimErrorBody(400, /^userName cannot be changed \(it is 'Dana\.Reyes@Example\.com'\)/, 'mutability'),
			);
			expect(await users()).toEqual([created.body]);
		});

		it.each(['schemas', 'name', 'department', 'permissions'])(
			'refuses a body without %s: 400 naming it',
			async (field) => {
				const created = await create(FULL);
				const body: Record<string, unknown> = { ...REPLACEMENT };
				delete body[field];
				const answer = await scim('PUT', `/scim/v2/Users/${created.body.id}`, body);
				expect(answer.status).toBe(400);
				expect(answer.body).toEqual(
					scimErrorBody(
						400,
						`${field} is required: PUT replaces schemas, name, department, permissions whole`,
						'invalidValue',
					),
				);
				expect(await users()).toEqual([created.body]);
			},
		);

		it('refuses unknown names in permissions as POST does', async () => {
			const created = await create(FULL);
			const answer = await scim('PUT', `/scim/v2/Users/${created.body.id}`, {
				...REPLACEMENT,
				permissions: { roles: [{ roleName: 'Owner' }] },
			});
			expect(answer.body).toEqual(
				scimErrorBody(400, "permissions.roles[0].roleName: no role is named 'Owner'", 'invalidValue'),
			);
		});

		it('answers an unknown id 404 "User not found"', async () => {
			const answer = await scim('PUT', '/scim/v2/Users/not-a-user', REPLACEMENT);
			expect(answer.status).toBe(404);
			expect(answer.body).toEqual(scimErrorBody(404, 'User not found'));
		});
	});

	describe('DELETE /scim/v2/Users/{id}', () => {
		it('removes the user: 204 without a body; then 404', async () => {
			const created = await create(FULL);
			const answer = await scim('DELETE', `/scim/v2/Users/${created.body.id}`);
			expect(answer.status).toBe(204);
			expect(answer.body).toBeUndefined();
			expect(await users()).toEqual([]);
			expect((await scim('GET', `/scim/v2/Users/${created.body.id}`)).status).toBe(404);
			const again = await scim('DELETE', `/scim/v2/Users/${created.body.id}`);
			expect(again.status).toBe(404);
			expect(again.body).toEqual(scimErrorBody(404, 'User not found'));
		});

		it('frees the userName for a new account', async () => {
			const created = await create(FULL);
			await scim('DELETE', `/scim/v2/Users/${created.body.id}`);
			expect((await create(FULL)).status).toBe(201);
		});
	});

	describe('GET /scim/v2/Users (list and filter)', () => {
		const createThree = async (): Promise<ScimUserView[]> => {
			const made = [];
			for (const userName of ['one@example.com', 'Two@Example.com', 'three@example.com'])
				made.push((await create({ schemas: [USER_SCHEMA], userName })).body);
			return made;
		};

		it('finds a user by userName without regard to case', async () => {
			const [, two] = await createThree();
			const answer = await scim('GET', filterPath('userName eq "two@EXAMPLE.com"'));
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual({
				schemas: [LIST_SCHEMA],
				totalResults: 1,
				startIndex: 1,
				itemsPerPage: 1,
				Resources: [two],
			});
		});

		it('takes the attribute and operator in any case (RFC 7644)', async () => {
			await createThree();
			expect((await scim('GET', filterPath('USERNAME EQ "one@example.com"'))).body.totalResults).toBe(1);
		});

		it('answers no match with totalResults 0 and no Resources', async () => {
			await createThree();
			const answer = await scim('GET', filterPath('userName eq "nobody@example.com"'));
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual({
				schemas: [LIST_SCHEMA],
				totalResults: 0,
				startIndex: 1,
				itemsPerPage: 0,
				Resources: [],
			});
		});

		it.each([
			'emails eq "one@example.com"',
			'userName co "one"',
			'userName eq one@example.com',
			'userName eq "a" or userName eq "b"',
			'',
		])('refuses the filter %j: 400 invalidFilter', async (filter) => {
			const answer = await scim('GET', filterPath(filter));
			expect(answer.status).toBe(400);
			expect(answer.body).toEqual(scimErrorBody(400, /^filter must be userName eq "<email address>"/, 'invalidFilter'));
		});

		it('lists every user in creation order without a filter, a page at a time', async () => {
			const made = await createThree();
			expect((await scim('GET', '/scim/v2/Users')).body).toEqual({
				schemas: [LIST_SCHEMA],
				totalResults: 3,
				startIndex: 1,
				itemsPerPage: 3,
				Resources: made,
			});
			expect((await scim('GET', '/scim/v2/Users?startIndex=2&count=1')).body).toEqual({
				schemas: [LIST_SCHEMA],
				totalResults: 3,
				startIndex: 2,
				itemsPerPage: 1,
				Resources: [made[1]],
			});
			expect((await scim('GET', '/scim/v2/Users?startIndex=0&count=-5')).body).toMatchObject({
				startIndex: 1,
				itemsPerPage: 0,
				Resources: [],
			});
			expect((await scim('GET', '/scim/v2/Users?startIndex=9')).body).toMatchObject({
				totalResults: 3,
				startIndex: 9,
				itemsPerPage: 0,
			});
		});

		it('refuses a count that is not an integer: 400', async () => {
			const answer = await scim('GET', '/scim/v2/Users?count=many');
			expect(answer.body).toEqual(scimErrorBody(400, 'count must be an integer, got "many"', 'invalidValue'));
		});
	});

	describe('seeding', () => {
		it('seeds the demo directory and users (DEMO_DASHBOARD)', async () => {
			await sandbox.admin.reset({ seed: 'demo' });
			const { dashboardUsers, dashboardDirectory } = await sandbox.admin.state();
			const { ana, ben } = DEMO_DASHBOARD.users;
			expect(dashboardUsers.map(({ id, userName, lastSignInAt }) => ({ id, userName, lastSignInAt }))).toEqual([
				{ ...ana, lastSignInAt: 'Wednesday, May 1, 2024 9:30:00 AM' },
				{ ...ben, lastSignInAt: null },
			]);
			expect(
				dashboardDirectory.appGroups.map((group) => [group.id, group.name, group.teams.map((team) => team.name)]),
			).toEqual([
				[DEMO_DASHBOARD.appGroups.marketingProduction.id, 'Marketing Production', ['Newsletters', 'Lifecycle']],
				[DEMO_DASHBOARD.appGroups.marketingStaging.id, 'Marketing Staging', []],
			]);
			const found = await scim('GET', filterPath(`userName eq "${ana.userName.toUpperCase()}"`));
			expect(found.body.Resources[0].permissions.roles[0]).toMatchObject({
				roleId: DEMO_DASHBOARD.roles.campaignManager.id,
				roleName: 'Campaign Manager',
			});
			expect(found.body.Resources[0].permissions.appGroup[0].appGroupPermissionSets[0].appGroupPermissionSetId).toBe(
				DEMO_DASHBOARD.permissionSets.emailEditors.id,
			);
		});

		it('seeds users with an id, a sign-in time and permissions; an id seeded again is replaced', async () => {
			await sandbox.admin.seed({
				dashboardUsers: [
					{
						id: 'u-1',
						userName: 'seeded@example.com',
						lastSignInAt: '2024-12-31T23:05:09Z',
						permissions: { roles: [{ roleName: 'Editor' }] },
					},
				],
			});
			await sandbox.admin.seed({
				dashboardUsers: [
					{ id: 'u-1', userName: 'seeded@example.com', department: 'sales', lastSignInAt: '2024-12-31T13:05:09Z' },
				],
			});
			const answer = await scim('GET', '/scim/v2/Users/u-1');
			expect(answer.body).toMatchObject({
				id: 'u-1',
				department: 'sales',
				lastSignInAt: 'Tuesday, December 31, 2024 1:05:09 PM',
				permissions: { roles: [] },
			});
			expect(await users()).toHaveLength(1);
		});

		it('replaces the directory whole: names of the old one are refused afterwards', async () => {
			await sandbox.admin.seed({ dashboardDirectory: { appGroups: [{ id: 'ag-new', name: 'Brand New' }] } });
			expect((await sandbox.admin.state()).dashboardDirectory).toEqual({
				appGroups: [{ id: 'ag-new', name: 'Brand New', teams: [] }],
				roles: [],
				permissionSets: [],
			});
			const answer = await create({
				schemas: [USER_SCHEMA],
				userName: 'x@example.com',
				permissions: { appGroup: [{ appGroupName: 'Production' }] },
			});
			expect(answer.status).toBe(400);
		});

		it.each([
			[
				'a user naming an unknown app group',
				{ dashboardUsers: [{ userName: 'x@example.com', permissions: { appGroup: [{ appGroupName: 'Nowhere' }] } }] },
				/dashboardUsers\[0\]\.permissions\.appGroup\[0\]\.appGroupName: no app group is named 'Nowhere'/,
			],
			[
				'a userName used twice',
				{ dashboardUsers: [{ userName: 'x@example.com' }, { userName: 'X@example.com' }] },
				/dashboardUsers\[1\]\.userName 'X@example.com' is already in use/,
			],
			[
				'a role over an unknown app group',
				{ dashboardDirectory: { roles: [{ name: 'R', appGroups: ['Nowhere'] }] } },
				/dashboardDirectory\.roles\[0\]\.appGroups\[0\]: no app group/,
			],
			[
				'an app group name used twice',
				{ dashboardDirectory: { appGroups: [{ name: 'A' }, { name: 'A' }] } },
				/dashboardDirectory\.appGroups\[1\]: the name 'A' is used twice/,
			],
			[
				'a permission set without permissions',
				{ dashboardDirectory: { permissionSets: [{ name: 'P' }] } },
				/dashboardDirectory\.permissionSets\[0\]\.permissions is required/,
			],
			[
				'a sign-in time that is not a datetime',
				{ dashboardUsers: [{ userName: 'x@example.com', lastSignInAt: 'yesterday' }] },
				/dashboardUsers\[0\]\.lastSignInAt must be an ISO 8601 datetime or null/,
			],
		])('refuses a seed with %s, storing nothing', async (_case, seed, message) => {
			await expect(sandbox.admin.seed(seed as never)).rejects.toThrow(message);
			const state = await sandbox.admin.state();
			expect(state.dashboardUsers).toEqual([]);
			expect(state.dashboardDirectory.appGroups.map((group) => group.name)).toEqual(['Production', 'Staging']);
		});
	});
});
