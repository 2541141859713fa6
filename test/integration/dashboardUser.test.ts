import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEMO_SCIM_ORIGIN, DEMO_SCIM_TOKEN } from '../../sandbox';
import type { RunResult } from '../harness';
import { DASHBOARD_USER, DASHBOARD_USER_NODE } from '../support/nodeTypes';
import { OUTPUT_FIELD, wordsOf } from '../support/nodeWords';
import { runNode } from '../support/runNode';
import { useSandbox } from './sandboxLifecycle';

const { sandbox, client } = useSandbox();

interface ScimRun {
	items: IDataObject[];
	parameters: INodeParameters;
	continueOnFail?: boolean;
	token?: string;
	origin?: string;
}

async function run({
	items,
	parameters,
	continueOnFail,
	token = DEMO_SCIM_TOKEN,
	origin = DEMO_SCIM_ORIGIN,
}: ScimRun): Promise<RunResult> {
	return await runNode(DASHBOARD_USER_NODE, {
		items,
		parameters,
		continueOnFail,
		credentials: {
			engagementPlatformScimApi: { scimEndpoint: sandbox().url, scimToken: token, requestOrigin: origin },
		},
	});
}

const DIRECTORY = {
	appGroups: [{ name: 'Production', teams: [{ name: 'Newsletters' }, { name: 'Lifecycle' }] }, { name: 'Staging' }],
	roles: [{ name: 'Campaign Manager', appGroups: ['Production'] }],
	permissionSets: [{ name: 'Email Editors', permissions: ['view_campaigns', 'edit_campaigns'] }],
};

const createParameters = (overrides: INodeParameters = {}): INodeParameters => ({
	operation: 'create',
	email: '={{ $json.email }}',
	givenName: '={{ $json.given }}',
	familyName: '={{ $json.family }}',
	department: 'marketing',
	companyPermissions: 'basic_access',
	roles: { role: [{ roleName: 'Campaign Manager' }] },
	appGroups: {
		appGroup: [
			{
				appGroupName: 'Production',
				appGroupPermissions: 'view_campaigns, view_segments',
				permissionSet: 'Email Editors',
				teams: { team: [{ teamName: 'Newsletters', teamPermissions: 'edit_campaigns' }] },
			},
		],
	},
	...overrides,
});

const users = async () => (await client().state()).dashboardUsers as unknown as IDataObject[];
const seedUsers = async (...emails: string[]) =>
	await client().seed({
		dashboardDirectory: DIRECTORY,
		dashboardUsers: emails.map((userName) => ({
			userName,
			name: { givenName: 'Old', familyName: 'Name' },
			department: 'sales',
		})),
	});

describe('Dashboard User node (SCIM)', () => {
	beforeEach(async () => await seedUsers());

	test('create: one POST per item with the SCIM schema and structured permissions; the user comes back with its id and permission ids', async () => {
		const result = await run({
			items: [
				{ email: 'mia@example.com', given: 'Mia', family: 'Chen' },
				{ email: 'noah@example.com', given: 'Noah', family: 'Berg' },
			],
			parameters: createParameters(),
		});

		expect(result.error).toBeUndefined();
		const requests = await client().requests({ method: 'POST' });
		expect(requests).toHaveLength(2);
		expect(requests.find((r) => (r.body as IDataObject).userName === 'mia@example.com')?.body).toEqual({
			schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
			userName: 'mia@example.com',
			name: { givenName: 'Mia', familyName: 'Chen' },
			department: 'marketing',
			permissions: {
				companyPermissions: ['basic_access'],
				roles: [{ roleName: 'Campaign Manager' }],
				appGroup: [
					{
						appGroupName: 'Production',
						appGroupPermissions: ['view_campaigns', 'view_segments'],
						appGroupPermissionSets: [{ appGroupPermissionSetName: 'Email Editors' }],
						team: [{ teamName: 'Newsletters', teamPermissions: ['edit_campaigns'] }],
					},
				],
			},
		});
		const [mia] = result.output(DASHBOARD_USER);
		expect(mia.pairedItem).toEqual({ item: 0 });
		expect(mia.json).toMatchObject({
			id: expect.any(String),
			userName: 'mia@example.com',
			lastSignInAt: null,
			permissions: {
				roles: [{ roleName: 'Campaign Manager', roleId: expect.any(String) }],
				appGroup: [
					{
						appGroupName: 'Production',
						appGroupId: expect.any(String),
						team: [{ teamName: 'Newsletters', teamId: expect.any(String) }],
					},
				],
			},
		});
		expect((await users()).map((user) => user.userName)).toEqual(['mia@example.com', 'noah@example.com']);
	});

	test('create for an email that already has an account: the 409 detail lands on that item with what to do', async () => {
		await seedUsers('mia@example.com');

		const result = await run({
			items: [
				{ email: 'MIA@example.com', given: 'Mia', family: 'Chen' },
				{ email: 'noah@example.com', given: 'Noah', family: 'Berg' },
			],
			parameters: createParameters(),
			continueOnFail: true,
		});

		const [duplicate, created] = result.output(DASHBOARD_USER).map((item) => item.json);
		// A failed item keeps its row, with the reason as `error` and the node's words in their field.
		expect(duplicate).toMatchObject({
			email: 'MIA@example.com',
			error: "Row 1 (item 0, email 'MIA@example.com'): User already exists in the database.",
		});
		expect(wordsOf(duplicate)).toMatchObject({
			status: 'failed',
			httpCode: 409,
			delivery: 'not_applied',
			description: expect.stringContaining('Find by Email'),
		});
		expect(created).toMatchObject({ userName: 'noah@example.com' });
	});

	test('two items of one run for the same user are refused on the second, before anything is sent', async () => {
		await seedUsers('mia@example.com');
		const [mia] = await users();

		const created = await run({
			items: [
				{ email: 'ada@example.com', given: 'Ada', family: 'L' },
				{ email: 'ADA@example.com', given: 'Ada', family: 'L' },
			],
			parameters: createParameters(),
			continueOnFail: true,
		});
		const deleted = await run({
			items: [{ id: mia.id }, { id: mia.id }],
			parameters: { operation: 'delete', userId: '={{ $json.id }}' },
			continueOnFail: true,
		});

		expect(created.output(DASHBOARD_USER)[1].json).toMatchObject({
			email: 'ADA@example.com',
			error: `Row 2 (item 1, email 'ADA@example.com'): "Email" names the same user as row 1 (item 0)`,
			[OUTPUT_FIELD]: { status: 'failed', field: 'Email', delivery: 'invalid' },
		});
		expect(deleted.output(DASHBOARD_USER).map((item) => item.json)).toEqual([
			{ deleted: true, id: mia.id },
			expect.objectContaining({
				id: mia.id,
				error: expect.stringMatching(
					/^Row 2 \(item 1, id '[^']+'\): "User ID" names the same user as row 1 \(item 0\)$/,
				),
				[OUTPUT_FIELD]: expect.objectContaining({ status: 'failed', field: 'User ID', delivery: 'invalid' }),
			}),
		]);
		expect((await client().requests()).map((request) => request.method)).toEqual(['POST', 'DELETE']);
	});

	test('find by email: a list answering more accounts than asked finds only the one asked for', async () => {
		const account = (id: string, userName: string) => ({ id, userName, name: { givenName: 'A', familyName: 'B' } });
		await client().injectFaults([
			{
				path: '/scim/v2/Users',
				method: 'GET',
				kind: 'answer',
				times: 1,
				status: 200,
				answerBody: {
					schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
					totalResults: 3,
					Resources: [
						account('owner-1', 'owner@example.com'),
						account('mia-1', 'mia@example.com'),
						account('ops-1', 'ops@example.com'),
					],
				},
			},
		]);

		const result = await run({
			items: [{ email: 'mia@example.com' }],
			parameters: { operation: 'findByEmail', email: '={{ $json.email }}' },
		});

		expect(result.output(DASHBOARD_USER).map((item) => item.json)).toEqual([
			expect.objectContaining({ found: true, id: 'mia-1', userName: 'mia@example.com' }),
		]);
	});

	test('find by email: the SCIM filter finds the account (any case); a miss says found: false', async () => {
		await seedUsers('mia@example.com');

		const result = await run({
			items: [{ email: 'Mia@Example.com' }, { email: 'nobody@example.com' }],
			parameters: { operation: 'findByEmail', email: '={{ $json.email }}' },
		});

		const [found, missing] = result.output(DASHBOARD_USER).map((item) => item.json);
		expect(found).toMatchObject({ found: true, userName: 'mia@example.com', id: (await users())[0].id });
		expect(missing).toEqual({ found: false, userName: 'nobody@example.com' });
		const requests = await client().requests();
		expect(requests.map((r) => r.query.filter).sort()).toEqual([
			'userName eq "Mia@Example.com"',
			'userName eq "nobody@example.com"',
		]);
	});

	test('find, then update with the id: name, department and permissions are replaced; the email stays', async () => {
		await seedUsers('mia@example.com');
		const [{ id }] = await users();

		const result = await run({
			items: [{ id }],
			parameters: {
				operation: 'update',
				userId: '={{ $json.id }}',
				givenName: 'Mia',
				familyName: 'Chen-Berg',
				department: 'engineering',
				permissionsInput: 'json',
				permissionsJson: '{"appGroup": [{"appGroupName": "Staging", "appGroupPermissions": ["view_campaigns"]}]}',
			},
		});

		expect(result.error).toBeUndefined();
		const [request] = await client().requests({ method: 'PUT' });
		expect(request.path).toBe(`/scim/v2/Users/${String(id)}`);
		expect((await users())[0]).toMatchObject({
			userName: 'mia@example.com',
			name: { givenName: 'Mia', familyName: 'Chen-Berg' },
			department: 'engineering',
			permissions: {
				companyPermissions: [],
				roles: [],
				appGroup: [{ appGroupName: 'Staging', appGroupPermissions: ['view_campaigns'] }],
			},
		});
	});

	test('a user read with Get can be sent back with Update: the ids only responses carry are dropped', async () => {
		const created = await run({
			items: [{ email: 'mia@example.com', given: 'Mia', family: 'Chen' }],
			parameters: createParameters(),
		});
		const user = created.output(DASHBOARD_USER)[0].json;

		const result = await run({
			items: [user],
			parameters: {
				operation: 'update',
				userId: '={{ $json.id }}',
				givenName: '={{ $json.name.givenName }}',
				familyName: '={{ $json.name.familyName }}',
				department: 'sales',
				permissionsInput: 'json',
				permissionsJson: '={{ $json.permissions }}',
			},
		});

		expect(result.error).toBeUndefined();
		expect((await users())[0]).toMatchObject({ department: 'sales', permissions: user.permissions as IDataObject });
	});

	test('update with empty permission fields is refused before sending: it would remove every permission', async () => {
		await seedUsers('mia@example.com');
		const [{ id }] = await users();

		const result = await run({
			items: [{ id }],
			parameters: {
				operation: 'update',
				userId: '={{ $json.id }}',
				givenName: 'Mia',
				familyName: 'Chen',
				department: 'sales',
			},
		});

		expect(result.error?.message).toContain('"Permissions" are empty, and Update replaces them whole');
		expect(await client().requests()).toEqual([]);
	});

	test('get and delete by id; an unknown id gives the SCIM 404 detail on its item', async () => {
		await seedUsers('mia@example.com', 'noah@example.com');
		const [mia, noah] = await users();

		const got = await run({
			items: [{ id: mia.id }, { id: 'no-such-user' }],
			parameters: { operation: 'get', userId: '={{ $json.id }}' },
			continueOnFail: true,
		});
		const deleted = await run({
			items: [{ id: noah.id }],
			parameters: { operation: 'delete', userId: '={{ $json.id }}' },
		});

		const [found, unknown] = got.output(DASHBOARD_USER).map((item) => item.json);
		expect(found).toMatchObject({ id: mia.id, userName: 'mia@example.com', department: 'sales' });
		expect(unknown).toMatchObject({ id: 'no-such-user', error: "Row 2 (item 1, id 'no-such-user'): User not found" });
		expect(wordsOf(unknown)).toMatchObject({
			status: 'failed',
			httpCode: 404,
			description: expect.stringContaining('Find by Email'),
		});
		expect(deleted.output(DASHBOARD_USER)[0].json).toEqual({ deleted: true, id: noah.id });
		expect((await client().requests({ method: 'DELETE' }))[0].status).toBe(204);
		expect((await users()).map((user) => user.userName)).toEqual(['mia@example.com']);
	});

	test('permissions are checked before sending: a role needs a name or an ID, unknown JSON keys are refused', async () => {
		const result = await run({
			items: [
				{ email: 'a@example.com', given: 'A', family: 'B', permissions: { roles: [{}] } },
				{ email: 'c@example.com', given: 'C', family: 'D', permissions: { companyPermission: ['x'] } },
			],
			parameters: createParameters({ permissionsInput: 'json', permissionsJson: '={{ $json.permissions }}' }),
			continueOnFail: true,
		});

		// Named as every error of a JSON field is: by its display name without "(JSON)".
		expect(result.output(DASHBOARD_USER).map((item) => wordsOf(item.json).field)).toEqual([
			'Permissions.roles[0]',
			'Permissions',
		]);
		expect(await client().requests()).toEqual([]);
	});

	test('a wrong request origin is refused (401) with advice about the token and origin, and the token appears nowhere', async () => {
		const result = await run({
			items: [{ id: 'x' }],
			parameters: { operation: 'get', userId: '={{ $json.id }}' },
			origin: 'elsewhere.example.com',
		});

		// A refused key is the run's failure, said once: no item is blamed for it.
		expect(result.error?.message).toBe('Error authenticating credentials');
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBeUndefined();
		expect((result.error as { description?: string }).description).toContain('SCIM token or the request origin');
		expect(JSON.stringify({ run: result.run, logs: result.logs })).not.toContain(DEMO_SCIM_TOKEN);
	});

	test('the daily limit spent with its reset hours away: the items fail at once with the reset time, rather than sleeping', async () => {
		await seedUsers('mia@example.com');
		await client().configure({ rateLimits: { scim: { limit: 2, windowMs: 86_400_000 } } });
		const [{ id }] = await users();

		const result = await run({
			items: Array.from({ length: 5 }, () => ({ id })),
			parameters: { operation: 'get', userId: '={{ $json.id }}', options: { parallelRequests: 1 } },
			continueOnFail: true,
		});

		const output = result.output(DASHBOARD_USER).map((item) => item.json);
		expect(output.slice(0, 2).map((json) => json.userName)).toEqual(['mia@example.com', 'mia@example.com']);
		for (const json of output.slice(2)) {
			expect(json).toMatchObject({
				id,
				error: expect.stringMatching(
					/^Row \d \(item \d, id '[^']+'\): Rate limited: the platform's limit resets at \d{4}-\d\d-\d\dT\d\d:00:00Z, in \d+ (h|min)/,
				),
			});
			expect(wordsOf(json)).toMatchObject({ status: 'failed', delivery: 'not_applied' });
		}
		// The second answer said the window was spent: the rest were never sent.
		expect((await client().requests()).length).toBe(2);
	});
});
