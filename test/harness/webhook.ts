/**
 * Webhook triggers run the way n8n runs them, in-process: a real HTTP server on 127.0.0.1 receives
 * real requests, and each one goes through what n8n's webhook server does with it (packages/cli:
 * live-webhooks.ts, webhook-helpers.ts `executeWebhook`, webhook-request-handler.ts):
 *
 *   1. find the webhook by method and path (`/webhook/<webhookId>/<path>`, as
 *      NodeHelpers.getNodeWebhookPath builds it); none → 404;
 *   2. read the raw body (`rawBodyReader`: @n8n/backend-network's parseIncomingMessage sets
 *      `contentType` and `encoding`; the body is limited to N8N_PAYLOAD_SIZE_MAX, @n8n/config's
 *      default 16 MB → 413) and parse it (`parseBody`: JSON with n8n-workflow's jsonParse → 422 when
 *      it fails, form-urlencoded, text/plain; XML and multipart are not parsed here, which no node of
 *      this package accepts);
 *   3. hand Node's req/res, with the few express members n8n and nodes use, to n8n-core's
 *      WebhookContext as `additionalData.httpRequest` / `httpResponse`, and call the node's
 *      `webhook` method with it (n8n-core's getBodyData, getHeaderData, getRequestObject,
 *      getResponseObject, getCredentials, getWorkflowStaticData: all n8n-core's own code);
 *   4. answer as n8n does: nothing more when the node answered (`noWebhookResponse`; items it returned
 *      with it still run), its
 *      `webhookResponse` or `{"message":"Webhook call received"}` when it started nothing, and for
 *      `responseMode: 'onReceived'`, when it returned items, the description's `responseData`
 *      (n8n 2.x: default 'firstEntryJson', answered literally; 'noData': no body), else the node's
 *      `webhookResponse` or `{"message":"Workflow was started"}`;
 *      a webhook method that throws → 500 "Workflow Webhook Error: Workflow could not be started!";
 *   5. run the execution with those items in n8n-core's WorkflowExecute (mode 'webhook', the
 *      trigger on the execution stack with its items, as n8n's prepareExecutionData does);
 *   6. keep the workflow's static data between requests the way n8n saves it to the database:
 *      as JSON, when n8n's ObservableObject says it changed.
 *
 * On start the trigger's `webhookMethods` run as on activation (checkExists, then create when it says
 * the webhook does not exist), and `delete` on close, in n8n-core's HookContext.
 *
 * Only `responseMode: 'onReceived'` is supported (what this package's trigger uses).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';

import { parseIncomingMessage } from '@n8n/backend-network';
import { GlobalConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import { HookContext, WebhookContext } from 'n8n-core';
import type {
	CloseFunction,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeType,
	IVersionedNodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowSettings,
} from 'n8n-workflow';
import { NodeHelpers, Workflow, createRunExecutionData, isNodeClassInstance, jsonParse } from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials-helper';
import type { LogEntry } from './runtime';
import { ensureRuntime, withLogCapture } from './runtime';
import type { HarnessNode, RunResult } from './workflow';
import {
	HarnessCredentialTypes,
	HarnessNodeTypes,
	createAdditionalData,
	executeToEnd,
	toWorkflowNode,
	workflowBase,
} from './workflow';

export interface WebhookServerOptions {
	/** the trigger; `name` defaults to its type's default name, `webhookId` to a random UUID (as the editor gives one) */
	trigger: Omit<HarnessNode, 'name'> & { name?: string };
	/** nodes after the trigger, and the connections (which may name the trigger) */
	nodes?: HarnessNode[];
	connections?: IConnections;
	/** decrypted data per credential type name */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	nodeTypes?: Record<string, INodeType | IVersionedNodeType>;
	credentialTypes?: Record<string, ICredentialType>;
	/** the workflow's static data when it is activated (as stored by n8n) */
	staticData?: IDataObject;
	settings?: IWorkflowSettings;
}

export interface WebhookRequest {
	/** default POST */
	method?: string;
	/** default the trigger's production path, `/webhook/<webhookId>/<path>`; may carry a query string */
	path?: string;
	headers?: Record<string, string>;
	/** a string or Buffer is sent as is; anything else as JSON (with `Content-Type: application/json` unless `headers` has one) */
	body?: unknown;
	/** send the body in pieces with chunked transfer encoding, without a Content-Length */
	chunked?: boolean;
}

export interface WebhookCall {
	/** what the HTTP client received */
	status: number;
	headers: http.IncomingHttpHeaders;
	body: string;
	json<T = unknown>(): T;
	/** what the node's webhook method returned (undefined when it was not reached or threw) */
	webhookResult?: IWebhookResponseData;
	/** what the node's webhook method threw */
	webhookError?: Error;
	/** the execution n8n started with the trigger's items, run to its end (undefined when none started) */
	execution?: RunResult;
	/** everything logged through n8n's logger while the request was handled and the execution ran */
	logs: LogEntry[];
}

/** What the server side knows of one request; the client side adds what it received. */
type ServerRecord = Omit<WebhookCall, 'status' | 'headers' | 'body' | 'json'>;

export interface WebhookServer {
	/** the trigger's production URL, as n8n shows it (on this server) */
	readonly url: string;
	/** `http://127.0.0.1:<port>` */
	readonly baseUrl: string;
	readonly trigger: INode;
	/** webhookMethods called, in order, with their results: e.g. ['checkExists → true'] */
	readonly lifecycle: string[];
	/** every request handled, in order of arrival */
	readonly calls: ServerRecord[];
	/** the workflow's static data as n8n would have saved it */
	staticData(): IDataObject;
	/** resolves once every request received so far has been handled (and its execution has finished), e.g. those another sender made */
	settled(): Promise<ServerRecord[]>;
	/** sends one real HTTP request and resolves once n8n's handling of it (and any execution) has finished */
	send(request?: WebhookRequest): Promise<WebhookCall>;
	/** deactivates (webhookMethods.delete) and stops listening */
	close(): Promise<void>;
}

const TRIGGER_NAME_FALLBACK = 'Trigger';

interface ExpressLikeRequest extends http.IncomingMessage {
	body?: unknown;
	query: Record<string, unknown>;
	params: Record<string, string>;
	path: string;
	originalUrl: string;
	ip?: string;
	ips: string[];
	get(name: string): string | string[] | undefined;
	header(name: string): string | string[] | undefined;
}

interface ExpressLikeResponse extends http.ServerResponse {
	status(code: number): ExpressLikeResponse;
	json(body: unknown): ExpressLikeResponse;
	send(body: unknown): ExpressLikeResponse;
	header(name: string, value: string | string[]): ExpressLikeResponse;
	set(name: string, value: string | string[]): ExpressLikeResponse;
}

/** The express members n8n's webhook code and nodes use, on Node's own objects. */
function expressLike(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
	const request = req as ExpressLikeRequest;
	request.query = parseQueryString(url.search.replace(/^\?/, '')) as Record<string, unknown>;
	request.params = {};
	request.path = url.pathname;
	request.originalUrl = req.url ?? url.pathname;
	request.ip = req.socket.remoteAddress;
	request.ips = [];
	request.get = request.header = (name: string) => req.headers[name.toLowerCase()];

	const response = res as ExpressLikeResponse;
	response.status = (code: number) => {
		res.statusCode = code;
		return response;
	};
	response.header = response.set = (name: string, value: string | string[]) => {
		res.setHeader(name, value);
		return response;
	};
	response.json = (body: unknown) => {
		if (!res.hasHeader('content-type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
		res.end(JSON.stringify(body));
		return response;
	};
	response.send = (body: unknown) => {
		if (typeof body === 'string') {
			if (!res.hasHeader('content-type')) res.setHeader('Content-Type', 'text/html; charset=utf-8');
			res.end(body);
		} else if (Buffer.isBuffer(body)) {
			if (!res.hasHeader('content-type')) res.setHeader('Content-Type', 'application/octet-stream');
			res.end(body);
		} else {
			response.json(body);
		}
		return response;
	};
	return { request, response };
}

class HttpError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

/** n8n's rawBodyReader: the whole body into `req.rawBody`, within N8N_PAYLOAD_SIZE_MAX. */
async function readRawBody(req: http.IncomingMessage): Promise<void> {
	parseIncomingMessage(req);
	const limit = Container.get(GlobalConfig).endpoints.payloadSizeMax * 1024 * 1024;
	const declared = Number(req.headers['content-length']);
	if (Number.isFinite(declared) && declared > limit) throw new HttpError(413, 'request entity too large');
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > limit) throw new HttpError(413, 'request entity too large');
		chunks.push(chunk as Buffer);
	}
	req.rawBody = Buffer.concat(chunks);
	req._body = true;
}

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

const isParsableContentType = (contentType: string | undefined) =>
	contentType !== undefined &&
	(contentType.startsWith('application/json') ||
		contentType.startsWith('text/plain') ||
		contentType.startsWith('application/x-www-form-urlencoded') ||
		contentType.endsWith('/xml') ||
		contentType.endsWith('+xml'));

/** n8n's parseRequestBody + parseBody (middlewares/body-parser.ts), for the types a postback can come as. */
function parseBody(req: ExpressLikeRequest, node: INode): void {
	const { contentType, rawBody, encoding } = req;
	if (contentType?.startsWith('multipart/')) throw new Error('test harness: multipart bodies are not supported');
	// Nodes of version 1 get every body parsed; later versions only the parsable types (webhook-helpers.ts).
	if (node.typeVersion > 1 && !isParsableContentType(contentType)) return;
	if (!rawBody?.length) return;
	try {
		if (contentType === 'application/json') {
			req.body = jsonParse(stripBom(rawBody.toString(encoding)));
		} else if (contentType === 'application/x-www-form-urlencoded') {
			req.body = parseQueryString(stripBom(rawBody.toString(encoding)), undefined, undefined, { maxKeys: 1000 });
		} else if (contentType === 'text/plain') {
			req.body = rawBody.toString(encoding);
		}
	} catch {
		throw new HttpError(422, 'Failed to parse request body');
	}
}

/** n8n's default answer when the webhook does not answer itself (webhook-request-handler.ts, legacy response). */
function sendJson(res: ExpressLikeResponse, status: number, body: unknown): void {
	if (res.headersSent) return;
	res.status(status).json(body);
}

export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
	ensureRuntime();
	const nodeTypes = new HarnessNodeTypes(options.nodeTypes ?? {});
	const credentialTypes = new HarnessCredentialTypes(options.credentialTypes ?? {});
	const credentialsData: Record<string, ICredentialDataDecryptedObject> = {};
	for (const [type, data] of Object.entries(options.credentials ?? {})) credentialsData[type] = { ...data };
	const credentialsHelper = new HarnessCredentialsHelper(credentialsData, credentialTypes);

	const triggerType = nodeTypes.getByNameAndVersion(options.trigger.type, options.trigger.typeVersion);
	const trigger = toWorkflowNode(
		{
			...options.trigger,
			name: options.trigger.name ?? triggerType.description.defaults.name ?? TRIGGER_NAME_FALLBACK,
			webhookId: options.trigger.webhookId ?? randomUUID(),
			position: options.trigger.position ?? [0, 0],
		},
		0,
		nodeTypes,
		options.credentials,
	);
	const nodes: INode[] = [
		trigger,
		...(options.nodes ?? []).map((node, index) => toWorkflowNode(node, index, nodeTypes, options.credentials)),
	];
	const connections = options.connections ?? {};
	const settings: IWorkflowSettings = options.settings ?? { executionOrder: 'v1' };
	const workflowId = `harness-webhook-workflow-${randomUUID().slice(0, 8)}`;
	const workflowName = 'Test harness webhook workflow';
	let savedStaticData: string = JSON.stringify(options.staticData ?? {});

	/** A Workflow as n8n builds one per request, from what is stored (static data included). */
	const loadWorkflow = () =>
		new Workflow({
			id: workflowId,
			name: workflowName,
			nodes: structuredClone(nodes),
			connections,
			nodeTypes,
			settings,
			active: true,
			staticData: JSON.parse(savedStaticData) as IDataObject,
		});
	/** WorkflowStaticDataService.saveStaticData: only when n8n's ObservableObject says it changed. */
	const saveStaticData = (workflow: Workflow) => {
		if (workflow.staticData.__dataChanged === true) {
			savedStaticData = JSON.stringify(workflow.staticData);
			workflow.staticData.__dataChanged = false;
		}
	};

	const descriptions: IWebhookDescription[] = triggerType.description.webhooks ?? [];
	if (descriptions.length === 0) throw new Error(`test harness: ${trigger.type} declares no webhooks`);

	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	const additionalDataFor = () => createAdditionalData({ credentialsHelper, workflowId, settings, baseUrl });

	const webhookDataFor = (workflow: Workflow, additionalData: ReturnType<typeof additionalDataFor>): IWebhookData[] =>
		descriptions.map((description) => {
			const path = String(workflow.expression.getSimpleParameterValue(trigger, description.path, 'internal', {}));
			const isFullPath = description.isFullPath === true;
			return {
				httpMethod: String(description.httpMethod) as IWebhookData['httpMethod'],
				node: trigger.name,
				path: NodeHelpers.getNodeWebhookPath(workflowId, trigger, path.replace(/^\/+|\/+$/g, ''), isFullPath),
				webhookDescription: description,
				workflowId,
				workflowExecuteAdditionalData: additionalData,
				webhookId: trigger.webhookId,
			};
		});

	// Activation: n8n's WebhookService.createWebhookIfNotExists.
	const lifecycle: string[] = [];
	const runLifecycle = async (method: 'checkExists' | 'create' | 'delete', activation: 'activate' | 'update') => {
		const workflow = loadWorkflow();
		const additionalData = additionalDataFor();
		for (const webhookData of webhookDataFor(workflow, additionalData)) {
			const fn = triggerType.webhookMethods?.[webhookData.webhookDescription.name]?.[method];
			if (fn === undefined) continue;
			const node = workflow.getNode(trigger.name) as INode;
			const context = new HookContext(workflow, node, additionalData, 'webhook', activation, webhookData);
			const result = await fn.call(context);
			lifecycle.push(`${method} → ${String(result)}`);
			if (method === 'checkExists' && result !== true) await runLifecycle('create', activation);
		}
		saveStaticData(workflow);
	};
	await runLifecycle('checkExists', 'activate');

	const calls: ServerRecord[] = [];
	const inFlight = new Set<Promise<ServerRecord>>();
	/** The handling of the latest request per client port: `send` uses a fresh connection per request and finds its own by its port. */
	const latestByPort = new Map<number, Promise<ServerRecord>>();

	const handle = async (req: http.IncomingMessage, res: http.ServerResponse, record: ServerRecord) => {
		const url = new URL(req.url ?? '/', baseUrl);
		const { request, response } = expressLike(req, res, url);
		const workflow = loadWorkflow();
		const additionalData = additionalDataFor();
		const prefix = '/webhook/';
		const path = url.pathname.startsWith(prefix) ? decodeURI(url.pathname.slice(prefix.length)) : undefined;
		const webhookData = webhookDataFor(workflow, additionalData).find(
			(candidate) => candidate.path === path && candidate.httpMethod === req.method,
		);
		if (!webhookData) {
			req.resume();
			sendJson(response, 404, {
				code: 404,
				message: `The requested webhook "${req.method} ${path ?? url.pathname}" is not registered.`,
			});
			return;
		}

		try {
			await readRawBody(request);
			parseBody(request, trigger);
		} catch (error) {
			if (!(error instanceof HttpError)) throw error;
			sendJson(response, error.status, { code: error.status, message: error.message });
			return;
		}

		additionalData.httpRequest = request as unknown as typeof additionalData.httpRequest;
		additionalData.httpResponse = response as unknown as typeof additionalData.httpResponse;
		const closeFunctions: CloseFunction[] = [];
		// The workflow's own node: n8n's Workflow has filled in the parameters' defaults.
		const startNode = workflow.getNode(webhookData.node) as INode;
		const context = new WebhookContext(
			workflow,
			startNode,
			additionalData,
			'webhook',
			webhookData,
			closeFunctions,
			null,
		);
		try {
			record.webhookResult = isNodeClassInstance(triggerType)
				? await (triggerType.webhook as unknown as (ctx: WebhookContext) => Promise<IWebhookResponseData>)(context)
				: await triggerType.webhook!.call(context);
		} catch (error) {
			record.webhookError = error as Error;
		} finally {
			await Promise.allSettled(closeFunctions.map(async (fn) => await fn()));
		}
		saveStaticData(workflow);

		const result = record.webhookResult;
		if (!result) {
			sendJson(response, 500, { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
			return;
		}
		// The node answered itself: n8n closes a response left open, answers nothing more, and still runs
		// the items the node returned.
		const nodeAnswered = result.noWebhookResponse === true;
		if (nodeAnswered && !res.writableEnded) res.end();
		const responseCode = Number(webhookData.webhookDescription.responseCode ?? 200);
		if (result.workflowData === undefined) {
			if (!nodeAnswered)
				sendJson(response, responseCode, result.webhookResponse ?? { message: 'Webhook call received' });
			return;
		}
		const responseMode = webhookData.webhookDescription.responseMode ?? 'onReceived';
		if (responseMode !== 'onReceived') {
			throw new Error(`test harness: responseMode "${String(responseMode)}" is not supported (only onReceived)`);
		}

		// prepareExecutionData: the trigger on the stack with its items; then n8n answers and runs it,
		// with extractWebhookOnReceivedResponse's body: the description's responseData (default
		// 'firstEntryJson', answered literally), nothing for 'noData', else the node's webhookResponse.
		const responseData = workflow.expression.getComplexParameterValue(
			startNode,
			webhookData.webhookDescription.responseData,
			'webhook',
			{},
			undefined,
			'firstEntryJson',
		);
		if (!nodeAnswered) {
			if (responseData === 'noData') response.status(responseCode).end();
			else if (responseData) response.status(responseCode).send(responseData);
			else sendJson(response, responseCode, result.webhookResponse ?? { message: 'Workflow was started' });
		}
		const executionWorkflow = loadWorkflow();
		const executionTrigger = executionWorkflow.getNode(trigger.name) as INode;
		record.execution = await executeToEnd({
			workflow: executionWorkflow,
			workflowData: workflowBase({ id: workflowId, name: workflowName, nodes, connections, settings, active: true }),
			runExecutionData: createRunExecutionData({
				executionData: {
					nodeExecutionStack: [{ node: executionTrigger, data: { main: result.workflowData }, source: null }],
				},
			}),
			credentialsHelper,
			executionId: `harness-webhook-${calls.length}`,
			mode: 'webhook',
			settings,
			logs: record.logs,
		});
		saveStaticData(executionWorkflow);
	};

	server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
		const record: ServerRecord = { logs: [] };
		calls.push(record);
		const handling: Promise<ServerRecord> = withLogCapture(record.logs, async () => await handle(req, res, record))
			.catch((error: Error) => {
				record.webhookError ??= error;
				sendJson(res as ExpressLikeResponse, 500, { code: 500, message: error.message });
			})
			.then(() => record)
			.finally(() => inFlight.delete(handling));
		inFlight.add(handling);
		latestByPort.set(req.socket.remotePort ?? -1, handling);
	});

	const path = webhookDataFor(loadWorkflow(), additionalDataFor())[0].path;
	const url = `${baseUrl}/webhook/${path}`;

	const send = async (request: WebhookRequest = {}): Promise<WebhookCall> => {
		const headers: Record<string, string> = { ...(request.headers ?? {}) };
		const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
		let body: Buffer | undefined;
		if (typeof request.body === 'string') body = Buffer.from(request.body);
		else if (Buffer.isBuffer(request.body)) body = request.body;
		else if (request.body !== undefined) {
			body = Buffer.from(JSON.stringify(request.body));
			if (!hasContentType) headers['Content-Type'] = 'application/json';
		}
		if (body && !request.chunked) headers['Content-Length'] = String(body.length);

		const target = new URL(request.path ?? url, baseUrl);
		let localPort = -1;
		const received = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
			(resolve, reject) => {
				const outgoing = http.request(
					target,
					{ method: request.method ?? 'POST', headers, agent: false },
					(incoming) => {
						const chunks: Buffer[] = [];
						incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
						incoming.on('end', () =>
							resolve({
								status: incoming.statusCode ?? 0,
								headers: incoming.headers,
								body: Buffer.concat(chunks).toString('utf8'),
							}),
						);
						incoming.on('error', reject);
					},
				);
				outgoing.on('socket', (socket) => socket.once('connect', () => (localPort = socket.localPort ?? -1)));
				outgoing.on('error', reject);
				if (body && request.chunked) {
					for (let offset = 0; offset < body.length; offset += 64 * 1024)
						outgoing.write(body.subarray(offset, offset + 64 * 1024));
				} else if (body) {
					outgoing.write(body);
				}
				outgoing.end();
			},
		);
		const handling = latestByPort.get(localPort);
		latestByPort.delete(localPort);
		if (!handling) throw new Error(`test harness: no request from port ${localPort} reached the webhook server`);
		const record = await handling;
		return {
			...record,
			...received,
			json<T = unknown>(): T {
				return JSON.parse(received.body) as T;
			},
		};
	};

	return {
		url,
		baseUrl,
		trigger,
		lifecycle,
		calls,
		staticData: () => JSON.parse(savedStaticData) as IDataObject,
		async settled() {
			while (inFlight.size > 0) await Promise.all([...inFlight]);
			return calls;
		},
		send,
		async close() {
			await runLifecycle('delete', 'update');
			await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
		},
	};
}

/** One request to a trigger, start to end: activates it, sends `request`, deactivates it. */
export async function runWebhook(
	options: WebhookServerOptions & { request?: WebhookRequest },
): Promise<WebhookCall & { server: WebhookServer }> {
	const server = await startWebhookServer(options);
	try {
		const call = await server.send(options.request);
		return { ...call, server };
	} finally {
		await server.close();
	}
}
