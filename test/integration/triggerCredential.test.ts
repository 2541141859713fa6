/**
 * The Engagement Platform Postback Auth API credential's test, found and called the way n8n's
 * CredentialsTester does it (packages/cli credentials-tester.service.ts): the credential type has no
 * `test` request, so n8n looks for a node that declares the credential with `testedBy` and calls that
 * node's `methods.credentialTest[testedBy]` with n8n-core's CredentialTestContext as `this`.
 */
import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	INodeCredentialTestResult,
	INodeType,
} from 'n8n-workflow';

import { packageCredentialTypes, packageNodeTypes } from '../harness';

const CREDENTIAL = 'engagementPlatformPostbackAuthApi';

function findTestFunction(): ICredentialTestFunction {
	expect(packageCredentialTypes()[CREDENTIAL].test).toBeUndefined();
	for (const nodeType of Object.values(packageNodeTypes()) as INodeType[]) {
		for (const { name, testedBy } of nodeType.description.credentials ?? []) {
			if (name === CREDENTIAL && typeof testedBy === 'string') {
				const fn = nodeType.methods?.credentialTest?.[testedBy];
				if (fn) return fn;
			}
		}
	}
	throw new Error(`no node tests ${CREDENTIAL}`);
}

async function testCredential(data: ICredentialDataDecryptedObject): Promise<INodeCredentialTestResult> {
	const context = new CredentialTestContext();
	return await findTestFunction().call(context, { id: 'c1', name: 'Postback auth', type: CREDENTIAL, data });
}

const TOKEN = 'a8f3c2e1b7d94f60a1b2';

describe('Engagement Platform Postback Auth API: what its test can honestly check', () => {
	test('a header name and a long token are usable, and the test says nothing was sent', async () => {
		const result = await testCredential({ headerName: 'X-Postback-Token', headerToken: TOKEN });

		expect(result).toEqual({
			status: 'OK',
			message:
				'Usable for Header Token (in X-Postback-Token). Nothing was sent: the trigger checks each postback against this credential when it arrives.',
		});
	});

	test('a user and password are usable; both pairs together are reported together', async () => {
		expect(await testCredential({ headerName: 'X-Postback-Token', user: 'platform', password: 'secret' })).toEqual(
			expect.objectContaining({ status: 'OK', message: expect.stringMatching(/^Usable for Basic Auth\./) }),
		);
		expect(
			await testCredential({ headerName: 'X-Token', headerToken: TOKEN, user: 'platform', password: 'secret' }),
		).toEqual(
			expect.objectContaining({
				status: 'OK',
				message: expect.stringMatching(/^Usable for Header Token \(in X-Token\) and Basic Auth\./),
			}),
		);
	});

	test.each([
		['nothing filled in', { headerName: 'X-Postback-Token' }, 'Fill in a header name and token'],
		['a token without a header name', { headerName: '', headerToken: TOKEN }, 'needs a header name and a token'],
		['a header name with a space', { headerName: 'X Postback', headerToken: TOKEN }, 'is not a valid header name'],
		['Content-Type as the header', { headerName: 'Content-Type', headerToken: TOKEN }, 'cannot carry a token'],
		[
			'a 10-character token',
			{ headerName: 'X-Postback-Token', headerToken: '0123456789' },
			'shorter than 16 characters',
		],
		['a user without a password', { headerName: 'X-Postback-Token', user: 'platform' }, 'needs a user and a password'],
		[
			'a user with a colon',
			{ headerName: 'X-Postback-Token', user: 'a:b', password: 'secret' },
			'must not contain ":"',
		],
	])('%s is an error', async (_, data, message) => {
		const result = await testCredential(data);

		expect(result.status).toBe('Error');
		expect(result.message).toContain(message);
	});

	test('the token never appears in what the test says', async () => {
		const results = await Promise.all([
			testCredential({ headerName: 'X-Postback-Token', headerToken: TOKEN }),
			testCredential({ headerName: 'bad name', headerToken: TOKEN }),
			testCredential({ headerName: 'X-Postback-Token', headerToken: 'short-secret' }),
		]);
		for (const { message } of results) {
			expect(message).not.toContain(TOKEN);
			expect(message).not.toContain('short-secret');
		}
	});
});
