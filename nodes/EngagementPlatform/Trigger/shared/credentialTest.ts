import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';

import type { PostbackAuthCredential } from './authentication';
import { basicPairProblem, headerPairProblem } from './authentication';

/**
 * The test of the engagementPlatformPostbackAuthApi credential. There is nothing to call: the
 * credential is not sent anywhere, the trigger compares incoming postbacks with it (n8n's own
 * Header Auth and Basic Auth credentials have no test for the same reason). What can be checked is
 * whether the pair(s) filled in can authenticate a postback at all, and that is what this does.
 */
export async function testPostbackAuthCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = (credential.data ?? {}) as PostbackAuthCredential;
	// The header name has a default, so the header pair counts as started once a token is filled in.
	const headerStarted = Boolean(data.headerToken);
	const basicStarted = Boolean(data.user) || Boolean(data.password);
	if (!headerStarted && !basicStarted) {
		return {
			status: 'Error',
			message: 'Fill in a header name and token (Header Token) or a user and password (Basic Auth)',
		};
	}

	const problems: string[] = [];
	const usable: string[] = [];
	if (headerStarted) {
		const problem = headerPairProblem(data);
		if (problem) problems.push(problem);
		else usable.push(`Header Token (in ${String(data.headerName).trim()})`);
	}
	if (basicStarted) {
		const problem = basicPairProblem(data);
		if (problem) problems.push(problem);
		else usable.push('Basic Auth');
	}
	if (problems.length) return { status: 'Error', message: problems.join('. ') };
	return {
		status: 'OK',
		message: `Usable for ${usable.join(' and ')}. Nothing was sent: the trigger checks each postback against this credential when it arrives.`,
	};
}
