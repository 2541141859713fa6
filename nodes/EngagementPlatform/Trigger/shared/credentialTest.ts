import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';

import type { PostbackAuthCredential } from './authentication';
import { basicPairProblem, headerPairProblem } from './authentication';
import { secretPadding } from './secretPadding';

/**
 * The test of the engagementPlatformPostbackAuthApi credential. There is nothing to call: the
 * credential is not sent anywhere, the trigger compares incoming postbacks with it (n8n's own
 * Header Auth and Basic Auth credentials have no test for the same reason). What can be checked is
 * whether the pair(s) filled in can authenticate a postback at all, and that is what this does; it
 * also says what the trigger leaves out around a secret, so that a paste's line break is no surprise.
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
	const notes: string[] = [];
	if (headerStarted) {
		const problem = headerPairProblem(data);
		if (problem) problems.push(problem);
		else {
			usable.push(`Header Token (in ${String(data.headerName).trim()})`);
			notes.push(...headerTokenNote(data.headerToken));
		}
	}
	if (basicStarted) {
		const problem = basicPairProblem(data);
		if (problem) problems.push(problem);
		else {
			usable.push('Basic Auth');
			notes.push(...basicNotes(data));
		}
	}
	if (problems.length) return { status: 'Error', message: problems.join('. ') };
	return {
		status: 'OK',
		message: [
			`Usable for ${usable.join(' and ')}.`,
			...notes,
			'Nothing was sent: the trigger checks each postback against this credential when it arrives.',
		].join(' '),
	};
}

const pronoun = (count: number) => (count === 1 ? 'it' : 'them');

/** "The Header Token had a line break at its end, which HTTP does not carry: it is compared without it." */
function headerTokenNote(token: string | undefined): string[] {
	const padding = secretPadding(token);
	if (!padding) return [];
	const why = padding.onlyWhatHttpDrops ? ', which HTTP does not carry' : '';
	return [`The Header Token had ${padding.words}${why}: it is compared without ${pronoun(padding.count)}.`];
}

/**
 * One sentence per padded field, then how a postback's pair is read: base64 carries padding, so the
 * platform may bring it or not, and either way matches (see comparedSecret).
 */
function basicNotes({ user, password }: PostbackAuthCredential): string[] {
	const notes = (
		[
			['User', user],
			['Password', password],
		] as const
	).flatMap(([label, value]) => {
		const padding = secretPadding(value);
		return padding ? [`The ${label} had ${padding.words}: it is compared without ${pronoun(padding.count)}.`] : [];
	});
	if (notes.length === 0) return [];
	return [
		...notes,
		'The user and password a postback brings are compared the same way, so the platform may hold them with or without such characters.',
	];
}
