import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A loopback stand-in of OpenAI's chat-completions API, enough for n8n's OpenAI Chat Model sub-node
 * (LangChain's ChatOpenAI with the Responses API turned off): `POST /v1/chat/completions`, answered
 * as JSON or, when the client asks for `stream: true`, as server-sent events; and `GET /v1/models`
 * (the model list of the editor and of the credential test).
 *
 * It is scripted, not clever: the n-th chat request is answered by the n-th step of the script. A
 * step sees the request body (so it can read the `tools` n8n offers and choose one by name) and
 * returns either tool calls or a final assistant message. Every request is recorded.
 */

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
	content: string | null | Array<{ type: string; text?: string }>;
	tool_calls?: ToolCall[];
	tool_call_id?: string;
	name?: string;
}

interface ToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

/** A function tool as n8n sends it: its name, description and the JSON schema of its arguments. */
export interface OfferedTool {
	type: 'function';
	function: {
		name: string;
		description?: string;
		parameters?: {
			type?: string;
			properties?: Record<string, { type?: string; description?: string }>;
			required?: string[];
		};
	};
}

export interface ChatRequestBody {
	model: string;
	messages: ChatMessage[];
	tools?: OfferedTool[];
	stream?: boolean;
	[key: string]: unknown;
}

interface RecordedChatRequest {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	body: ChatRequestBody | undefined;
}

/** What one step of the script answers: tool calls (the model wants tools run) or the final text. */
type ScriptedReply = { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> } | { content: string };

/** One step: the request body in, the reply out. Throwing answers 400 with the message (a broken script shows). */
export type ScriptStep = (body: ChatRequestBody) => ScriptedReply;

export interface ChatCompletionsStandIn {
	/** The base URL to put in the OpenAI credential (`…/v1`). */
	url: string;
	/** Every request that reached it, in order (chat completions and others). */
	requests: RecordedChatRequest[];
	/** The chat-completions request bodies only. */
	chatRequests(): ChatRequestBody[];
	/** The tool calls it answered with, as sent (ids and JSON argument strings). */
	toolCallsSent: ToolCall[];
	/** Replaces the script and clears the recorded requests, for a new scripted run. */
	script(steps: ScriptStep[]): void;
	close(): Promise<void>;
}

const STAND_IN_MODEL = 'stand-in-model';

/**
 * The tool of a request whose name matches `pattern` (n8n names a tool after its node, e.g. the node
 * "Track Event" is the tool `Track_Event`); fails naming the tools offered when none or several match.
 */
export function offeredTool(body: ChatRequestBody, pattern: RegExp): OfferedTool {
	const tools = body.tools ?? [];
	const matching = tools.filter((tool) => pattern.test(tool.function.name));
	if (matching.length !== 1) {
		throw new Error(
			`expected one tool matching ${String(pattern)}, n8n offered: ${tools.map((tool) => tool.function.name).join(', ') || 'none'}`,
		);
	}
	return matching[0];
}

/**
 * The arguments for `tool`: for every argument its schema declares, the value of the first entry of
 * `values` whose pattern matches the argument's name; fails when an argument has no value, so a
 * renamed `$fromAI` key shows instead of being sent empty.
 */
export function argumentsFor(tool: OfferedTool, values: Array<[RegExp, unknown]>): Record<string, unknown> {
	const properties = tool.function.parameters?.properties ?? {};
	const args: Record<string, unknown> = {};
	for (const name of Object.keys(properties)) {
		const entry = values.find(([pattern]) => pattern.test(name));
		if (!entry) throw new Error(`no scripted value for the argument "${name}" of ${tool.function.name}`);
		args[name] = entry[1];
	}
	return args;
}

export async function startChatCompletionsStandIn(steps: ScriptStep[] = []): Promise<ChatCompletionsStandIn> {
	let script = steps;
	let chatCount = 0;
	const requests: RecordedChatRequest[] = [];
	const toolCallsSent: ToolCall[] = [];

	const server: Server = createServer((request, response) => {
		void handle(request, response).catch((error: Error) =>
			send(response, 500, { error: { message: error.message, type: 'server_error' } }),
		);
	});

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const text = await readBody(request);
		const path = (request.url ?? '/').split('?')[0];
		let body: ChatRequestBody | undefined;
		try {
			body = text === '' ? undefined : (JSON.parse(text) as ChatRequestBody);
		} catch {
			send(response, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
			return;
		}
		requests.push({ method: request.method ?? '', path, headers: request.headers, body });

		if (request.method === 'GET' && /\/models$/.test(path)) {
			send(response, 200, {
				object: 'list',
				data: [{ id: STAND_IN_MODEL, object: 'model', created: 0, owned_by: 'stand-in' }],
			});
			return;
		}
		if (request.method !== 'POST' || !/\/chat\/completions$/.test(path) || !body) {
			send(response, 404, {
				error: { message: `the stand-in does not serve ${request.method} ${path}`, type: 'invalid_request_error' },
			});
			return;
		}

		const index = chatCount++;
		const step = script[index];
		if (!step) {
			send(response, 400, {
				error: {
					message: `the script has no step ${index + 1} (it has ${script.length})`,
					type: 'invalid_request_error',
				},
			});
			return;
		}
		let reply: ScriptedReply;
		try {
			reply = step(body);
		} catch (error) {
			send(response, 400, {
				error: { message: `script step ${index + 1}: ${(error as Error).message}`, type: 'invalid_request_error' },
			});
			return;
		}
		const message: ChatMessage =
			'toolCalls' in reply
				? {
						role: 'assistant',
						content: null,
						tool_calls: reply.toolCalls.map((call, callIndex) => ({
							id: `call_standin_${index + 1}_${callIndex + 1}`,
							type: 'function',
							function: { name: call.name, arguments: JSON.stringify(call.arguments) },
						})),
					}
				: { role: 'assistant', content: reply.content };
		if (message.tool_calls) toolCallsSent.push(...message.tool_calls);
		const finishReason = message.tool_calls ? 'tool_calls' : 'stop';
		const id = `chatcmpl-standin-${index + 1}`;
		const created = Math.floor(Date.now() / 1000);
		const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

		if (body.stream) {
			response.writeHead(200, {
				'Content-Type': 'text/event-stream',
				'Cache-Control': 'no-cache',
				Connection: 'close',
			});
			const chunk = (delta: object, finish: string | null, extra: object = {}) =>
				`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
			const delta = message.tool_calls
				? {
						role: 'assistant',
						content: null,
						tool_calls: message.tool_calls.map((call, callIndex) => ({ index: callIndex, ...call })),
					}
				: { role: 'assistant', content: message.content };
			response.write(chunk(delta, null));
			response.write(chunk({}, finishReason, { usage }));
			response.end('data: [DONE]\n\n');
			return;
		}
		send(response, 200, {
			id,
			object: 'chat.completion',
			created,
			model: body.model,
			choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
			usage,
		});
	}

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as { port: number };

	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		toolCallsSent,
		chatRequests: () =>
			requests
				.filter((request) => /\/chat\/completions$/.test(request.path) && request.body)
				.map((request) => request.body as ChatRequestBody),
		script(steps: ScriptStep[]) {
			script = steps;
			chatCount = 0;
			requests.length = 0;
			toolCallsSent.length = 0;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
	response.end(text);
}
