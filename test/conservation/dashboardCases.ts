/** The Dashboard User node's rows (SCIM): one request per item, each user its own; and the endpoints they call. */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

import type { RecordedRequest, StateView } from '../../sandbox';
import { batchOf, duplicating, setting } from '../reliability/badInputBatch';
import {
	badNames,
	badUserId,
	DASHBOARD_USERS,
	dashboardUserId,
	namesPerItem,
	person,
	seededDashboardUsers,
} from '../reliability/badInputResourceValues';
import { answeredCount } from '../reliability/badInputRun';
import { blank, withLoneSurrogate } from '../reliability/badValues';
import { FAULT_IDS } from '../reliability/faultCase';
import { DASHBOARD_USER_NODE } from '../support/nodeTypes';
import { batch } from './batches';
import type { Endpoint } from './endpoints';
import type { OperationRow } from './operationRow';
import { scimIdKey, scimUserNameKey } from './pieceReading';

/** RFC 7644 filter `userName eq "<json string>"`: the user name it asks for. */
function filteredUserName(filter: string | undefined): unknown {
	const match = /^userName eq (".*")$/.exec(filter ?? '');
	if (!match) return filter;
	try {
		return JSON.parse(match[1]) as unknown;
	} catch {
		return filter;
	}
}

// No per-request limit stated (rate limits only): one user per request, by the path or body.
const SCIM_USERS_POST: Endpoint = {
	method: 'POST',
	path: '/scim/v2/Users',
	read: (body) => [{ key: scimUserNameKey(body.userName), value: { method: 'POST', body } }],
	limits: [],
};
const SCIM_USERS_GET: Endpoint = {
	method: 'GET',
	path: '/scim/v2/Users',
	read: (_, __, request) => [
		{
			key: scimUserNameKey(filteredUserName(request.query.filter)),
			value: { method: 'GET', filter: request.query.filter },
		},
	],
	limits: [],
};
const SCIM_USER_GET: Endpoint = {
	method: 'GET',
	path: '/scim/v2/Users/{id}',
	read: (_, params) => [{ key: scimIdKey(params.id), value: { method: 'GET' } }],
	limits: [],
};
const SCIM_USER_PUT: Endpoint = {
	method: 'PUT',
	path: '/scim/v2/Users/{id}',
	read: (body, params) => [{ key: scimIdKey(params.id), value: { method: 'PUT', body } }],
	limits: [],
};
const SCIM_USER_DELETE: Endpoint = {
	method: 'DELETE',
	path: '/scim/v2/Users/{id}',
	read: (_, params) => [{ key: scimIdKey(params.id), value: { method: 'DELETE' } }],
	limits: [],
};

/** The fault suite's three users. */
const faultUserId = (i: number) => `00000000-0000-4000-8000-00000000000${i}`;
const faultUsers = FAULT_IDS.map((i) => ({ id: faultUserId(i), userName: `u${i}@example.com` }));
const faultUserItems = FAULT_IDS.map((i) => ({ id: faultUserId(i) }));
const dashboardUsersOf = (state: StateView) => state.dashboardUsers as unknown as IDataObject[];

const MAX_USERS = 20;
const RUNS = 3;
/** The spec: schemas "contains the SCIM 2.0 core user schema URN". */
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

const userId = (index: number) => `00000000-0000-4000-8000-${String(500 + index).padStart(12, '0')}`;
const seededUsers = (items: IDataObject[]) => ({
	dashboardUsers: items.map((json, index) => ({
		id: userId(index),
		userName: `u${index}@example.com`,
		name: { givenName: 'Old', familyName: 'Name' },
		department: 'sales',
	})),
});

const profile = fc.record({
	given: fc.constantFrom('Mia', 'Noah', 'Zoë'),
	family: fc.constantFrom('Chen', 'Berg', 'Ødegård'),
	department: fc.constantFrom('marketing', 'support', 'sales'),
	permissions: fc.subarray(['basic_access', 'publish_cards', 'manage_apps'], { minLength: 1 }),
});
const profileParameters = {
	givenName: '={{ $json.given }}',
	familyName: '={{ $json.family }}',
	department: '={{ $json.department }}',
	permissionsInput: 'json',
	permissionsJson: '={{ $json.permissions }}',
};
const profileItem = ({
	permissions,
	...choice
}: {
	given: string;
	family: string;
	department: string;
	permissions: string[];
}) => ({
	...choice,
	permissions: { companyPermissions: permissions },
});
const profileBody = (json: IDataObject) => ({
	name: { givenName: json.given, familyName: json.family },
	department: json.department,
	permissions: json.permissions,
});

/** The user an item outputs is the one its request was answered with. */
function sameUser(answers: IDataObject[], request: RecordedRequest): string | undefined {
	return answers.every(({ warnings: _warnings, ...answer }) => isDeepStrictEqual(answer, request.response))
		? undefined
		: 'outputs a user other than the answer of its request';
}

const create: OperationRow = {
	name: 'Dashboard User: Create',
	nodeType: DASHBOARD_USER_NODE,
	operation: 'create',
	parameters: { email: '={{ $json.email }}', ...profileParameters },
	items: batch(profile, (choice, index) => ({ ...profileItem(choice), email: `new${index}@example.com` }), MAX_USERS),
	numRuns: RUNS,
	seed: () => ({}),
	expected: (json) => [
		{
			key: scimUserNameKey(json.email),
			value: { method: 'POST', body: { schemas: [USER_SCHEMA], userName: json.email, ...profileBody(json) } },
		},
	],
	answeredFrom: sameUser,
	endpoints: [SCIM_USERS_POST],
	batchLimit: null,
	underFault: {
		credential: 'scim',
		parameters: {
			email: '={{ $json.email }}',
			givenName: 'New',
			familyName: 'User',
			department: 'marketing',
			companyPermissions: 'basic_access',
		},
		seed: {},
		items: FAULT_IDS.map((i) => ({ email: `new${i}@example.com` })),
		firstRequest: { method: 'POST', path: '/scim/v2/Users' },
		requestPerItem: true,
		resendsAfterServerError: false,
		applied: (state) => dashboardUsersOf(state).length,
	},
	badInput: {
		parameters: { email: '={{ $json.email }}', ...namesPerItem },
		seed: {},
		numRuns: 12,
		items: batchOf(
			person.map((who) => (index: number): IDataObject => ({ email: `new${index}@example.com`, ...who })),
			[
				setting(
					'email',
					'not an email',
					'Email',
					fc.constantFrom('ada', 'ada@', '@example.com', 'ada @example.com', 'ada@example'),
				),
				setting('email', 'blank email', 'Email', blank),
				duplicating('email', 'Email'),
				...badNames,
			],
			DASHBOARD_USERS,
		),
		received: answeredCount,
	},
};

const get: OperationRow = {
	name: 'Dashboard User: Get',
	nodeType: DASHBOARD_USER_NODE,
	operation: 'get',
	parameters: { userId: '={{ $json.id }}' },
	items: batch(fc.constant(null), (_, index) => ({ id: userId(index) }), MAX_USERS),
	numRuns: RUNS,
	seed: seededUsers,
	expected: (json) => [{ key: scimIdKey(json.id as string), value: { method: 'GET' } }],
	answeredFrom: sameUser,
	endpoints: [SCIM_USER_GET],
	batchLimit: null,
	underFault: {
		credential: 'scim',
		parameters: { userId: '={{ $json.id }}' },
		seed: { dashboardUsers: faultUsers },
		items: faultUserItems,
		firstRequest: { method: 'GET', path: `/scim/v2/Users/${faultUserId(0)}` },
		requestPerItem: true,
		resendsAfterServerError: true,
	},
	badInput: {
		parameters: { userId: '={{ $json.id }}' },
		seed: seededDashboardUsers,
		numRuns: 12,
		items: batchOf(
			fc.constant((index: number): IDataObject => ({ id: dashboardUserId(index) })),
			badUserId,
			DASHBOARD_USERS,
		),
		received: answeredCount,
	},
};

const update: OperationRow = {
	name: 'Dashboard User: Update',
	nodeType: DASHBOARD_USER_NODE,
	operation: 'update',
	parameters: { userId: '={{ $json.id }}', ...profileParameters },
	items: batch(profile, (choice, index) => ({ ...profileItem(choice), id: userId(index) }), MAX_USERS),
	numRuns: RUNS,
	seed: seededUsers,
	expected: (json) => [
		{
			key: scimIdKey(json.id as string),
			value: { method: 'PUT', body: { schemas: [USER_SCHEMA], ...profileBody(json) } },
		},
	],
	answeredFrom: sameUser,
	endpoints: [SCIM_USER_PUT],
	batchLimit: null,
	underFault: {
		credential: 'scim',
		parameters: {
			userId: '={{ $json.id }}',
			givenName: 'Mia',
			familyName: 'Chen',
			department: 'support',
			companyPermissions: 'basic_access',
		},
		seed: {
			dashboardUsers: FAULT_IDS.map((i) => ({
				id: faultUserId(i),
				userName: `u${i}@example.com`,
				department: 'sales',
			})),
		},
		items: faultUserItems,
		firstRequest: { method: 'PUT', path: `/scim/v2/Users/${faultUserId(0)}` },
		requestPerItem: true,
		resendsAfterServerError: true,
		applied: (state) => dashboardUsersOf(state).filter((user) => user.department === 'support').length,
	},
	badInput: {
		parameters: { userId: '={{ $json.id }}', department: '={{ $json.department }}', ...namesPerItem },
		seed: {
			dashboardUsers: Array.from({ length: DASHBOARD_USERS }, (_, i) => ({
				id: dashboardUserId(i),
				userName: `u${i}@example.com`,
				department: 'sales',
			})),
		},
		numRuns: 12,
		items: batchOf(
			person.map((who) => (index: number): IDataObject => ({
				id: dashboardUserId(index),
				department: 'support',
				...who,
			})),
			[
				setting('id', 'blank user ID', 'User ID', blank),
				setting('id', 'user ID with a lone surrogate', 'User ID', withLoneSurrogate),
				duplicating('id', 'User ID'),
				setting('department', 'blank department', 'Department', blank),
				...badNames,
			],
			DASHBOARD_USERS,
		),
		received: answeredCount,
	},
};

const findByEmail: OperationRow = {
	name: 'Dashboard User: Find by Email',
	nodeType: DASHBOARD_USER_NODE,
	operation: 'findByEmail',
	parameters: { email: '={{ $json.email }}' },
	// Some emails match nobody: the item is answered found: false.
	items: batch(
		fc.boolean(),
		(known, index) => ({ email: known ? `u${index}@example.com` : `nobody${index}@example.com` }),
		MAX_USERS,
	),
	numRuns: RUNS,
	seed: seededUsers,
	// The filter's syntax is RFC 7644's, not the spec's: the key already names the email it asks for.
	expected: (json) => [
		{
			key: scimUserNameKey(json.email),
			check: (wire) =>
				(wire as IDataObject).method === 'GET' ? undefined : `method ${String((wire as IDataObject).method)}`,
		},
	],
	answeredFrom(answers, request) {
		const resources = ((request.response as IDataObject | undefined)?.Resources ?? []) as IDataObject[];
		const foreign = answers.filter(
			({ found, warnings: _warnings, ...user }) =>
				found === true && !resources.some((resource) => isDeepStrictEqual(resource, user)),
		);
		return foreign.length > 0 ? 'outputs a user not in the answer of its request' : undefined;
	},
	endpoints: [SCIM_USERS_GET],
	batchLimit: null,
	underFault: {
		credential: 'scim',
		parameters: { email: '={{ $json.email }}' },
		seed: { dashboardUsers: faultUsers },
		items: FAULT_IDS.map((i) => ({ email: `u${i}@example.com` })),
		firstRequest: { method: 'GET', path: '/scim/v2/Users' },
		requestPerItem: true,
		resendsAfterServerError: true,
	},
	badInput: {
		parameters: { email: '={{ $json.email }}' },
		seed: seededDashboardUsers,
		numRuns: 12,
		items: batchOf(
			fc.constant((index: number): IDataObject => ({ email: `u${index}@example.com` })),
			[
				setting(
					'email',
					'not an email',
					'Email',
					fc.constantFrom('ada', 'ada@', '@example.com', 'ada @example.com', 'ada@example'),
				),
				setting('email', 'blank email', 'Email', blank),
			],
			DASHBOARD_USERS,
		),
		received: answeredCount,
	},
};

const remove: OperationRow = {
	name: 'Dashboard User: Delete',
	nodeType: DASHBOARD_USER_NODE,
	operation: 'delete',
	parameters: { userId: '={{ $json.id }}' },
	items: batch(fc.constant(null), (_, index) => ({ id: userId(index) }), MAX_USERS),
	numRuns: RUNS,
	seed: seededUsers,
	expected: (json) => [{ key: scimIdKey(json.id as string), value: { method: 'DELETE' } }],
	endpoints: [SCIM_USER_DELETE],
	batchLimit: null,
	underFault: {
		credential: 'scim',
		parameters: { userId: '={{ $json.id }}' },
		seed: { dashboardUsers: faultUsers },
		items: faultUserItems,
		firstRequest: { method: 'DELETE', path: `/scim/v2/Users/${faultUserId(0)}` },
		requestPerItem: true,
		// A resend after a lost answer would meet 404 for a user it did delete.
		resendsAfterServerError: false,
		applied: (state) => 3 - dashboardUsersOf(state).length,
	},
	badInput: {
		parameters: { userId: '={{ $json.id }}' },
		seed: seededDashboardUsers,
		numRuns: 12,
		items: batchOf(
			fc.constant((index: number): IDataObject => ({ id: dashboardUserId(index) })),
			[...badUserId, duplicating('id', 'User ID')],
			DASHBOARD_USERS,
		),
		received: answeredCount,
	},
};

export const DASHBOARD_CASES: OperationRow[] = [create, get, update, findByEmail, remove];
