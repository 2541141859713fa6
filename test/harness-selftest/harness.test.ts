import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

import type {
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { packageCredentialTypes, packageNodeTypes, readPackageInfo, runWorkflow } from '../harness';

// The harness must reach loopback even where the environment turns n8n's SSRF protection on.
process.env.N8N_SSRF_PROTECTION_ENABLED = 'true';

// Nothing may reach the console: n8n's logs go into each run's `logs`.
const consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
	jest.spyOn(console, method).mockImplementation(() => {}),
);
afterAll(() => {
	for (const spy of consoleSpies) {
		expect(spy).not.toHaveBeenCalled();
		spy.mockRestore();
	}
});

// ---------------------------------------------------------------------------------------------------
// A local HTTP server on loopback that records every request.
interface Recorded {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

let server: http.Server;
let baseUrl: string;
const received: Recorded[] = [];

beforeAll(async () => {
	server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
			if (req.url?.startsWith('/fail')) {
				res.writeHead(500, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ message: 'boom' }));
				return;
			}
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ ok: true, path: req.url, echo: body ? JSON.parse(body) : null }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
	received.length = 0;
});

// ---------------------------------------------------------------------------------------------------
// Test node and credential types.
const SECRET = 'sk-selftest-0123456789abcdef';

class SelftestApi implements ICredentialType {
	name = 'selftestApi';
	displayName = 'Selftest API';
	properties: ICredentialType['properties'] = [
		{ displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '' },
		{ displayName: 'Base URL', name: 'url', type: 'string', default: 'http://127.0.0.1:1' },
		{ displayName: 'Region', name: 'region', type: 'string', default: 'eu-1' },
	];
	authenticate = {
		type: 'generic' as const,
		properties: {
			headers: { Authorization: '=Bearer {{$credentials.apiKey}}', 'X-Region': '={{$credentials.region}}' },
			qs: { client: 'selftest' },
		},
	};
}

function description(name: string, extra: Partial<INodeTypeDescription> = {}): INodeTypeDescription {
	return {
		displayName: name,
		name,
		group: ['transform'],
		version: 1,
		description: name,
		defaults: { name },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
		...extra,
	};
}

/** Sends one request per item to the credential's URL + `path`, authenticated. */
class HttpNode implements INodeType {
	description = description('selftestHttp', {
		credentials: [{ name: 'selftestApi', required: true }],
		properties: [
			{ displayName: 'Path', name: 'path', type: 'string', default: '/things' },
			{ displayName: 'Authenticated', name: 'authenticated', type: 'boolean', default: true },
		],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const credentials = await this.getCredentials<{ url: string }>('selftestApi');
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			try {
				const path = this.getNodeParameter('path', i) as string;
				const request = { method: 'POST' as const, url: `${credentials.url}${path}`, body: items[i].json, json: true };
				const response = (this.getNodeParameter('authenticated', i) as boolean)
					? await this.helpers.httpRequestWithAuthentication.call(this, 'selftestApi', request)
					: await this.helpers.httpRequest(request);
				out.push({ json: response as IDataObject, pairedItem: { item: i } });
			} catch (error) {
				if (this.continueOnFail()) {
					out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
					continue;
				}
				throw error;
			}
		}
		return [out];
	}
}

/** Fails for items whose json.bad is true; with continueOnFail the item carries the error instead. */
class ValidateNode implements INodeType {
	description = description('selftestValidate');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			if (items[i].json.bad) {
				const error = new NodeOperationError(this.getNode(), `Item ${i} is bad`, { itemIndex: i });
				if (this.continueOnFail()) {
					out.push({ json: { error: error.message }, pairedItem: { item: i } });
					continue;
				}
				throw error;
			}
			out.push({ json: { ...items[i].json, valid: true }, pairedItem: { item: i } });
		}
		return [out];
	}
}

/** One output item per input item, paired (no copies: cheap for 100,000 items). */
class PassthroughNode implements INodeType {
	description = description('selftestPassthrough');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData().map((item, i) => ({ json: item.json, pairedItem: { item: i } }))];
	}
}

/** Emits two items per input item, both paired to it (like an export returning several records). */
class FanOutNode implements INodeType {
	description = description('selftestFanOut');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		this.getInputData().forEach((item, i) => {
			out.push({ json: { ...item.json, copy: 1 }, pairedItem: { item: i } });
			out.push({ json: { ...item.json, copy: 2 }, pairedItem: { item: i } });
		});
		this.logger.info('fan-out done', { count: out.length });
		return [out];
	}
}

/** Throws a plain (unexpected) error, the kind n8n reports through its ErrorReporter. */
class CrashNode implements INodeType {
	description = description('selftestCrash');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		throw new TypeError('Cannot read properties of undefined');
	}
}

/** Waits a little, then logs which run it belongs to (for the concurrency test). */
class SlowLogNode implements INodeType {
	description = description('selftestSlowLog', {
		properties: [{ displayName: 'Tag', name: 'tag', type: 'string', default: '' }],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tag = this.getNodeParameter('tag', 0) as string;
		await new Promise((resolve) => setTimeout(resolve, 20));
		this.logger.info(`tag ${tag}`);
		return [this.getInputData()];
	}
}

/** Declares a required parameter (for the workflow-issues test). */
class RequiredParamNode implements INodeType {
	description = description('selftestRequired', {
		properties: [{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true }],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/** Calls the package's own engagementPlatformApi credential type (loaded by the harness from credentials/). */
class PackageCredentialNode implements INodeType {
	description = description('selftestPackageCredential', {
		credentials: [{ name: 'engagementPlatformApi', required: true }],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials<{ restEndpoint: string }>('engagementPlatformApi');
		const response = await this.helpers.httpRequestWithAuthentication.call(this, 'engagementPlatformApi', {
			method: 'GET',
			url: `${credentials.restEndpoint}/package-credential`,
			json: true,
		});
		return [[{ json: response as IDataObject, pairedItem: { item: 0 } }]];
	}
}

const nodeTypes = {
	selftestCrash: new CrashNode(),
	selftestSlowLog: new SlowLogNode(),
	selftestRequired: new RequiredParamNode(),
	selftestPackageCredential: new PackageCredentialNode(),
	selftestHttp: new HttpNode(),
	selftestValidate: new ValidateNode(),
	selftestPassthrough: new PassthroughNode(),
	selftestFanOut: new FanOutNode(),
};
const credentialTypes = { selftestApi: new SelftestApi() };

const chain = (...names: string[]) => {
	const connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }> = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: NodeConnectionTypes.Main, index: 0 }]] };
	}
	return connections;
};

// ---------------------------------------------------------------------------------------------------
describe('test harness', () => {
	it('sends authenticated requests to a loopback server (declarative generic authenticate)', async () => {
		const result = await runWorkflow({
			nodes: [{ name: 'Call', type: 'selftestHttp', parameters: { path: '/things' } }],
			connections: chain('Start', 'Call'),
			items: [{ a: 1 }, { a: 2 }],
			credentials: { selftestApi: { apiKey: SECRET, url: baseUrl } },
			nodeTypes,
			credentialTypes,
		});

		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('success');
		expect(received).toHaveLength(2);
		for (const request of received) {
			expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
			expect(request.headers['x-region']).toBe('eu-1'); // credential type default applied
			expect(request.url).toBe('/things?client=selftest');
		}
		expect(received.map((r) => JSON.parse(r.body))).toEqual([{ a: 1 }, { a: 2 }]);
		expect(result.output('Call').map((item) => item.json.echo)).toEqual([{ a: 1 }, { a: 2 }]);
		expect(result.output('Call').map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		// the secret never shows up in logs or output
		expect(JSON.stringify(result.logs)).not.toContain(SECRET);
		expect(JSON.stringify(result.output('Call'))).not.toContain(SECRET);
	});

	it('lets this.helpers.httpRequest reach loopback without authentication', async () => {
		const result = await runWorkflow({
			nodes: [{ name: 'Call', type: 'selftestHttp', parameters: { path: '/plain', authenticated: false } }],
			connections: chain('Start', 'Call'),
			items: [{ x: true }],
			credentials: { selftestApi: { apiKey: SECRET, url: baseUrl } },
			nodeTypes,
			credentialTypes,
		});
		expect(result.error).toBeUndefined();
		expect(received).toHaveLength(1);
		expect(received[0].headers.authorization).toBeUndefined();
		expect(result.output('Call')[0].json.path).toBe('/plain');
	});

	it('accepts a credential type whose authenticate is a function', async () => {
		const fnCredential: ICredentialType = {
			name: 'selftestApi',
			displayName: 'Selftest API (function)',
			properties: [
				{ displayName: 'API Key', name: 'apiKey', type: 'string', default: '' },
				{ displayName: 'Base URL', name: 'url', type: 'string', default: '' },
			],
			authenticate: async (credentials, requestOptions) => ({
				...requestOptions,
				headers: { ...(requestOptions.headers ?? {}), 'X-Api-Key': credentials.apiKey as string },
			}),
		};
		const result = await runWorkflow({
			nodes: [{ name: 'Call', type: 'selftestHttp', parameters: {} }],
			connections: chain('Start', 'Call'),
			credentials: { selftestApi: { apiKey: SECRET, url: baseUrl } },
			nodeTypes,
			credentialTypes: { selftestApi: fnCredential },
		});
		expect(result.error).toBeUndefined();
		expect(received[0].headers['x-api-key']).toBe(SECRET);
	});

	it('carries pairedItem through the chain and continueOnFail turns failures into items', async () => {
		const result = await runWorkflow({
			nodes: [
				{ name: 'Validate', type: 'selftestValidate', parameters: {}, continueOnFail: true },
				{ name: 'Fan out', type: 'selftestFanOut', parameters: {} },
			],
			connections: chain('Start', 'Validate', 'Fan out'),
			items: [{ id: 'a' }, { id: 'b', bad: true }, { id: 'c' }],
			nodeTypes,
		});

		expect(result.error).toBeUndefined();
		expect(result.executionOrder).toEqual(['Start', 'Validate', 'Fan out']);
		expect(result.output('Start')).toHaveLength(3);
		const validated = result.output('Validate');
		expect(validated.map((item) => item.json)).toEqual([
			{ id: 'a', valid: true },
			{ error: 'Item 1 is bad' },
			{ id: 'c', valid: true },
		]);
		expect(validated.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const fanned = result.output('Fan out');
		expect(fanned).toHaveLength(6);
		expect(fanned.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
			{ item: 2 },
			{ item: 2 },
		]);
		// n8n-core's node logger goes into the run's logs
		expect(result.logs).toContainEqual(expect.objectContaining({ level: 'info', message: 'fan-out done' }));
		expect(result.output('Nope')).toEqual([]);
	});

	it('continueOnFail around an HTTP error keeps the other items', async () => {
		const result = await runWorkflow({
			nodes: [{ name: 'Call', type: 'selftestHttp', parameters: { path: '={{ $json.path }}' }, continueOnFail: true }],
			connections: chain('Start', 'Call'),
			items: [{ path: '/ok' }, { path: '/fail' }],
			credentials: { selftestApi: { apiKey: SECRET, url: baseUrl } },
			nodeTypes,
			credentialTypes,
		});
		expect(result.error).toBeUndefined();
		const out = result.output('Call');
		expect(out[0].json.ok).toBe(true);
		expect(out[1].json.error).toEqual(expect.any(String));
		expect(JSON.stringify(result.run)).not.toContain(SECRET);
	});

	it('fails the run on a NodeOperationError without continueOnFail; earlier output stays readable', async () => {
		const result = await runWorkflow({
			nodes: [
				{ name: 'Pass', type: 'selftestPassthrough', parameters: {} },
				{ name: 'Validate', type: 'selftestValidate', parameters: {} },
			],
			connections: chain('Start', 'Pass', 'Validate'),
			items: [{ id: 'a' }, { id: 'b', bad: true }],
			nodeTypes,
		});

		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe('Item 1 is bad');
		expect(result.error?.stack).toContain('Item 1 is bad');
		expect(result.run.data.resultData.error?.message).toBe('Item 1 is bad');
		expect(result.run.status).toBe('error');
		expect(result.output('Pass')).toHaveLength(2);
		expect(result.output('Validate')).toEqual([]);
	});

	it('runs 100,000 items through a passthrough node quickly', async () => {
		const items = Array.from({ length: 100_000 }, (_, i) => ({ i }));
		const started = Date.now();
		const result = await runWorkflow({
			nodes: [{ name: 'Pass', type: 'selftestPassthrough', parameters: {} }],
			connections: chain('Start', 'Pass'),
			items,
			nodeTypes,
		});
		const elapsed = Date.now() - started;

		expect(result.error).toBeUndefined();
		const out = result.output('Pass');
		expect(out).toHaveLength(100_000);
		expect(out[99_999].json).toEqual({ i: 99_999 });
		expect(out[99_999].pairedItem).toEqual({ item: 99_999 });
		// generous bound; the point is "not minutes" (measured figures belong in bench/)
		expect(elapsed).toBeLessThan(15_000);
	});

	it('resolves expressions in credential data', async () => {
		const result = await runWorkflow({
			nodes: [{ name: 'Call', type: 'selftestHttp', parameters: {} }],
			connections: chain('Start', 'Call'),
			credentials: { selftestApi: { apiKey: '={{ "sk-" + "from-expression" }}', url: baseUrl } },
			nodeTypes,
			credentialTypes,
		});
		expect(result.error).toBeUndefined();
		expect(received[0].headers.authorization).toBe('Bearer sk-from-expression');
	});

	it('fails the run on an unexpected error; the error report goes into logs, not the console', async () => {
		const result = await runWorkflow({
			nodes: [{ name: 'Crash', type: 'selftestCrash', parameters: {} }],
			connections: chain('Start', 'Crash'),
			nodeTypes,
		});
		expect(result.error?.message).toBe('Cannot read properties of undefined');
		// n8n-core 2.41 reports unexpected errors sanitised (class name and stack frames, no message)
		expect(result.logs).toContainEqual(
			expect.objectContaining({ level: 'error', message: expect.stringContaining('TypeError') }),
		);
	});

	it('keeps the logs of concurrent runs apart', async () => {
		const run = (tag: string) =>
			runWorkflow({
				nodes: [{ name: 'Slow', type: 'selftestSlowLog', parameters: { tag } }],
				connections: chain('Start', 'Slow'),
				nodeTypes,
			});
		const [a, b] = await Promise.all([run('A'), run('B')]);
		const tags = (logs: Array<{ message: string }>) =>
			logs.filter((entry) => entry.message.startsWith('tag ')).map((entry) => entry.message);
		expect(tags(a.logs)).toEqual(['tag A']);
		expect(tags(b.logs)).toEqual(['tag B']);
		expect(a.run.data.resultData.runData.Slow).toHaveLength(1);
	});

	it('rejects a workflow whose nodes have issues (missing required parameter)', async () => {
		const outcome = await runWorkflow({
			nodes: [{ name: 'Needs name', type: 'selftestRequired', parameters: {} }],
			connections: chain('Start', 'Needs name'),
			nodeTypes,
		}).then(
			(result) => result.error,
			(error: Error) => error,
		);
		expect(outcome?.message).toMatch(/Parameter "Name" is required/);
	});

	const packageApiCredential = path.join(readPackageInfo().root, 'credentials/EngagementPlatformApi.credentials.ts');
	(existsSync(packageApiCredential) ? it : it.skip)(
		"loads the package's credential types from their TypeScript sources",
		async () => {
			expect(Object.keys(packageCredentialTypes())).toContain('engagementPlatformApi');
			const result = await runWorkflow({
				nodes: [{ name: 'Call', type: 'selftestPackageCredential', parameters: {} }],
				connections: chain('Start', 'Call'),
				credentials: { engagementPlatformApi: { restEndpoint: baseUrl, apiKey: SECRET } },
				nodeTypes,
			});
			expect(result.error).toBeUndefined();
			expect(received[0].url).toBe('/package-credential');
			expect(received[0].headers.authorization).toBe(`Bearer ${SECRET}`);
		},
	);

	it('reports an unknown node type clearly', async () => {
		await expect(
			runWorkflow({ nodes: [{ name: 'X', type: 'doesNotExist', parameters: {} }], connections: {}, nodeTypes }),
		).rejects.toThrow(/unknown node type "doesNotExist"/);
	});

	it('reads the package node list without crashing while sources are missing', () => {
		const info = readPackageInfo();
		expect(info.name).toBe('n8n-nodes-engagement-platform');
		const types = packageNodeTypes();
		for (const [key, nodeType] of Object.entries(types)) {
			const name = nodeType.description.name;
			expect([name, `${info.name}.${name}`]).toContain(key);
		}
	});
});
