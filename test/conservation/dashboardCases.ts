/** Conservation cases of the Dashboard User node (SCIM): one request per item, each user its own. */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

import type { RecordedRequest } from '../../sandbox';
import { DASHBOARD_USER_NODE } from '../support/nodeTypes';
import { batch } from './batches';
import type { ConservationCase } from './conservationCase';
import { scimIdKey, scimUserNameKey } from './wirePieces';

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

const create: ConservationCase = {
	name: 'Dashboard User: Create',
	nodeType: DASHBOARD_USER_NODE,
	operation: 'create',
	parameters: { operation: 'create', email: '={{ $json.email }}', ...profileParameters },
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
};

const get: ConservationCase = {
	name: 'Dashboard User: Get',
	nodeType: DASHBOARD_USER_NODE,
	operation: 'get',
	parameters: { operation: 'get', userId: '={{ $json.id }}' },
	items: batch(fc.constant(null), (_, index) => ({ id: userId(index) }), MAX_USERS),
	numRuns: RUNS,
	seed: seededUsers,
	expected: (json) => [{ key: scimIdKey(json.id as string), value: { method: 'GET' } }],
	answeredFrom: sameUser,
};

const update: ConservationCase = {
	name: 'Dashboard User: Update',
	nodeType: DASHBOARD_USER_NODE,
	operation: 'update',
	parameters: { operation: 'update', userId: '={{ $json.id }}', ...profileParameters },
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
};

const findByEmail: ConservationCase = {
	name: 'Dashboard User: Find by Email',
	nodeType: DASHBOARD_USER_NODE,
	operation: 'findByEmail',
	parameters: { operation: 'findByEmail', email: '={{ $json.email }}' },
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
};

const remove: ConservationCase = {
	name: 'Dashboard User: Delete',
	nodeType: DASHBOARD_USER_NODE,
	operation: 'delete',
	parameters: { operation: 'delete', userId: '={{ $json.id }}' },
	items: batch(fc.constant(null), (_, index) => ({ id: userId(index) }), MAX_USERS),
	numRuns: RUNS,
	seed: seededUsers,
	expected: (json) => [{ key: scimIdKey(json.id as string), value: { method: 'DELETE' } }],
};

export const DASHBOARD_CASES: ConservationCase[] = [create, get, update, findByEmail, remove];
