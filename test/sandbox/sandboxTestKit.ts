import { DEMO_API_KEY, SandboxClient, startSandbox, type Sandbox } from '../../sandbox';

export interface ApiAnswer {
	status: number;
	headers: Headers;
	body: any;
}

export interface SandboxUnderTest {
	readonly url: string;
	readonly admin: SandboxClient;
	/** A request to the platform API with the demo key unless `apiKey` says otherwise (null: no Authorization). */
	call(
		method: string,
		path: string,
		body?: unknown,
		options?: { apiKey?: string | null; headers?: Record<string, string> },
	): Promise<ApiAnswer>;
	track(body: unknown, apiKey?: string): Promise<ApiAnswer>;
}

/**
 * One sandbox for the test file, started on a free port and reset before each test, then given
 * `subscriptionGroups`, the groups the file's tests use (the platform refuses any other group ID).
 */
export function useSandbox(setup: { subscriptionGroups?: readonly string[] } = {}): SandboxUnderTest {
	let sandbox: Sandbox;
	let admin: SandboxClient;

	beforeAll(async () => {
		sandbox = await startSandbox();
		admin = new SandboxClient(sandbox.url);
	});
	beforeEach(async () => {
		await admin.reset();
		if (setup.subscriptionGroups) await admin.seed({ subscriptionGroups: [...setup.subscriptionGroups] });
	});
	afterAll(async () => {
		await sandbox.close();
	});

	const call: SandboxUnderTest['call'] = async (method, path, body, options = {}) => {
		const apiKey = options.apiKey === undefined ? DEMO_API_KEY : options.apiKey;
		const headers: Record<string, string> = { ...options.headers };
		if (apiKey !== null) headers.Authorization = `Bearer ${apiKey}`;
		if (body !== undefined && headers['Content-Type'] === undefined) headers['Content-Type'] = 'application/json';
		const response = await fetch(`${sandbox.url}${path}`, {
			method,
			headers,
			body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		});
		const text = await response.text();
		return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
	};

	return {
		get url() {
			return sandbox.url;
		},
		get admin() {
			return admin;
		},
		call,
		track: (body, apiKey) => call('POST', '/users/track', body, { apiKey }),
	};
}

export const AT = '2024-05-01T10:00:00Z';
