import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { DEMO_SUBSCRIPTION_GROUPS, SandboxClient, startSandbox } from '../../sandbox';
import { OUTPUT_FIELD } from '../support/nodeWords';
import { sandboxCredentials } from '../support/sandboxCredentials';
import type {
	ChatCompletionsStandIn,
	ChatMessage,
	ChatRequestBody,
	ScriptStep,
} from './support/chatCompletionsStandIn';
import { argumentsFor, offeredTool, startChatCompletionsStandIn } from './support/chatCompletionsStandIn';
import { ensureN8nApp, N8N_APP_1X, N8N_APPS, PROJECT_ROOT, pinnedN8nVersion } from './support/n8nApp';
import type { ExecutedRun } from './support/n8nInstance';
import { N8nInstance } from './support/n8nInstance';

/** The example's group: the sandbox's demo newsletter, as the example runs against it when imported. */
const NEWSLETTER = DEMO_SUBSCRIPTION_GROUPS.weeklyNewsletter;

/**
 * An AI Agent calls our nodes as tools in the real n8n application: the example workflow
 * examples/ai-agent/track-event-agent.json (AI Agent + OpenAI Chat Model + our User and Subscription
 * nodes as tools, their fields `$fromAI(…)`), with the OpenAI credential's base URL at a scripted
 * loopback stand-in of the chat-completions API and the Engagement Platform credential at the sandbox.
 *
 * The stand-in answers the first chat request with a tool call built from the tools n8n offers
 * (chosen by name, arguments by the names in the tool's schema) and the second with a final answer;
 * the tests check that the model's arguments land in the platform as they are, that our node's
 * answer comes back to the model as the tool's result, and that the agent outputs the final answer.
 */
interface WorkflowNode {
	name: string;
	type: string;
	parameters: IDataObject;
}
interface WorkflowFile {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	[key: string]: unknown;
}

const example = JSON.parse(
	readFileSync(path.join(PROJECT_ROOT, 'examples/ai-agent/track-event-agent.json'), 'utf8'),
) as WorkflowFile;
const OPENAI_CREDENTIAL = { id: 'epOpenAiStandInCredential', name: 'OpenAI (stand-in for tests)' };
const TRACK_TOOL = 'Track Event';
const SUBSCRIPTION_TOOL = 'Set Newsletter State';
const AGENT = 'AI Agent';

/** The example with another id and another customer request. */
function variant(id: string, prompt: string): WorkflowFile {
	const copy = structuredClone(example);
	copy.id = id;
	copy.name = `${example.name} (${id})`;
	const request = copy.nodes.find((node) => node.name === 'Customer Request');
	if (!request) throw new Error('the example has no "Customer Request" node');
	request.parameters.jsonOutput = JSON.stringify({ prompt }, null, 2);
	return copy;
}

const subscribeWorkflow = variant(
	'epAiAgentSubscribeE2e',
	'Customer cust-ai-7002 asked to get our newsletter. Subscribe them.',
);
const twoCallsWorkflow = variant(
	'epAiAgentTwoCallsE2e',
	'Customers cust-ai-7003 and cust-ai-7004 both left a review today. Record a review_left event for each.',
);

/** The example with its Track Event tool set to Preview (Send Nothing): an agent that shows what it would record. */
const previewWorkflow = (() => {
	const copy = variant(
		'epAiAgentPreviewE2e',
		'Customer cust-ai-7005 upgraded to the gold plan from the pricing page. Show what would be recorded.',
	);
	const track = copy.nodes.find((node) => node.name === TRACK_TOOL);
	if (!track) throw new Error(`the example has no "${TRACK_TOOL}" node`);
	track.parameters.options = { ...(track.parameters.options as IDataObject), preview: true };
	return copy;
})();

/** n8n 1.x has the AI Agent up to version 3 (2.x: 3.1); the rest of the example is the same. */
function forLine(appFolder: string, workflow: WorkflowFile): WorkflowFile {
	if (appFolder !== N8N_APP_1X) return workflow;
	const copy = structuredClone(workflow);
	for (const node of copy.nodes as Array<WorkflowNode & { typeVersion?: number }>) {
		if (node.type === '@n8n/n8n-nodes-langchain.agent') node.typeVersion = 3;
	}
	return copy;
}

let sandbox: Sandbox;
let client: SandboxClient;
let standIn: ChatCompletionsStandIn;
let n8n: N8nInstance;

beforeAll(async () => {
	sandbox = await startSandbox();
	client = new SandboxClient(sandbox.url);
	standIn = await startChatCompletionsStandIn();
});

afterAll(async () => {
	await standIn?.close();
	await sandbox?.close();
});

beforeEach(async () => {
	await client.reset();
});

type RunData = Record<
	string,
	Array<{ executionStatus?: string; data?: Record<string, Array<Array<{ json: IDataObject }>>>; error?: unknown }>
>;

/** The whole run data of `n8n execute --rawOutput` (the instance's outputs hold only `main`; tools answer on `ai_tool`). */
function runDataOf(run: ExecutedRun): RunData {
	const { stdout } = run.raw;
	const start = /^\{\n\s+"data"/m.exec(stdout);
	if (!start) throw new Error(`no run data in n8n's output\n${stdout}\n${run.raw.stderr}`);
	return (JSON.parse(stdout.slice(start.index)) as { data: { resultData: { runData: RunData } } }).data.resultData
		.runData;
}

/** What each run of a tool node answered: the json of the items of its `ai_tool` output (our node's output items). */
function toolAnswers(run: ExecutedRun, node: string): IDataObject[][] {
	return (runDataOf(run)[node] ?? []).map((nodeRun) => {
		expect(nodeRun.error).toBeUndefined();
		return (nodeRun.data?.ai_tool?.[0] ?? []).map((item) => item.json);
	});
}

async function execute(workflowId: string): Promise<ExecutedRun> {
	const run = await n8n.execute(workflowId);
	if (!run.ok)
		throw new Error(
			`the run failed: ${JSON.stringify(run.error)}\n${run.raw.stdout.slice(-4000)}\n${run.raw.stderr.slice(-4000)}`,
		);
	return run;
}

const toolMessages = (body: ChatRequestBody): ChatMessage[] =>
	body.messages.filter((message) => message.role === 'tool');

/** The second step: it answers only when the request carries a tool result for every call of the first. */
const finalAnswer =
	(content: string): ScriptStep =>
	(body) => {
		if (toolMessages(body).length === 0) throw new Error('the request carries no tool result');
		return { content };
	};

describe.each(N8N_APPS.map((appFolder) => [pinnedN8nVersion(appFolder), appFolder] as const))(
	'our nodes as tools of an AI Agent in n8n %s',
	(_, appFolder) => {
		beforeAll(async () => {
			n8n = N8nInstance.create(ensureN8nApp(appFolder));
			await n8n.importCredentials([
				...sandboxCredentials(sandbox.url),
				{ ...OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-stand-in-not-a-key', url: standIn.url } },
			]);
			// n8n's import:workflow takes an array of workflows in one file: one CLI start instead of three.
			await n8n.importWorkflow(
				[example, subscribeWorkflow, twoCallsWorkflow, previewWorkflow].map((workflow) => forLine(appFolder, workflow)),
			);
		}, 600_000);

		afterAll(async () => {
			await n8n?.dispose();
		});

		test('the agent tracks an event through the User tool: the model’s arguments land in the platform, our answer reaches the model, the agent answers', async () => {
			const final = 'Recorded plan_upgraded for cust-ai-7001 (plan gold, from the pricing page).';
			const modelArguments: Array<[RegExp, unknown]> = [
				[/external/i, 'cust-ai-7001'],
				[/name/i, 'plan_upgraded'],
				[/propert/i, { plan: 'gold', source: 'pricing_page', seats: 5 }],
			];
			standIn.script([
				(body) => {
					const tool = offeredTool(body, /track/i);
					return { toolCalls: [{ name: tool.function.name, arguments: argumentsFor(tool, modelArguments) }] };
				},
				finalAnswer(final),
			]);

			const run = await execute(example.id);

			// What n8n offered the model: both tools, named after their nodes, with the $fromAI keys as arguments.
			const [first, second, ...more] = standIn.chatRequests();
			expect(more).toEqual([]);
			expect(first.tools?.map((tool) => tool.function.name).sort()).toEqual(['Set_Newsletter_State', 'Track_Event']);
			const trackTool = offeredTool(first, /track/i).function;
			const trackNode = example.nodes.find((node) => node.name === TRACK_TOOL);
			expect(trackTool.description).toBe(trackNode?.parameters.toolDescription);
			expect(trackTool.parameters).toEqual(
				expect.objectContaining({
					type: 'object',
					properties: {
						external_id: { type: 'string', description: expect.any(String) },
						event_name: { type: 'string', description: expect.any(String) },
						event_properties: { description: expect.any(String) },
					},
					required: ['external_id', 'event_name', 'event_properties'],
				}),
			);
			expect(first.messages.map((message) => message.role)).toEqual(['system', 'user']);
			expect(first.messages[1].content).toContain('cust-ai-7001');

			// (a) The event the model asked for is in the platform, with exactly its arguments.
			const [call] = standIn.toolCallsSent;
			const args = JSON.parse(call.function.arguments) as {
				external_id: string;
				event_name: string;
				event_properties: IDataObject;
			};
			const requests = await client.requests();
			expect(requests.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
				'POST /users/track 201',
			]);
			const body = requests[0].body as { events: IDataObject[]; attributes?: unknown; purchases?: unknown };
			expect(body.events).toEqual([
				{
					external_id: args.external_id,
					name: args.event_name,
					properties: args.event_properties,
					time: expect.any(String),
				},
			]);
			expect(body.attributes ?? []).toEqual([]);
			expect(body.purchases ?? []).toEqual([]);
			const state = await client.state();
			const profile = state.profiles.find((candidate) => candidate.external_id === 'cust-ai-7001');
			expect(state.events).toEqual([
				expect.objectContaining({
					service_id: profile?.service_id,
					name: 'plan_upgraded',
					properties: { plan: 'gold', source: 'pricing_page', seats: 5 },
				}),
			]);

			// (b) Our node's answer for that item is the tool's result in the next chat request, paired with the call.
			const answers = toolAnswers(run, TRACK_TOOL);
			expect(answers).toHaveLength(1);
			const [answered] = answers;
			// The node's words over the tool call's own fields (the agent's arguments), as for any input row.
			expect(answered).toEqual([
				expect.objectContaining({
					[OUTPUT_FIELD]: { status: 'tracked', external_id: 'cust-ai-7001', events_tracked: 1 },
				}),
			]);
			expect(second.messages.slice(2)).toEqual([
				expect.objectContaining({
					role: 'assistant',
					tool_calls: [
						expect.objectContaining({ id: call.id, function: expect.objectContaining({ name: 'Track_Event' }) }),
					],
				}),
				{ role: 'tool', tool_call_id: call.id, content: expect.any(String) },
			]);
			expect(JSON.parse(toolMessages(second)[0].content as string)).toEqual(answered);

			// (c) The model's final answer is the agent's output, paired with the prompt's item.
			expect(run.outputs[AGENT]).toEqual([{ json: { output: final }, pairedItem: { item: 0 } }]);
		});

		test('a tool set to Preview (Send Nothing): nothing reaches the platform, and the model is told what would be sent', async () => {
			standIn.script([
				(body) => {
					const tool = offeredTool(body, /track/i);
					return {
						toolCalls: [
							{
								name: tool.function.name,
								arguments: argumentsFor(tool, [
									[/external/i, 'cust-ai-7005'],
									[/name/i, 'plan_upgraded'],
									[/propert/i, { plan: 'gold', source: 'pricing_page' }],
								]),
							},
						],
					};
				},
				finalAnswer('This would record plan_upgraded for cust-ai-7005; nothing was sent.'),
			]);

			const run = await execute(previewWorkflow.id);

			expect(await client.requests()).toEqual([]);
			expect((await client.state()).events).toEqual([]);
			const [answered] = toolAnswers(run, TRACK_TOOL);
			const words = answered[0][OUTPUT_FIELD] as IDataObject;
			expect(words).toMatchObject({
				status: 'preview',
				wouldSend: true,
				request: { number: 1, of: 1, method: 'POST', path: '/users/track' },
				sends: {
					events: [
						expect.objectContaining({
							external_id: 'cust-ai-7005',
							name: 'plan_upgraded',
							properties: { plan: 'gold', source: 'pricing_page' },
						}),
					],
				},
			});
			// The model's next request carries that answer as the tool's result.
			const [, second] = standIn.chatRequests();
			expect(JSON.parse(toolMessages(second)[0].content as string)).toEqual(answered);
		});

		test('the agent sets a subscription state through the Subscription tool; the fixed group stays fixed', async () => {
			await client.seed({
				subscriptionGroups: [NEWSLETTER],
				profiles: [{ external_id: 'cust-ai-7002', email: 'cust-ai-7002@example.com' }],
			});
			const final = 'cust-ai-7002 is now subscribed to the newsletter.';
			standIn.script([
				(body) => {
					const tool = offeredTool(body, /newsletter|subscri/i);
					const args = argumentsFor(tool, [
						[/external/i, 'cust-ai-7002'],
						[/state/i, 'subscribed'],
					]);
					return { toolCalls: [{ name: tool.function.name, arguments: args }] };
				},
				finalAnswer(final),
			]);

			const run = await execute(subscribeWorkflow.id);

			const subscriptionTool = offeredTool(standIn.chatRequests()[0], /newsletter|subscri/i).function;
			expect(subscriptionTool.name).toBe('Set_Newsletter_State');
			expect(Object.keys(subscriptionTool.parameters?.properties ?? {}).sort()).toEqual([
				'external_id',
				'subscription_state',
			]);

			// (a) One request with the model's ID and state and the workflow's group; the profile is subscribed.
			const requests = await client.requests();
			expect(requests.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
				'POST /v2/subscription/status/set 201',
			]);
			expect(requests[0].body).toEqual({
				subscription_groups: [
					{ subscription_group_id: NEWSLETTER, subscription_state: 'subscribed', external_ids: ['cust-ai-7002'] },
				],
			});
			const state = await client.state();
			const profile = state.profiles.find((candidate) => candidate.external_id === 'cust-ai-7002');
			expect(state.subscriptionGroups[NEWSLETTER]?.[profile?.service_id ?? '']).toBe('subscribed');

			// (b) and (c)
			const [answer] = toolAnswers(run, SUBSCRIPTION_TOOL);
			expect(answer).toEqual([
				expect.objectContaining({
					[OUTPUT_FIELD]: {
						status: 'subscribed',
						subscription_group_id: NEWSLETTER,
						subscription_state: 'subscribed',
						external_id: 'cust-ai-7002',
					},
				}),
			]);
			const [, second] = standIn.chatRequests();
			const [toolMessage] = toolMessages(second);
			expect(toolMessage.tool_call_id).toBe(standIn.toolCallsSent[0].id);
			expect(JSON.parse(toolMessage.content as string)).toEqual(answer);
			expect(run.outputs[AGENT]).toEqual([{ json: { output: final }, pairedItem: { item: 0 } }]);
		});

		test('arguments our node refuses: nothing is sent; 2.x hands the error to the model and its corrected call goes through, 1.x stops the run', async () => {
			await client.seed({ subscriptionGroups: [NEWSLETTER], profiles: [{ external_id: 'cust-ai-7002' }] });
			const call = (body: ChatRequestBody, state: string) => {
				const tool = offeredTool(body, /newsletter|subscri/i);
				return {
					toolCalls: [
						{
							name: tool.function.name,
							arguments: argumentsFor(tool, [
								[/external/i, 'cust-ai-7002'],
								[/state/i, state],
							]),
						},
					],
				};
			};
			if (appFolder === N8N_APP_1X) {
				// n8n 1.x's agent stops its run when a tool fails, instead of handing the error to the model.
				standIn.script([(body) => call(body, 'yes please')]);
				const failed = await n8n.execute(subscribeWorkflow.id);
				expect(failed.ok).toBe(false);
				expect(`${failed.raw.stdout}${failed.raw.stderr}`).toContain('must be subscribed or unsubscribed');
				expect(standIn.chatRequests()).toHaveLength(1);
				expect(await client.requests()).toEqual([]);
				return;
			}
			standIn.script([
				(body) => call(body, 'yes please'),
				(body) => {
					const [refusal] = toolMessages(body);
					if (!String(refusal?.content).includes('must be subscribed or unsubscribed'))
						throw new Error(`unexpected tool result ${String(refusal?.content)}`);
					return call(body, 'subscribed');
				},
				finalAnswer('cust-ai-7002 is now subscribed.'),
			]);

			const run = await execute(subscribeWorkflow.id);

			const chats = standIn.chatRequests();
			expect(chats).toHaveLength(3);
			const [refusal, accepted] = toolMessages(chats[2]);
			expect(JSON.parse(refusal.content as string)).toEqual([
				{ error: '"State" must be subscribed or unsubscribed, got "yes please"' },
			]);
			expect(JSON.parse(accepted.content as string)).toEqual([
				expect.objectContaining({
					[OUTPUT_FIELD]: expect.objectContaining({ status: 'subscribed', subscription_state: 'subscribed' }),
				}),
			]);
			const requests = await client.requests();
			expect(requests.map((request) => [request.path, request.status, request.body])).toEqual([
				[
					'/v2/subscription/status/set',
					201,
					{
						subscription_groups: [
							{ subscription_group_id: NEWSLETTER, subscription_state: 'subscribed', external_ids: ['cust-ai-7002'] },
						],
					},
				],
			]);
			expect(run.outputs[AGENT]).toEqual([
				{ json: { output: 'cust-ai-7002 is now subscribed.' }, pairedItem: { item: 0 } },
			]);
		});

		test('two tool calls in one turn: one run of our node and one request per call, each result paired with its call', async () => {
			const customers = ['cust-ai-7003', 'cust-ai-7004'];
			standIn.script([
				(body) => {
					const tool = offeredTool(body, /track/i);
					return {
						toolCalls: customers.map((customer, index) => ({
							name: tool.function.name,
							arguments: argumentsFor(tool, [
								[/external/i, customer],
								[/name/i, 'review_left'],
								[/propert/i, { stars: 4 + index }],
							]),
						})),
					};
				},
				finalAnswer('Recorded review_left for both customers.'),
			]);

			const run = await execute(twoCallsWorkflow.id);

			const requests = await client.requests();
			expect(requests.map((request) => request.path)).toEqual(['/users/track', '/users/track']);
			const sentEvents = requests.map((request) => (request.body as { events: IDataObject[] }).events);
			expect(sentEvents.map((events) => events.map((event) => [event.external_id, event.properties])).sort()).toEqual([
				[['cust-ai-7003', { stars: 4 }]],
				[['cust-ai-7004', { stars: 5 }]],
			]);

			const answers = toolAnswers(run, TRACK_TOOL);
			expect(answers).toHaveLength(2);
			const [, second] = standIn.chatRequests();
			const results = toolMessages(second);
			expect(results.map((message) => message.tool_call_id).sort()).toEqual(
				standIn.toolCallsSent.map((call) => call.id).sort(),
			);
			for (const message of results) {
				const callArguments = JSON.parse(
					standIn.toolCallsSent.find((call) => call.id === message.tool_call_id)?.function.arguments ?? '{}',
				) as IDataObject;
				expect(JSON.parse(message.content as string)).toEqual([
					expect.objectContaining({
						[OUTPUT_FIELD]: expect.objectContaining({ status: 'tracked', external_id: callArguments.external_id }),
					}),
				]);
			}
			expect(run.outputs[AGENT]).toEqual([
				{ json: { output: 'Recorded review_left for both customers.' }, pairedItem: { item: 0 } },
			]);
		});
	},
);
