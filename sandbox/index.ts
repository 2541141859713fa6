import type { AddressInfo } from 'node:net';
import { ADMIN_ROUTES } from './admin/adminRoutes';
import { createSandboxServer } from './core/server';
import { SandboxRuntime } from './core/runtime';
import { API_ROUTES } from './routes';

export { SandboxClient } from './client';
export { DEMO_API_KEY } from './core/auth';
export { DEMO_SCIM_ORIGIN, DEMO_SCIM_TOKEN } from './core/scimTokenStore';
export { ADMIN_PREFIX } from './admin/adminRoutes';
export { DEFAULT_RATE_LIMITS } from './rateLimits';
export {
	DEMO_DASHBOARD,
	DEMO_MESSAGING,
	DEMO_PREFERENCE_CENTERS,
	DEMO_SUBSCRIPTION_GROUPS,
	DEMO_TRANSLATIONS,
} from './seed';
export type * from './adminApiTypes';
export type * from './dashboardApiTypes';

export interface SandboxOptions {
	/** Default 0: a free port. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Added to every API (not admin) response. Default 0. */
	latencyMs?: number;
	/** Default 'empty'. */
	seed?: 'empty' | 'demo';
	/** Keep request and response bodies in the request log. Default true. */
	logBodies?: boolean;
}

export interface Sandbox {
	/** e.g. http://127.0.0.1:PORT */
	url: string;
	port: number;
	close(): Promise<void>;
}

/** Starts a local in-memory Engagement Platform. Latency and logBodies given here are what a reset returns to. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const host = options.host ?? '127.0.0.1';
	const runtime = new SandboxRuntime(
		{ latencyMs: options.latencyMs ?? 0, logBodies: options.logBodies ?? true },
		options.seed ?? 'empty',
	);
	const server = createSandboxServer({ runtime, apiRoutes: API_ROUTES, adminRoutes: ADMIN_ROUTES });

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	const urlHost = host.includes(':') ? `[${host}]` : host;
	return {
		url: `http://${urlHost}:${port}`,
		port,
		close: () =>
			new Promise<void>((resolve, reject) => {
				runtime.stopBackgroundTasks();
				server.close((error) => (error ? reject(error) : resolve()));
				// Keep-alive connections would otherwise hold close() open until they time out.
				server.closeAllConnections();
			}),
	};
}
