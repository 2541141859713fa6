import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	IHttpRequestMethods,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import type { Endpoint } from '../operation';
import { platformMessage, responseError } from './platformErrors';
import { apiKeyHeaders, credentialSecretProblem, runSecrets, scimHeaders, secretsOf } from './secrets';
import type { ApiResponse, TransportFailure } from './transport';
import { sendTestRequest, testEndpointUrl } from './transport';

/*
 * The credentials' Test buttons. Why a node's `testedBy` function and not a declarative `test` on the
 * credential: n8n runs a declarative test through its own request helper, outside the package's
 * transport, and that helper followed a 301, 302 or 307 to another origin with the key (and said
 * the credential was OK); `disableFollowRedirect` would stop that, but the Test could then only say
 * a fixed message per status ("Received HTTP status code: 302"), not where the redirect pointed, and
 * an answer's text would go through n8n's error handling (its error reporter, its debug log) without
 * the package's redaction. A `testedBy` function sends through sendTestRequest: the one transport
 * the nodes use (no redirect followed, every form of the key redacted), and its messages name the
 * host. n8n's credentials tester takes a credential's own `test` first and a node's `testedBy` only
 * when there is none, so the two credentials declare none, and every node using them names the
 * function here in its `credentials` (the community-nodes lint accepts a credential without `test`
 * only when every node using it does).
 */

/** A Test waits no longer than this for the answer. */
const TEST_TIMEOUT_MS = 30_000;

interface CredentialTest {
	endpoint: Pick<Endpoint, 'credentialType' | 'permission'>;
	/** The credential's field holding the endpoint URL. */
	endpointField: string;
	/** The headers its authenticate() sends. */
	headers(credentials: ICredentialDataDecryptedObject): Record<string, string>;
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	/** A 2xx is the platform's answer to this request. */
	answersAsThePlatform(response: ApiResponse): boolean;
	/** What a 2xx that is not the platform's answer says. */
	notThePlatform: string;
	/** The message of each status that tells what is wrong with the credential. */
	refusals: Readonly<Record<number, string>>;
	/** A key the Test's request refuses for want of a permission may still do other things: what it may. */
	permissionProbes?: readonly PermissionProbe[];
}

/** A request that changes nothing, which a key without `permission` is refused (403) and a key with it is not. */
interface PermissionProbe {
	permission: string;
	/** What the permission lets the nodes do, in a marketer's words. */
	lets: string;
	path: string;
	body: IDataObject;
}

/**
 * An empty /users/track call stores nothing, and tells a refused key (401) from a key that works but
 * lacks the users.track permission (403). The platform's answer says "success".
 */
const API_KEY_TEST: CredentialTest = {
	endpoint: { credentialType: 'engagementPlatformApi', permission: 'users.track' },
	endpointField: 'restEndpoint',
	headers: apiKeyHeaders,
	method: 'POST',
	path: '/users/track',
	body: { attributes: [] },
	answersAsThePlatform: (response) => response.body.message === 'success',
	notThePlatform:
		'without the platform\'s "success", so it is not the platform\'s REST API. Check the endpoint: it is the REST endpoint of your workspace, not a dashboard address.',
	refusals: {
		401: 'Error authenticating credentials: the platform refused this API key. Check the key and the endpoint.',
	},
	// Each is refused by its own validation (an empty list) once the key is let through, so nothing is set,
	// sent or read. Messaging, catalogs, preference centers and translations are left out: their requests
	// name a campaign, catalog or message, and a send is not a probe.
	permissionProbes: [
		{ permission: 'users.track', lets: 'track users and update their attributes', path: '/users/track', body: {} },
		{
			permission: 'subscription.status.set',
			lets: 'set subscription group states',
			path: '/v2/subscription/status/set',
			body: { subscription_groups: [] },
		},
		{
			permission: 'users.export.ids',
			lets: 'export users',
			path: '/users/export/ids',
			body: { external_ids: [], fields_to_export: ['external_id'] },
		},
		{
			permission: 'users.identify',
			lets: 'identify users',
			path: '/users/identify',
			body: { aliases_to_identify: [] },
		},
		{
			permission: 'users.external_ids.rename',
			lets: 'rename external IDs',
			path: '/users/external_ids/rename',
			body: { external_id_renames: [] },
		},
	],
};

/**
 * A userName filter reads without changing anything; SCIM answers 401 for a refused token or
 * origin. The spec does not show the list it answers, so any JSON answer is taken as the platform's.
 */
const SCIM_TOKEN_TEST: CredentialTest = {
	endpoint: { credentialType: 'engagementPlatformScimApi', permission: 'SCIM' },
	endpointField: 'scimEndpoint',
	headers: scimHeaders,
	method: 'GET',
	path: '/scim/v2/Users',
	qs: { filter: 'userName eq "credential-test@example.com"' },
	answersAsThePlatform: (response) => /json/i.test(String(response.headers['content-type'] ?? '')),
	notThePlatform:
		"with something other than JSON, so it is not the platform's SCIM API. Check the endpoint: it is the REST endpoint of your workspace, not a dashboard address.",
	refusals: {
		401: 'The platform refused this SCIM token or request origin. Check both in the credential.',
	},
};

/** The Test of the Engagement Platform API credential (engagementPlatformApi). */
export async function testApiKeyCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	return await runCredentialTest(this, credential.data ?? {}, API_KEY_TEST);
}

/** The Test of the Engagement Platform SCIM API credential (engagementPlatformScimApi). */
export async function testScimTokenCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	return await runCredentialTest(this, credential.data ?? {}, SCIM_TOKEN_TEST);
}

async function runCredentialTest(
	context: ICredentialTestFunctions,
	credentials: ICredentialDataDecryptedObject,
	test: CredentialTest,
): Promise<INodeCredentialTestResult> {
	const endpoint = String(credentials[test.endpointField] ?? '');
	const baseUrl = testEndpointUrl(endpoint);
	if (baseUrl === undefined) return failed(`The endpoint "${endpoint.trim()}" is not a URL`);
	const secretProblem = credentialSecretProblem(credentials);
	if (secretProblem) return failed(secretProblem);

	let response: ApiResponse;
	try {
		response = await sendTestRequest(context, test.headers(credentials), {
			credentialType: test.endpoint.credentialType,
			baseUrl,
			secrets: runSecrets(secretsOf(credentials)),
			method: test.method,
			path: test.path,
			body: test.body,
			qs: test.qs,
			timeoutMs: TEST_TIMEOUT_MS,
		});
	} catch (caught) {
		const failure = caught as TransportFailure;
		return failed(`${failure.message}. Check the endpoint URL in the credential.`);
	}

	const { statusCode } = response;
	if (statusCode >= 300 && statusCode < 400) {
		// Not followed, as no request of the nodes follows one: the Test fails as the nodes would.
		const { message, description } = responseError(response, test.endpoint, false);
		return failed(`${message}. ${description ?? ''}`.trim());
	}
	const refusal = test.refusals[statusCode];
	if (refusal) return failed(refusal);
	if (isPermissionRefusal(response) && test.permissionProbes) {
		return failed(await whatTheKeyMayDo(context, credentials, test, baseUrl, test.permissionProbes));
	}
	if (statusCode >= 200 && statusCode < 300) {
		if (test.answersAsThePlatform(response)) return { status: 'OK', message: 'Connection successful' };
		return failed(`The endpoint answered ${statusCode} ${test.notThePlatform}`);
	}
	return failed(`The platform answered ${statusCode}: ${shortened(platformMessage(response.body, statusCode))}`);
}

const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/**
 * The spec's answer to a key without the endpoint's permission, in the platform's own words: a 403 of
 * anything else (a proxy's page) says nothing of the key, and asking that endpoint more would only hand
 * it the key again.
 */
const isPermissionRefusal = (response: ApiResponse) =>
	platformMessage(response.body, response.statusCode).includes('do not have permission');

/**
 * A valid key the Test's own request refuses for a permission: what it may and may not do, by probes
 * that change nothing. n8n shows no message for a Test that passes, so this is said as the Test's error,
 * with how to keep the key as it is when it is meant for less than every node.
 */
async function whatTheKeyMayDo(
	context: ICredentialTestFunctions,
	credentials: ICredentialDataDecryptedObject,
	test: CredentialTest,
	baseUrl: string,
	probes: readonly PermissionProbe[],
): Promise<string> {
	const answers = await Promise.all(
		probes.map(async (probe) => {
			// The Test's own request has just been refused for it.
			if (probe.permission === test.endpoint.permission) return { probe, may: false };
			try {
				const response = await sendTestRequest(context, test.headers(credentials), {
					credentialType: test.endpoint.credentialType,
					baseUrl,
					secrets: runSecrets(secretsOf(credentials)),
					method: 'POST',
					path: probe.path,
					body: probe.body,
					timeoutMs: TEST_TIMEOUT_MS,
				});
				if (isPermissionRefusal(response)) return { probe, may: false };
				// A 429 or a failure of the platform's says nothing of the permission.
				return { probe, may: response.statusCode === 429 || response.statusCode >= 500 ? undefined : true };
			} catch {
				return { probe, may: undefined };
			}
		}),
	);
	const listed = (may: boolean | undefined) =>
		answers
			.filter((answer) => answer.may === may)
			.map(({ probe }) => `${probe.lets} (${probe.permission})`)
			.join(', ');
	const may = listed(true);
	const mayNot = listed(false);
	const unknown = listed(undefined);
	return [
		`The API key works, but not for every node: it lacks the "${test.endpoint.permission}" permission.`,
		`It may: ${may || 'none of the permissions checked'}.`,
		mayNot ? `It may not: ${mayNot}.` : '',
		unknown ? `Not known (the platform did not answer): ${unknown}.` : '',
		'Messaging, catalog, preference center and translation permissions are checked when a node uses them.',
		"If the key is meant only for what it may do, save the credential as it is; otherwise add the missing permissions to the key in the platform's API settings.",
	]
		.filter(Boolean)
		.join(' ');
}

/** A Test's message is one line in the credential's dialog: an error page is cut short. */
const shortened = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);
