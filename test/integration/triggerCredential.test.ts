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

	test.each([
		['a line break at its end', `${TOKEN}\n`, 'a line break at its end'],
		['a Windows line break at its end', `${TOKEN}\r\n`, 'a line break at its end'],
		['a space on either side', ` ${TOKEN} `, 'a space at its start and a space at its end'],
		['a tab and two line breaks', `\t${TOKEN}\n\n`, 'a tab at its start and 2 line breaks at its end'],
	])('a Header Token with %s passes, and the test says what the trigger compares', async (_, headerToken, padding) => {
		const result = await testCredential({ headerName: 'X-Postback-Token', headerToken });

		expect(result).toEqual({
			status: 'OK',
			message: `Usable for Header Token (in X-Postback-Token). The Header Token had ${padding}, which HTTP does not carry: it is compared without ${padding.includes(' and ') || padding.startsWith('2') ? 'them' : 'it'}. Nothing was sent: the trigger checks each postback against this credential when it arrives.`,
		});
	});

	test('a Basic Auth password with a line break at its end passes, and the test says how it is compared', async () => {
		const result = await testCredential({ headerName: 'X-Postback-Token', user: ' platform', password: 'secret\n' });

		expect(result).toEqual({
			status: 'OK',
			message:
				'Usable for Basic Auth. The User had a space at its start: it is compared without it. The Password had a line break at its end: it is compared without it. The user and password a postback brings are compared the same way, so the platform may hold them with or without such characters. Nothing was sent: the trigger checks each postback against this credential when it arrives.',
		});
	});

	test.each([
		['16 characters with a line break', '0123456789abcde\n'],
		['15 characters between two spaces', ' 0123456789abcde '],
	])('a Header Token of %s is too short: the 16 characters count what is compared', async (_, headerToken) => {
		const result = await testCredential({ headerName: 'X-Postback-Token', headerToken });

		expect(result.status).toBe('Error');
		expect(result.message).toContain(
			'The Header Token is shorter than 16 characters (the spaces, tabs and line breaks around it, which HTTP does not carry, not counted): use a long random value',
		);
	});

	test.each([
		['a line break inside it', `${TOKEN.slice(0, 6)}\n${TOKEN.slice(6)}`, 'line break'],
		['a letter beyond Latin-1', `${TOKEN}€`, 'Latin-1'],
	])('a Header Token with %s fails: no postback can bring it', async (_, headerToken, named) => {
		const result = await testCredential({ headerName: 'X-Postback-Token', headerToken });

		expect(result.status).toBe('Error');
		expect(result.message).toContain('The Header Token has');
		expect(result.message).toContain(named);
		expect(result.message).toContain('no postback can bring it');
		expect(result.message).not.toContain(TOKEN.slice(0, 6));
	});

	test('a token, user or password of spaces and line breaks alone is not filled in', async () => {
		const token = await testCredential({ headerName: 'X-Postback-Token', headerToken: ' \n\t\r\n                ' });
		const password = await testCredential({ headerName: 'X-Postback-Token', user: 'platform', password: ' \n' });

		expect(token).toEqual({ status: 'Error', message: 'Header Token authentication needs a header name and a token' });
		expect(password).toEqual({ status: 'Error', message: 'Basic Auth authentication needs a user and a password' });
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
