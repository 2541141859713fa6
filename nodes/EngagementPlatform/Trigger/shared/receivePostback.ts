import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { PostbackAuthCredential, PostbackAuthentication, RequestHeaders } from './authentication';
import { credentialProblem, isAuthorized } from './authentication';
import { isFirstSighting } from './duplicates';
import { isKnownStatus, parsePostback, POSTBACK_STATUSES, postbackItem } from './postback';

const POSTBACK_CREDENTIAL = 'engagementPlatformPostbackAuthApi';

/** The largest postback accepted; a status postback is a few hundred bytes. */
const MAX_BODY_BYTES = 1024 * 1024;

/** What the trigger reads of n8n's request object (express's, with n8n's raw body). */
interface PostbackRequest {
	headers: RequestHeaders;
	rawBody?: Buffer;
}

/** What the trigger uses of n8n's response object: the plain Node.js ServerResponse methods. */
interface PostbackResponse {
	writeHead(status: number, headers: Record<string, string>): unknown;
	end(body: string): unknown;
}

/** Answers the request itself and tells n8n not to answer again (and, returned as is, not to start an execution). */
function reply(
	response: PostbackResponse,
	status: number,
	message: string,
	headers: Record<string, string> = {},
): IWebhookResponseData {
	response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
	response.end(JSON.stringify({ message }));
	return { noWebhookResponse: true };
}

/** `application/json; charset=utf-8` → `application/json` */
function mediaTypeOf(headers: RequestHeaders): string | undefined {
	const header = headers['content-type'];
	if (typeof header !== 'string') return undefined;
	const type = header.split(';')[0].trim().toLowerCase();
	return type === '' ? undefined : type;
}

const isJsonMediaType = (type: string | undefined): boolean =>
	type === 'application/json' || (type !== undefined && /^application\/[a-z0-9.+-]+\+json$/.test(type));

function isTooLarge(request: PostbackRequest): boolean {
	const declared = Number(request.headers['content-length']);
	if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return true;
	return (request.rawBody?.length ?? 0) > MAX_BODY_BYTES;
}

/**
 * The body as JSON. n8n parses `application/json` itself; other JSON media types
 * (`application/…+json`) arrive as the raw body only.
 */
function readJsonBody(
	context: IWebhookFunctions,
	request: PostbackRequest,
	mediaType: string,
): { ok: true; body: unknown } | { ok: false } {
	if (mediaType === 'application/json') return { ok: true, body: context.getBodyData() };
	try {
		return { ok: true, body: JSON.parse(request.rawBody?.toString('utf8') ?? '') as unknown };
	} catch {
		return { ok: false };
	}
}

/**
 * One transactional email status postback: authenticated, checked, filtered and de-duplicated,
 * it becomes one item. Every refusal answers the platform directly and starts no execution.
 * Secrets are never logged nor answered back.
 */
export async function receivePostback(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = context.getRequestObject() as unknown as PostbackRequest;
	const response = context.getResponseObject() as unknown as PostbackResponse;
	const headers = context.getHeaderData() as RequestHeaders;
	const log = (level: 'debug' | 'warn', message: string) =>
		context.logger[level](`Engagement Platform Trigger "${context.getNode().name}": ${message}`);

	const authentication = context.getNodeParameter('authentication', 'none') as PostbackAuthentication;
	if (authentication !== 'none') {
		let credential: PostbackAuthCredential | undefined;
		try {
			credential = await context.getCredentials<PostbackAuthCredential>(POSTBACK_CREDENTIAL);
		} catch (error) {
			log('warn', `cannot read its Engagement Platform Postback Auth API credential (${(error as Error).message})`);
		}
		const problem = credential
			? credentialProblem(authentication, credential)
			: 'no Engagement Platform Postback Auth API credential is selected';
		if (problem !== undefined) {
			// Fail closed, as n8n's Webhook node does; the details go to the log, not to the caller.
			log('warn', `refused a postback because its authentication is not set up: ${problem}`);
			return reply(response, 500, "The trigger's authentication is not set up. Check the trigger's credential in n8n.");
		}
		if (!isAuthorized(authentication, credential as PostbackAuthCredential, headers)) {
			log('debug', 'refused a postback without the right credentials (401)');
			const challenge: Record<string, string> =
				authentication === 'basicAuth' ? { 'WWW-Authenticate': 'Basic realm="Engagement Platform postback"' } : {};
			return reply(response, 401, 'Authorization is missing or wrong', challenge);
		}
	}

	const mediaType = mediaTypeOf(headers);
	if (!isJsonMediaType(mediaType)) {
		log('debug', `refused a postback sent as ${mediaType ?? 'no content type'} (415)`);
		return reply(response, 415, `Send the postback as application/json, not ${mediaType ?? 'without a content type'}`);
	}
	if (isTooLarge(request)) {
		log('debug', 'refused a postback larger than 1 MB (413)');
		return reply(response, 413, 'The postback is larger than 1 MB');
	}

	const body = readJsonBody(context, request, mediaType as string);
	const parsed = body.ok ? parsePostback(body.body) : { ok: false as const, problem: 'The body is not valid JSON' };
	if (!parsed.ok) {
		log('debug', `refused a malformed postback (400): ${parsed.problem}`);
		return reply(response, 400, `Not a transactional email status postback: ${parsed.problem}`);
	}
	const { postback } = parsed;

	const statuses = context.getNodeParameter('statuses', []) as string[];
	// With every status chosen, one the trigger does not know passes through as it came.
	const everyStatus = POSTBACK_STATUSES.every((status) => statuses.includes(status));
	const starts = isKnownStatus(postback.status) ? statuses.includes(postback.status) : everyStatus;
	if (!starts) {
		log('debug', `ignored a "${postback.status}" postback: that status is not selected`);
		return reply(response, 200, `Received; the trigger does not start on "${postback.status}"`);
	}

	if (context.getNodeParameter('dropDuplicates', true) as boolean) {
		const windowMinutes = context.getNodeParameter('windowMinutes', 60) as number;
		const staticData = context.getWorkflowStaticData('node') as IDataObject;
		if (!isFirstSighting(staticData, postback.dispatch_id, postback.status, windowMinutes, Date.now())) {
			log('debug', `dropped a duplicate "${postback.status}" postback of dispatch ${postback.dispatch_id}`);
			return reply(response, 200, `Received; already received within the last ${windowMinutes} minutes`);
		}
	}

	// Answered here, not by n8n (responseMode onReceived): n8n 2.x would answer only after starting the
	// run, and starting it re-creates the workflow over the same static data object, which clears n8n's
	// "changed" flag before n8n checks it, so the postback just recorded would never be saved. Answering
	// first makes n8n save the static data before the run starts.
	reply(response, 200, 'Workflow was started');
	return { noWebhookResponse: true, workflowData: [context.helpers.returnJsonArray([postbackItem(postback)])] };
}
