import type {
	ApiKeyPermissions,
	FaultRule,
	RecordedRequest,
	RequestFilter,
	SandboxConfigPatch,
	SandboxConfigView,
	SeedData,
	SeedName,
	SeedResult,
	StateView,
	StatsView,
} from './adminApiTypes';

/**
 * Typed client of the sandbox's admin API, usable from this process or another (it only needs the URL).
 */
export class SandboxClient {
	private readonly baseUrl: string;

	constructor(baseUrl: string) {
		this.baseUrl = baseUrl.replace(/\/+$/, '');
	}

	/** Clears state, request log, faults, rate-limit windows and config; seeds 'empty' unless told otherwise. */
	async reset(options: { seed?: SeedName } = {}): Promise<void> {
		await this.call('POST', 'reset', options);
	}

	/** Adds a REST API key, or replaces its permissions. */
	async addApiKey(key: string, permissions: ApiKeyPermissions): Promise<void> {
		await this.call('POST', 'api-keys', { key, permissions });
	}

	/** Adds a SCIM token, valid only with `X-Request-Origin: <origin>` (or moves an existing one there). */
	async addScimToken(token: string, origin: string): Promise<void> {
		await this.call('POST', 'scim-tokens', { token, origin });
	}

	/** Changes part of the configuration and returns all of it. */
	configure(config: SandboxConfigPatch): Promise<SandboxConfigView> {
		return this.call('POST', 'config', config);
	}

	/** Adds fault rules after those still pending. */
	async injectFaults(rules: FaultRule[]): Promise<void> {
		await this.call('POST', 'faults', { rules });
	}

	/** Drops the fault rules still pending. */
	async clearFaults(): Promise<void> {
		await this.call('POST', 'faults/clear', {});
	}

	requests(filter: RequestFilter = {}): Promise<RecordedRequest[]> {
		const query = new URLSearchParams();
		if (filter.path !== undefined) query.set('path', filter.path);
		if (filter.method !== undefined) query.set('method', filter.method);
		const search = query.toString();
		const suffix = search === '' ? '' : `?${search}`;
		return this.call('GET', `requests${suffix}`);
	}

	state(): Promise<StateView> {
		return this.call('GET', 'state');
	}

	stats(): Promise<StatsView> {
		return this.call('GET', 'stats');
	}

	seed(data: SeedData): Promise<SeedResult> {
		return this.call('POST', 'seed', data);
	}

	private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
		const response = await this.send(method, path, body);
		const text = await response.text();
		const parsed: unknown = text === '' ? undefined : JSON.parse(text);
		if (!response.ok) {
			const message = (parsed as { message?: string } | undefined)?.message ?? text;
			throw new Error(`Sandbox admin ${method} /_admin/${path} failed with ${response.status}: ${message}`);
		}
		return parsed as T;
	}

	/**
	 * Sends one admin request. After a long pause the server may already have closed the pooled
	 * connections fetch picks from; such a request never reached it, so it is sent again (a few
	 * times, as several pooled connections may be stale).
	 */
	private async send(method: 'GET' | 'POST', path: string, body: unknown, attempt = 1): Promise<Response> {
		try {
			return await fetch(`${this.baseUrl}/_admin/${path}`, {
				method,
				headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
		} catch (error) {
			const code = (error as { cause?: { code?: string } }).cause?.code;
			if (attempt >= 4 || !['UND_ERR_SOCKET', 'EPIPE', 'ECONNRESET'].includes(code ?? '')) throw error;
			return await this.send(method, path, body, attempt + 1);
		}
	}
}
