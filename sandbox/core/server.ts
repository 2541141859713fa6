import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ADMIN_PREFIX, AdminInputError, type AdminRoute } from '../admin/adminRoutes';
import { serveApiRequest } from './apiPipeline';
import { parseJsonBody, queryOf, readBody, sendJson } from './http';
import { RouteTable, type RouteDeclaration } from './route';
import type { SandboxRuntime } from './runtime';

export interface ServerParts {
	runtime: SandboxRuntime;
	apiRoutes: readonly RouteDeclaration[];
	adminRoutes: readonly AdminRoute[];
}

/** The HTTP front door: admin requests under ADMIN_PREFIX, everything else to the API pipeline. */
export function createSandboxServer({ runtime, apiRoutes, adminRoutes }: ServerParts): Server {
	const routes = new RouteTable(apiRoutes);
	const server = createServer((request, response) => {
		serve(runtime, routes, adminRoutes, request, response).catch((error: unknown) => {
			if (!response.headersSent && !response.destroyed) {
				sendJson(response, 500, {
					message: `Sandbox internal error: ${error instanceof Error ? error.message : String(error)}`,
				});
			}
		});
	});
	// Node's default closes an idle connection after 5 s, which races a client reusing it after a
	// long pause (an admin call after a minute-long run fails with "other side closed").
	server.keepAliveTimeout = 65_000;
	return server;
}

async function serve(
	runtime: SandboxRuntime,
	routes: RouteTable,
	adminRoutes: readonly AdminRoute[],
	request: IncomingMessage,
	response: ServerResponse,
): Promise<void> {
	const receivedAt = Date.now();
	const rawBody = await readBody(request);
	const url = new URL(request.url ?? '/', 'http://sandbox.invalid');
	const method = (request.method ?? 'GET').toUpperCase();
	if (url.pathname.startsWith(ADMIN_PREFIX)) {
		serveAdminRequest(runtime, adminRoutes, method, url, request, rawBody, response);
		return;
	}
	await serveApiRequest(
		runtime,
		routes,
		{ method, path: url.pathname, query: queryOf(url), headers: request.headers, rawBody, receivedAt },
		response,
	);
}

function serveAdminRequest(
	runtime: SandboxRuntime,
	adminRoutes: readonly AdminRoute[],
	method: string,
	url: URL,
	request: IncomingMessage,
	rawBody: Buffer,
	response: ServerResponse,
): void {
	const path = url.pathname.slice(ADMIN_PREFIX.length).replace(/\/$/, '');
	const route = adminRoutes.find((candidate) => candidate.method === method && candidate.path === path);
	if (!route) {
		sendJson(response, 404, { message: `Not found: no admin endpoint ${method} ${url.pathname}` });
		return;
	}
	const parsed = parseJsonBody(request.headers, rawBody);
	if (!parsed.ok) {
		sendJson(response, parsed.failure.status, parsed.failure.body);
		return;
	}
	try {
		sendJson(response, 200, route.handle(runtime, { body: parsed.value, query: queryOf(url) }));
	} catch (error) {
		if (!(error instanceof AdminInputError)) throw error;
		sendJson(response, 400, { message: error.message });
	}
}
